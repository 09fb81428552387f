import type { Metadata } from "next";
import { Suspense } from "react";
import { AdminHeader, MAIN_ID } from "@/components/admin/admin-header";
import { Orders } from "@/components/admin/orders";
import { requireStaff } from "@/lib/auth/page-session";

export const metadata: Metadata = { title: "Orders" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// The store's sales, for every signed-in staff member: the orders with their status chips, a search by customer,
// and one order opened beside the list (?order=<id>) with its timeline and the moves its status allows. The orders
// are read by the browser from /admin/api/orders, through /v1.
export default async function OrdersPage({ searchParams }: { searchParams: SearchParams }) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(await searchParams)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) query.append(name, item);
  }
  const staff = await requireStaff(query.size > 0 ? `/admin/orders?${query}` : "/admin/orders");
  return (
    <>
      <AdminHeader staff={staff} current="orders" />
      <main id={MAIN_ID} tabIndex={-1} className="focus:outline-none mx-auto max-w-6xl px-4 py-6">
        <Suspense>
          <Orders />
        </Suspense>
      </main>
    </>
  );
}
