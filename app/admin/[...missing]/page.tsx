import { notFound } from "next/navigation";
import { requireStaff } from "@/lib/auth/page-session";

// Any /admin path no page or endpoint has: the admin app's own 404 (app/admin/not-found.tsx), after the session
// check every admin page makes, so a visitor signs in first. An unknown endpoint path (/admin/api/…) is a 404 at
// once: a request without a session must not be sent to sign in.
export default async function MissingAdminPage({ params }: { params: Promise<{ missing: string[] }> }) {
  const { missing } = await params;
  if (missing[0] !== "api") await requireStaff(`/admin/${missing.map(encodeURIComponent).join("/")}`);
  notFound();
}
