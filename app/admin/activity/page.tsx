import type { Metadata } from "next";
import { Suspense } from "react";
import { ActivityLog } from "@/components/admin/activity-log";
import { AdminHeader, MAIN_ID } from "@/components/admin/admin-header";
import { listActivityActors } from "@/lib/audit/activity";
import { requireAdmin } from "@/lib/auth/page-session";

export const metadata: Metadata = { title: "Activity" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// The activity log, for admins only: every recorded change newest first, filtered by the URL's actor, action and
// pet, paged by its cursor. The records are read by the browser from /admin/api/activity, which checks the role too.
export default async function ActivityPage({ searchParams }: { searchParams: SearchParams }) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(await searchParams)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) query.append(name, item);
  }
  const staff = await requireAdmin(query.size > 0 ? `/admin/activity?${query}` : "/admin/activity");
  const actors = await listActivityActors();

  return (
    <>
      <AdminHeader staff={staff} current="activity" />
      <main id={MAIN_ID} tabIndex={-1} className="focus:outline-none mx-auto max-w-6xl px-4 py-6">
        <Suspense>
          <ActivityLog actors={actors} />
        </Suspense>
      </main>
    </>
  );
}
