import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { AdminCatalogue } from "@/components/admin/admin-catalogue";
import { SignOutButton } from "@/components/admin/sign-out-button";
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
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <Link
            href="/admin"
            className={
              "font-semibold focus-visible:outline-2 " +
              "focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
            }
          >
            Animal Store admin
          </Link>
          <div className="flex min-w-0 items-center gap-3 text-sm">
            <span className="truncate text-slate-600" title={staff.email}>
              {staff.email}
            </span>
            <SignOutButton />
          </div>
        </div>
      </header>
      <main className="mx-auto grid max-w-6xl gap-8 px-4 py-6 lg:grid-cols-[minmax(0,1fr)_23rem]">
        <Suspense>
          <AdminCatalogue />
        </Suspense>
      </main>
    </>
  );
}
