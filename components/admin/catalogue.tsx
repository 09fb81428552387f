"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useNavigate, ViewLink } from "@/components/admin/catalogue-navigation";
import { CategoryName } from "@/components/admin/category-name";
import { focusRing } from "@/components/admin/form-fields";
import { SearchBox } from "@/components/admin/search-box";
import { StatusBadge } from "@/components/admin/status-badge";
import { AdminRequestError, fetchPetCounts, fetchPetPage, type PetPage } from "@/lib/client/admin-api";
import {
  countsQuery,
  listQuery,
  PAGE_SIZES,
  SORT_CHOICES,
  STATUS_FILTERS,
  viewHref,
  type CatalogueView,
  type PageSize,
  type StatusFilter,
} from "@/lib/client/catalogue-view";
import { petCountsQueryKey, PETS_KEY } from "@/lib/client/pet-cache";
import type { PetCounts, PetSort } from "@/lib/pets/schema";

export const CATALOGUE_TITLE_ID = "catalogue-title";

export function petsQueryKey(view: CatalogueView) {
  return [...PETS_KEY, listQuery(view)] as const;
}

/** The id of a pet's link in the table, to give the focus back to when its panel closes. */
export function petLinkId(id: string): string {
  return `pet-link-${id}`;
}

/** How many pets a status chip stands for; undefined while the counts load. */
function chipCount(counts: PetCounts | undefined, status: StatusFilter): number | undefined {
  if (!counts) return undefined;
  return status === "all" ? counts.total : counts.byStatus[status];
}

/** A count as the page writes it: "1,204", or "10,001+" when a search counted no further. */
function formatCount(count: number, exact: boolean): string {
  return `${count.toLocaleString("en")}${exact ? "" : "+"}`;
}

/** What the list holds, in words: "12 sold pets", "3 pets match 'bis'", "More than 10,000 pets match 'a'". */
export function matchSummary(view: CatalogueView, counts: PetCounts): string {
  const count = chipCount(counts, view.status) ?? 0;
  const noun = `${view.status === "all" ? "" : `${view.status} `}${count === 1 ? "pet" : "pets"}`;
  const amount = counts.exact ? count.toLocaleString("en") : `More than ${(count - 1).toLocaleString("en")}`;
  if (!view.q) return `${amount} ${noun}`;
  return `${amount} ${noun} ${count === 1 && counts.exact ? "matches" : "match"} '${view.q}'`;
}

const chipStyle = "inline-flex min-h-11 items-center gap-1.5 rounded-full border px-3 py-1 text-sm";

const SORT_CAPTIONS: Record<PetSort, string> = {
  "-id": "newest first",
  id: "oldest first",
  name: "by name, A to Z",
  "-name": "by name, Z to A",
};

/**
 * The catalogue: the name search, status filter (each chip with its count), sort, page size, how many pets match,
 * the table of one page (each name opening its pet's panel), and paging by the API's cursor. `notice` is what the
 * page has to say about the catalogue (a deletion).
 */
