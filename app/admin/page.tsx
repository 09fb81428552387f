import type { Metadata } from "next";
import { Suspense } from "react";
import { AdminCatalogue } from "@/components/admin/admin-catalogue";
import { AdminHeader, MAIN_ID } from "@/components/admin/admin-header";
import { requireStaff } from "@/lib/auth/page-session";

export const metadata: Metadata = { title: "Catalogue" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function CataloguePage({ searchParams }: { searchParams: SearchParams }) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(await searchParams)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) query.append(name, item);
  }
  const staff = await requireStaff(query.size > 0 ? `/admin?${query}` : "/admin");

  return (
    <>
      <AdminHeader staff={staff} current="catalogue" />
      <main
        id={MAIN_ID}
        tabIndex={-1}
        className="focus:outline-none mx-auto grid max-w-6xl gap-8 px-4 py-4 lg:grid-cols-[minmax(0,1fr)_23rem] lg:py-6"
      >
        <Suspense>
          <AdminCatalogue />
        </Suspense>
      </main>
    </>
  );
}
