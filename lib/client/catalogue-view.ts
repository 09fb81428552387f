import { CURSOR_PATTERN } from "@/lib/pets/cursor";
import {
  petIdSchema,
  petSearchSchema,
  petSorts,
  petStatuses,
  SEARCH_MAX_LENGTH,
  type PetSort,
} from "@/lib/pets/schema";

// The catalogue page's state lives in its URL, so a filtered view is a link to share and survives a
// reload: ?status=sold&limit=50&sort=name&q=bis&cursors=A.B&pet=12. `cursors` are the /v1 cursors of the pages
// walked through to reach this one (the last is this page's); Previous drops the last, Next appends the API's
// next. `sort` is listPets' own, left out for the admin's default (newest first, so a pet just added is at the
// top); `q` is the name search, `pet` the pet whose panel is open.

export const PAGE_SIZES = [20, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const STATUS_FILTERS = ["all", ...petStatuses] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

/** The catalogue's orders, as the sort control names them, the admin's default first. */
export const SORT_CHOICES: readonly { sort: PetSort; label: string }[] = [
  { sort: "-id", label: "Newest first" },
  { sort: "id", label: "Oldest first" },
  { sort: "name", label: "Name A–Z" },
  { sort: "-name", label: "Name Z–A" },
];
export const DEFAULT_SORT: PetSort = "-id";

export type CatalogueView = {
  status: StatusFilter;
  limit: PageSize;
  sort: PetSort;
  /** The name search, trimmed; "" for none. */
  q: string;
  cursors: string[];
  /** The id (decimal digits) of the pet whose panel is open. */
  pet?: string;
};

type Params = { get(name: string): string | null };

/** The view a URL's query names; anything unrecognised falls back to the default rather than failing. */
export function readView(params: Params): CatalogueView {
  const status = params.get("status");
  const limit = Number(params.get("limit"));
  const sort = params.get("sort") ?? "";
  const q = searchText(params.get("q") ?? "");
  const cursors = (params.get("cursors") ?? "").split(".").filter((cursor) => CURSOR_PATTERN.test(cursor));
  const pet = petIdSchema.safeParse(params.get("pet") ?? "");
  return {
    status: (STATUS_FILTERS as readonly string[]).includes(status ?? "") ? (status as StatusFilter) : "all",
    limit: (PAGE_SIZES as readonly number[]).includes(limit) ? (limit as PageSize) : PAGE_SIZES[0],
    sort: (petSorts as readonly string[]).includes(sort) ? (sort as PetSort) : DEFAULT_SORT,
    q: petSearchSchema.safeParse(q).success ? q : "",
    cursors,
    ...(pet.success ? { pet: String(pet.data) } : {}),
  };
}

/** What a search box's text searches for: surrounding spaces do not count. */
export function searchText(text: string): string {
  return text.trim();
}

/**
 * What typed or pasted text searches for: what the API takes (petSearchSchema) and so what a URL keeps, a
 * control character (a pasted tab, a newline) becoming a space and the text cut to SEARCH_MAX_LENGTH
 * characters, rather than a search the URL would drop.
 */
export function typedSearch(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return searchText([...text.replace(/[\u0000-\u001f\u007f]+/g, " ")].slice(0, SEARCH_MAX_LENGTH).join(""));
}
/** The query string of a view; the page size is always written, so a shared link keeps it. */
export function viewQuery(view: CatalogueView): string {
  const query = new URLSearchParams();
  if (view.status !== "all") query.set("status", view.status);
  query.set("limit", String(view.limit));
  if (view.sort !== DEFAULT_SORT) query.set("sort", view.sort);
  if (view.q) query.set("q", view.q);
  if (view.cursors.length > 0) query.set("cursors", view.cursors.join("."));
  if (view.pet) query.set("pet", view.pet);
  return query.toString();
}

export function viewHref(view: CatalogueView): string {
  return `/admin?${viewQuery(view)}`;
}

/**
 * Where a pet just added is seen: the first page of every pet, newest first (so it is the top row), with its panel
 * open; the page size stays the view's.
 */
export function newPetHref(view: Pick<CatalogueView, "limit">, id: string): string {
  return viewHref({ status: "all", limit: view.limit, sort: DEFAULT_SORT, q: "", cursors: [], pet: id });
}

/** The /admin/api/pets query for the view's current page (the open pet does not change the list). */
export function listQuery(view: CatalogueView): string {
  // The sort is always sent: the admin's default is not listPets' (oldest first).
  const query = new URLSearchParams({ limit: String(view.limit), sort: view.sort });
  if (view.status !== "all") query.set("status", view.status);
  if (view.q) query.set("q", view.q);
  const cursor = view.cursors.at(-1);
  if (cursor) query.set("cursor", cursor);
  return query.toString();
}

/** The /admin/api/pets/counts query for the view: the counts follow the search, not the status or the page. */
export function countsQuery(view: CatalogueView): string {
  return view.q ? new URLSearchParams({ q: view.q }).toString() : "";
}
