import { z } from "zod";
import {
  activityRecordSchema,
  petHistoryRecordSchema,
  type ActivityRecord,
  type PetHistoryRecord,
} from "@/lib/audit/activity-schema";
import { callFor } from "@/lib/client/admin-api";

// The browser's side of the activity log's endpoints. The query strings are the Activity page's own URL
// parameters (actor, action, pet, cursor): the page's URL is its state, and the request repeats it.

export type { ActivityRecord, PetHistoryRecord };

export type ActivityPage<Item = ActivityRecord> = { records: Item[]; nextCursor?: string };

export const ACTIVITY_KEY = ["activity"] as const;

export function petHistoryKey(id: string) {
  return ["pet-history", id] as const;
}

async function fetchPage<Item>(record: z.ZodType<Item>, path: string): Promise<ActivityPage<Item>> {
  const { body, headers } = await callFor(z.array(record), path);
  return { records: body, nextCursor: headers.get("x-next-cursor") ?? undefined };
}

/** One page of the log; `query` holds the filters, the cursor and the limit, as the endpoint takes them. */
export function fetchActivityPage(query: URLSearchParams): Promise<ActivityPage> {
  return fetchPage(activityRecordSchema, `/admin/api/activity${query.size > 0 ? `?${query}` : ""}`);
}

/** A pet's own records, newest first; `cursor` for the older ones. */
export function fetchPetHistory(id: string, cursor?: string): Promise<ActivityPage<PetHistoryRecord>> {
  const query = new URLSearchParams(cursor ? { cursor } : {});
  return fetchPage(
    petHistoryRecordSchema,
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
