import type { Metadata } from "next";
import { AdminHeader, MAIN_ID } from "@/components/admin/admin-header";
import { StaffAccounts } from "@/components/admin/staff-accounts";
import { requireAdmin } from "@/lib/auth/page-session";

export const metadata: Metadata = { title: "Staff" };

// The staff accounts, for admins only: the page checks the role itself (403 "Admins only" for other staff), and
// so does every endpoint it calls.
export default async function StaffPage() {
  const staff = await requireAdmin("/admin/staff");
  return (
    <>
      <AdminHeader staff={staff} current="staff" />
      <main id={MAIN_ID} tabIndex={-1} className="focus:outline-none mx-auto max-w-6xl px-4 py-6">
        <h1 className="text-2xl font-semibold">Staff</h1>
        <p className="mt-1 mb-6 max-w-prose text-slate-700">
          Staff members work on the catalogue; admins also manage API keys, webhooks, staff accounts and the activity
          log. Every change here is recorded in the activity log under your name.
        </p>
        <StaffAccounts signedInId={staff.id} />
      </main>
    </>
  );
}
