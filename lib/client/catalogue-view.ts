import { CURSOR_PATTERN } from "@/lib/pets/cursor";
import {
  categoryFilterSchema,
  petIdSchema,
  petSearchSchema,
  petSorts,
  petStatusFilters,
  SEARCH_MAX_LENGTH,
  type PetSort,
} from "@/lib/pets/schema";

// The catalogue page's state lives in its URL, so a filtered view is a link to share and survives a
// reload: ?status=sold&categoryId=3,7&limit=50&sort=name&q=bis&cursors=A.B&pet=12. `cursors` are the /v1 cursors
// of the pages walked through to reach this one (the last is this page's); Previous drops the last, Next appends
// the API's next. `status` and `categoryId` are listPets' own (`status=none`: the pets without one); `sort` too,
// left out for the admin's default (newest first, so a pet just added is at the top); `q` is the name search,
// `pet` the pet whose panel is open. `from=end` counts the pages from the last one instead: its `cursors` are those
// of the order reversed (see reversedSort), so the last page is one keyset read from the end, and Previous from
// there appends, Next drops.

export const PAGE_SIZES = [20, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const STATUS_FILTERS = ["all", ...petStatusFilters] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

/** The catalogue's orders, as the sort control names them, the admin's default first. */
export const SORT_CHOICES: readonly { sort: PetSort; label: string }[] = [
  { sort: "-id", label: "Newest first" },
  { sort: "id", label: "Oldest first" },
  { sort: "name", label: "Name A–Z" },
  { sort: "-name", label: "Name Z–A" },
  { sort: "status", label: "Status, available first" },
  { sort: "-status", label: "Status, none first" },
  { sort: "category", label: "Category, lowest number first" },
  { sort: "-category", label: "Category, highest number first" },
];
export const DEFAULT_SORT: PetSort = "-id";

export type CatalogueView = {
  status: StatusFilter;
  limit: PageSize;
  sort: PetSort;
  /** The categories shown (decimal ids, ascending as listPets reads them); [] for every category. */
  categories: string[];
  /** The name search, trimmed; "" for none. */
  q: string;
  cursors: string[];
  /** Whether `cursors` walk from the last page backwards (`from=end`), in the order reversed. */
  fromEnd?: true;
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
    categories: readCategories(params.get("categoryId")),
    q: petSearchSchema.safeParse(q).success ? q : "",
    cursors,
    ...(params.get("from") === "end" ? { fromEnd: true as const } : {}),
    ...(pet.success ? { pet: String(pet.data) } : {}),
  };
}

/** The place of a view's first page, to spread into a view whose filter, search, order or size changes. */
export const FIRST_PAGE: Pick<CatalogueView, "cursors" | "fromEnd"> = { cursors: [], fromEnd: undefined };

/** The place of a view's last page: one keyset read of the order reversed. */
export const LAST_PAGE: Pick<CatalogueView, "cursors" | "fromEnd"> = { cursors: [], fromEnd: true };

/** The order reversed: every order breaks ties by id in its own direction, so the reverse is exact. */
export function reversedSort(sort: PetSort): PetSort {
  return (sort.startsWith("-") ? sort.slice(1) : `-${sort}`) as PetSort;
}

/** How many pages `total` pets fill, at least one (an empty list is one empty page). */
export function pageCount(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / limit));
}

/**
 * The number of the view's page: from the start, one more than the cursors walked; from the end, the last page's
 * number less the cursors walked back, which needs the count (`total`, exact) of the pets the view lists.
 */
export function pageNumber(view: CatalogueView, total?: number): number | undefined {
  if (!view.fromEnd) return view.cursors.length + 1;
  return total === undefined ? undefined : Math.max(1, pageCount(total, view.limit) - view.cursors.length);
}

/** The categories of a URL's `categoryId`, as listPets reads it; none when it would refuse it. */
function readCategories(text: string | null): string[] {
  const ids = categoryFilterSchema.safeParse(text ?? "");
  return text && ids.success ? ids.data.map(String) : [];
}

/** The `categoryId` of a set of categories: the ids ascending, each once, as listPets reads them. */
export function categoryParam(categories: readonly string[]): string {
  const ids = categoryFilterSchema.safeParse(categories.join(","));
  return ids.success ? ids.data.join(",") : "";
}

/**
 * The pet a search box's text names by id, "35" or "#35" (its digits), or undefined. Bare digits still search
 * names too ("Bella 35"); "#35" is only an id.
 */
export function typedPetId(text: string): string | undefined {
  const digits = /^#?\s*([0-9]+)$/.exec(text.trim())?.[1];
  const id = digits === undefined ? undefined : petIdSchema.safeParse(digits);
  return id?.success ? String(id.data) : undefined;
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
  if (view.categories.length > 0) query.set("categoryId", categoryParam(view.categories));
  query.set("limit", String(view.limit));
  if (view.sort !== DEFAULT_SORT) query.set("sort", view.sort);
  if (view.q) query.set("q", view.q);
  if (view.fromEnd) query.set("from", "end");
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
  return viewHref({
    status: "all",
    categories: [],
    limit: view.limit,
    sort: DEFAULT_SORT,
    q: "",
    cursors: [],
    pet: id,
  });
}

/**
 * The /admin/api/pets query for the view's current page (the open pet does not change the list). From the end, the
 * order is reversed (the page comes back last pet first) and the last page asks for only the pets it holds, so the
 * pages from the end meet the pages from the start: `total` is the count of the pets the view lists, needed then.
 */
export function listQuery(view: CatalogueView, total?: number): string {
  let limit: number = view.limit;
  if (view.fromEnd && view.cursors.length === 0 && total !== undefined)
    limit = total - (pageCount(total, view.limit) - 1) * view.limit || view.limit;
  // The sort is always sent: the admin's default is not listPets' (oldest first).
  const sort = view.fromEnd ? reversedSort(view.sort) : view.sort;
  const query = new URLSearchParams({ limit: String(limit), sort });
  if (view.status !== "all") query.set("status", view.status);
  if (view.categories.length > 0) query.set("categoryId", categoryParam(view.categories));
  if (view.q) query.set("q", view.q);
  const cursor = view.cursors.at(-1);
  if (cursor) query.set("cursor", cursor);
  return query.toString();
}

/**
 * The /admin/api/pets/counts query for the view: the counts follow the categories and the search, not the status
 * (every status chip has its count) or the page.
 */
export function countsQuery(view: CatalogueView): string {
  const query = new URLSearchParams();
  if (view.categories.length > 0) query.set("categoryId", categoryParam(view.categories));
  if (view.q) query.set("q", view.q);
  return query.toString();
}

/** The /admin/api/pets/export query for the view: every pet of its filters, search and order, without paging. */
export function exportQuery(view: CatalogueView): string {
  const query = new URLSearchParams({ sort: view.sort });
  if (view.status !== "all") query.set("status", view.status);
  if (view.categories.length > 0) query.set("categoryId", categoryParam(view.categories));
  if (view.q) query.set("q", view.q);
  return query.toString();
}
