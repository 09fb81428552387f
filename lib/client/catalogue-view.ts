import { CURSOR_PATTERN } from "@/lib/pets/cursor";
import { petStatuses } from "@/lib/pets/schema";

// The catalogue page's state lives in its URL, so a filtered view is a link to share and survives a
// reload: ?status=sold&limit=50&cursors=A.B. `cursors` are the /v1 cursors of the pages walked through
// to reach this one (the last is this page's); Previous drops the last, Next appends the API's next.

export const PAGE_SIZES = [20, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const STATUS_FILTERS = ["all", ...petStatuses] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

export type CatalogueView = { status: StatusFilter; limit: PageSize; cursors: string[] };

type Params = { get(name: string): string | null };

/** The view a URL's query names; anything unrecognised falls back to the default rather than failing. */
export function readView(params: Params): CatalogueView {
  const status = params.get("status");
  const limit = Number(params.get("limit"));
  const cursors = (params.get("cursors") ?? "").split(".").filter((cursor) => CURSOR_PATTERN.test(cursor));
  return {
    status: (STATUS_FILTERS as readonly string[]).includes(status ?? "") ? (status as StatusFilter) : "all",
    limit: (PAGE_SIZES as readonly number[]).includes(limit) ? (limit as PageSize) : PAGE_SIZES[0],
    cursors,
  };
}

/** The query string of a view; the page size is always written, so a shared link keeps it. */
export function viewQuery(view: CatalogueView): string {
  const query = new URLSearchParams();
  if (view.status !== "all") query.set("status", view.status);
  query.set("limit", String(view.limit));
  if (view.cursors.length > 0) query.set("cursors", view.cursors.join("."));
  return query.toString();
}

export function viewHref(view: CatalogueView): string {
  return `/admin?${viewQuery(view)}`;
}

/** The /admin/api/pets query for the view's current page. */
export function listQuery(view: CatalogueView): string {
  const query = new URLSearchParams({ limit: String(view.limit) });
  if (view.status !== "all") query.set("status", view.status);
  const cursor = view.cursors.at(-1);
  if (cursor) query.set("cursor", cursor);
  return query.toString();
}
