import type { Metadata } from "next";
import { AdminHeader, MAIN_ID } from "@/components/admin/admin-header";
import { PetImport } from "@/components/admin/pet-import";
import { requireStaff } from "@/lib/auth/page-session";
import { IMPORT_LIMIT_BYTES } from "@/lib/pets/import";

export const metadata: Metadata = { title: "Import pets" };

// Importing pets from a CSV file, for any staff member: choose a file, read the dry run's report, apply.
export default async function ImportPage() {
  const staff = await requireStaff("/admin/import");
  return (
    <>
      <AdminHeader staff={staff} current="catalogue" />
      <main id={MAIN_ID} tabIndex={-1} className="focus:outline-none mx-auto max-w-4xl px-4 py-6">
        <PetImport limitBytes={IMPORT_LIMIT_BYTES} />
      </main>
    </>
  );
}
