import type { Metadata } from "next";
import { AdminHeader, MAIN_ID } from "@/components/admin/admin-header";
import { Webhooks } from "@/components/admin/webhooks";
import { requireAdmin } from "@/lib/auth/page-session";

export const metadata: Metadata = { title: "Webhooks" };

// The Webhooks page, for admins only (others get the 403 page): the endpoints, their secrets and their deliveries.
export default async function WebhooksPage() {
  const staff = await requireAdmin("/admin/webhooks");
  return (
    <>
      <AdminHeader staff={staff} current="webhooks" />
      <main id={MAIN_ID} tabIndex={-1} className="focus:outline-none mx-auto max-w-6xl px-4 py-6">
        <Webhooks />
      </main>
    </>
  );
}
