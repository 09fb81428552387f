import "server-only";
import { cookies, headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import type { SignedInStaff } from "@/lib/auth/staff";
import { sessionCookieName } from "@/lib/auth/cookies";
import { sessionStaff } from "@/lib/auth/sessions";
import { requestScheme } from "@/lib/http/forwarded";

/** The signed-in staff member, if the request carries a live session (for a page anyone may see: the 404). */
export async function signedInStaff(): Promise<SignedInStaff | undefined> {
  const scheme = requestScheme({ headers: await headers(), url: "http://page.internal/" });
  return sessionStaff((await cookies()).get(sessionCookieName(scheme))?.value);
}

/**
 * The signed-in staff member for an admin page, checked on the server by the page itself; without a
 * live session the page redirects to /sign-in, which returns to `returnTo` afterwards.
 */
export async function requireStaff(returnTo: string): Promise<SignedInStaff> {
  const staff = await signedInStaff();
  if (!staff) redirect(`/sign-in?next=${encodeURIComponent(returnTo)}`);
  return staff;
}

/**
 * The signed-in admin for an admin-only page (API keys, staff, activity); a staff member who is not an admin
 * gets the 403 page, a visitor the sign-in page.
 */
export async function requireAdmin(returnTo: string): Promise<SignedInStaff> {
  const staff = await requireStaff(returnTo);
  if (staff.role !== "admin") forbidden();
  return staff;
}
