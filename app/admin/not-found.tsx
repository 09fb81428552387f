import type { Metadata } from "next";
import Link from "next/link";
import { AdminHeader, MAIN_ID } from "@/components/admin/admin-header";
import { buttonClass } from "@/components/ui/button";
import { signedInStaff } from "@/lib/auth/page-session";

export const metadata: Metadata = { title: "Page not found" };

// What notFound() renders inside the admin app, with status 404: an unknown /admin path (app/admin/[...missing]),
// with the admin header when signed in and a way back to the catalogue.
export default async function AdminNotFound() {
  const staff = await signedInStaff();
  return (
    <>
      {staff ? <AdminHeader staff={staff} /> : null}
      <main id={MAIN_ID} tabIndex={-1} className="mx-auto max-w-6xl px-4 py-6 focus:outline-none">
        <h1 className="text-2xl font-semibold">Page not found</h1>
        <p className="mt-2 max-w-prose text-slate-700">
          There is no page at this address in the admin app. The link may be old or mistyped; the sections are in the
          header above, and the catalogue is one step away.
        </p>
        <p className="mt-6">
          <Link href="/admin" className={buttonClass({ variant: "primary", size: "large" })}>
            Back to the catalogue
          </Link>
        </p>
      </main>
    </>
  );
}