export function Catalogue({ view, notice }: { view: CatalogueView; notice?: React.ReactNode }) {
  const navigate = useNavigate();
  const query = useQuery({
    queryKey: petsQueryKey(view),
    queryFn: () => fetchPetPage(listQuery(view)),
    placeholderData: keepPreviousData, // the page on screen stays there while the next one loads
  });
  const counts = useQuery({
    queryKey: petCountsQueryKey(countsQuery(view)),
    queryFn: () => fetchPetCounts(countsQuery(view)),
    placeholderData: keepPreviousData,
  }).data;
  const page = query.data;
  const loadingAnother = query.isPlaceholderData && query.isFetching;
  const pageNumber = view.cursors.length + 1;

  return (
    <section aria-labelledby="catalogue-title" className="min-w-0">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 id={CATALOGUE_TITLE_ID} tabIndex={-1} className={`text-2xl font-semibold ${focusRing}`}>
          Catalogue
        </h1>
        <div className="flex flex-wrap items-center gap-4">
          <label className="flex items-center gap-2 text-sm">
            <span>Sort by</span>
            <select
              value={view.sort}
              onChange={(event) => navigate(viewHref({ ...view, sort: event.target.value as PetSort, cursors: [] }))}
              className={`min-h-11 rounded-md border border-slate-300 bg-white px-2 py-1 ${focusRing}`}
            >
              {SORT_CHOICES.map(({ sort, label }) => (
                <option key={sort} value={sort}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <label className="flex items-center gap-2 text-sm">
            <span>Pets per page</span>
            <select
              value={view.limit}
              onChange={(event) =>
                navigate(viewHref({ ...view, limit: Number(event.target.value) as PageSize, cursors: [] }))
              }
              className={`rounded-md border border-slate-300 bg-white px-2 py-1 ${focusRing}`}
            >
              {PAGE_SIZES.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>

      <SearchBox view={view} />

      <nav aria-label="Filter by status" className="mt-4">
        <ul className="flex flex-wrap gap-2">
          {STATUS_FILTERS.map((status) => {
            const current = status === view.status;
            const count = chipCount(counts, status);
            return (
              <li key={status}>
                <ViewLink
                  href={viewHref({ ...view, status, cursors: [] })}
                  aria-current={current ? "page" : undefined}
                  data-testid={`status-chip-${status}`}
                  className={`${chipStyle} ${focusRing} ${
                    current
                      ? "border-indigo-700 bg-indigo-700 text-white"
                      : "border-slate-300 bg-white hover:bg-slate-100"
                  }`}
                >
                  <span className="capitalize">{status}</span>
                  {count === undefined ? null : " "}
                  {count === undefined ? null : (
                    <span className="font-mono text-xs tabular-nums">{formatCount(count, counts!.exact)}</span>
                  )}
                </ViewLink>
              </li>
            );
          })}
        </ul>
      </nav>

      <p className="mt-3 min-h-5 text-sm font-medium break-words" data-testid="match-count">
        {counts ? matchSummary(view, counts) : ""}
      </p>

      {notice}

      <div className="mt-4" aria-busy={query.isFetching}>
        {query.isError && !page ? (
          <LoadError error={query.error} onRetry={() => void query.refetch()} />
        ) : !page ? (
          <TableSkeleton rows={Math.min(view.limit, 8)} />
        ) : (
          <>
            {query.isError ? <LoadError error={query.error} onRetry={() => void query.refetch()} /> : null}
            <PetTable page={page} dimmed={loadingAnother} view={view} />
          </>
        )}
      </div>

      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-600" aria-live="polite">
          {loadingAnother ? "Loading…" : page ? `Page ${pageNumber}` : ""}
        </p>
        <div className="flex gap-2">
          <PagerLink
            label="Previous"
            href={view.cursors.length > 0 ? viewHref({ ...view, cursors: view.cursors.slice(0, -1) }) : undefined}
            rel="prev"
          />
          <PagerLink
            label="Next"
            href={
              page?.nextCursor && !query.isPlaceholderData
                ? viewHref({ ...view, cursors: [...view.cursors, page.nextCursor] })
                : undefined
            }
            rel="next"
          />
        </div>
      </div>
    </section>
  );
}

function PagerLink({ label, href, rel }: { label: string; href?: string; rel: string }) {
  const style = "rounded-md border px-3 py-1.5 text-sm font-medium";
  if (!href) {
    return (
      <span aria-disabled="true" className={`${style} border-slate-200 text-slate-400`}>
        {label}
      </span>
    );
  }
  return (
    <ViewLink href={href} rel={rel} className={`${style} border-slate-300 bg-white hover:bg-slate-100 ${focusRing}`}>
      {label}
    </ViewLink>
  );
}

function EmptyState({ view }: { view: CatalogueView }) {
  const which = view.status === "all" ? "pets" : `${view.status} pets`;
  return (
    <div
      role="status"
      className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center"
      data-testid="empty-state"
    >
      {view.q ? (
        <>
          <p className="font-medium break-words">{`No ${which} match '${view.q}'`}</p>
          <p className="mt-1 text-sm text-slate-600">
            Try part of the name, or{" "}
            <ViewLink
              href={viewHref({ ...view, q: "", cursors: [] })}
              className={`font-medium text-indigo-800 underline ${focusRing}`}
            >
              clear the search
            </ViewLink>
            .
          </p>
        </>
      ) : (
        <>
          <p className="font-medium">
            {view.status === "all" ? "No pets in the catalogue yet." : `No ${view.status} pets.`}
          </p>
          <p className="mt-1 text-sm text-slate-600">
            Add one with the form{view.status === "all" ? "" : ", or choose another status"}.
          </p>
        </>
      )}
    </div>
  );
}

function PetTable({ page, dimmed, view }: { page: PetPage; dimmed: boolean; view: CatalogueView }) {
  if (page.pets.length === 0) return <EmptyState view={view} />;
  return (
    <div
      className={
        "overflow-x-auto rounded-lg border border-slate-200 bg-white transition-opacity " + (dimmed ? "opacity-60" : "")
      }
    >
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{`Pets, ${SORT_CAPTIONS[view.sort]}; a name opens the pet`}</caption>
        <thead className="bg-slate-100 text-xs tracking-wide text-slate-600 uppercase">
          <tr>
            <th scope="col" className="px-3 py-2">
              ID
            </th>
            <th scope="col" className="px-3 py-2">
              Name
            </th>
            <th scope="col" className="px-3 py-2">
              Category
            </th>
            <th scope="col" className="px-3 py-2">
              Status
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {page.pets.map((pet) => {
            const id = String(pet.id);
            const open = view.pet === id;
            return (
              <tr key={id} data-testid="pet-row" className={open ? "bg-indigo-50" : undefined}>
                <td className="px-3 py-2 font-mono tabular-nums">{id}</td>
                <td className="p-0">
                  {/* Always a text node: React escapes it, so a name never becomes markup. */}
                  <ViewLink
                    id={petLinkId(id)}
                    href={viewHref({ ...view, pet: id })}
                    aria-current={open ? "page" : undefined}
                    className={
                      "block min-h-11 px-3 py-3 font-medium break-all text-indigo-800 underline-offset-2 " +
                      // Inside the outline, which the table's scrolling box would clip at its edges.
                      "hover:underline focus-visible:outline-2 focus-visible:-outline-offset-2 " +
                      "focus-visible:outline-indigo-600"
                    }
                  >
                    {pet.name}
                  </ViewLink>
                </td>
                <td className="px-3 py-2" data-testid="pet-row-category">
                  <CategoryName id={pet.categoryId} />
                </td>
                <td className="px-3 py-2">
                  <StatusBadge status={pet.status} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function TableSkeleton({ rows }: { rows: number }) {
  return (
    <div
      role="status"
      aria-label="Loading pets"
      className="rounded-lg border border-slate-200 bg-white p-3"
      data-testid="skeleton"
    >
      {Array.from({ length: rows }, (_, index) => (
        <div key={index} className="flex animate-pulse gap-4 py-2">
          <div className="h-4 w-10 rounded bg-slate-200" />
          <div className="h-4 flex-1 rounded bg-slate-200" />
          <div className="h-4 w-10 rounded bg-slate-200" />
          <div className="h-4 w-16 rounded bg-slate-200" />
        </div>
      ))}
    </div>
  );
}

function LoadError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const requestId = error instanceof AdminRequestError ? error.requestId : undefined;
  return (
    <div role="alert" className="mb-3 rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-900">
      <p className="font-medium">The catalogue could not be loaded.</p>
      <p className="mt-1">{error.message}</p>
      {requestId ? (
        <p className="mt-1">
          Request id:{" "}
          <code className="font-mono select-all" data-testid="request-id">
            {requestId}
          </code>
        </p>
      ) : null}
      <button
        type="button"
        onClick={onRetry}
        className={`mt-3 rounded-md border border-red-300 bg-white px-3 py-1 font-medium hover:bg-red-100 ${focusRing}`}
      >
        Try again
      </button>
    </div>
  );
}
