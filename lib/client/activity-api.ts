import type { ActivityRecord as ServerActivityRecord } from "@/lib/audit/activity";
import { call } from "@/lib/client/admin-api";

// The browser's side of the activity log's endpoints. The query strings are the Activity page's own URL
// parameters (actor, action, pet, cursor): the page's URL is its state, and the request repeats it.

/** A record as the endpoints send it; integers in it (the actor's id, a pet's members) arrive as bigint. */
export type ActivityRecord = Omit<ServerActivityRecord, "actor"> & {
  actor: Omit<ServerActivityRecord["actor"], "id"> & { id: bigint | null };
};

export type ActivityPage<Item = ActivityRecord> = { records: Item[]; nextCursor?: string };

/** A record of a pet's history: its endpoint, open to any staff member, leaves out where the change came from. */
export type PetHistoryRecord = Omit<ActivityRecord, "clientAddress" | "requestId">;

export const ACTIVITY_KEY = ["activity"] as const;

export function petHistoryKey(id: string) {
  return ["pet-history", id] as const;
}

async function fetchPage<Item>(path: string): Promise<ActivityPage<Item>> {
  const { body, headers } = await call(path);
  return { records: body as Item[], nextCursor: headers.get("x-next-cursor") ?? undefined };
}

/** One page of the log; `query` holds the filters, the cursor and the limit, as the endpoint takes them. */
export function fetchActivityPage(query: URLSearchParams): Promise<ActivityPage> {
  return fetchPage<ActivityRecord>(`/admin/api/activity${query.size > 0 ? `?${query}` : ""}`);
}

/** A pet's own records, newest first; `cursor` for the older ones. */
export function fetchPetHistory(id: string, cursor?: string): Promise<ActivityPage<PetHistoryRecord>> {
  const query = new URLSearchParams(cursor ? { cursor } : {});
  return fetchPage<PetHistoryRecord>(
    `/admin/api/pets/${encodeURIComponent(id)}/history${query.size > 0 ? `?${query}` : ""}`,
  );
}

/** The CSV download of the records these filters select (a plain link: the browser saves the stream itself). */
export function exportHref(filters: URLSearchParams): string {
  const query = new URLSearchParams();
  for (const name of ["actor", "action", "pet"]) {
    const value = filters.get(name);
    if (value) query.set(name, value);
  }
  return `/admin/api/activity/export${query.size > 0 ? `?${query}` : ""}`;
}
