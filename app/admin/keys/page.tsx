import type { Metadata } from "next";
import { AdminHeader, MAIN_ID } from "@/components/admin/admin-header";
import { ApiKeys } from "@/components/admin/api-keys";
import { requireAdmin } from "@/lib/auth/page-session";
import { getPetDeprecation } from "@/lib/pets/deprecation";

export const metadata: Metadata = { title: "API keys" };

// The API keys page, for admins only (others get the 403 page): every key, creating one, revoking one.
export default async function KeysPage() {
  const staff = await requireAdmin("/admin/keys");
  return (
    <>
      <AdminHeader staff={staff} current="keys" />
      <main id={MAIN_ID} tabIndex={-1} className="focus:outline-none mx-auto max-w-6xl px-4 py-6">
        <ApiKeys getPetSunset={getPetDeprecation.sunset.toISOString()} />
      </main>
    </>
  );
}
