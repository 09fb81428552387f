"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { CatalogueFiles } from "@/components/admin/catalogue-files";
import { useNavigate, ViewLink } from "@/components/admin/catalogue-navigation";
import { CategoryName } from "@/components/admin/category-name";
import { focusRing } from "@/components/ui/focus-ring";
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
import { isExpiredPageLink, staffErrorMessage } from "@/lib/pets/staff-messages";

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

/** The pets a view lists, in words: "the sold pets", "the pets matching 'bis'", "the pets". */
function listedPets(view: CatalogueView): string {
  const noun = `the ${view.status === "all" ? "" : `${view.status} `}pets`;
  return view.q ? `${noun} matching '${view.q}'` : noun;
}

/**
 * What the live region says once a view's page and counts have arrived, by what changed from the view announced
 * before: another page, "Page 2 of the sold pets"; another order or page size, the count and the order or size;
 * otherwise (the filter, the search) the count, "12 sold pets", "3 pets match 'bis'".
 */
export function announcement(view: CatalogueView, before: CatalogueView, counts: PetCounts): string {
  const pageNumber = view.cursors.length + 1;
  const summary = matchSummary(view, counts);
  if (view.status !== before.status || view.q !== before.q)
    return pageNumber > 1 ? `${summary}: page ${pageNumber}` : summary;
  if (view.sort !== before.sort) return `${summary}, ${SORT_CAPTIONS[view.sort]}`;
  if (view.limit !== before.limit) return `${summary}, ${view.limit} per page`;
  return `Page ${pageNumber} of ${listedPets(view)}`;
}

/**
 * The catalogue: the name search, status filter (each chip with its count), sort, page size, how many pets match,
 * the table of one page (each name opening its pet's panel), and paging by the API's cursor. A polite live region
 * says what each new view holds once it has arrived (never on the page's first load). `action` sits beside the
 * heading (the phone's "Add a pet").
 */
export function Catalogue({ view, action }: { view: CatalogueView; action?: React.ReactNode }) {
  const query = useQuery({
    queryKey: petsQueryKey(view),
    queryFn: () => fetchPetPage(listQuery(view)),
    placeholderData: keepPreviousData, // the page on screen stays there while the next one loads
  });
  const countsQueryResult = useQuery({
    queryKey: petCountsQueryKey(countsQuery(view)),
    queryFn: () => fetchPetCounts(countsQuery(view)),
    placeholderData: keepPreviousData,
  });
  const counts = countsQueryResult.data;
  const page = query.data;
  const loadingAnother = query.isPlaceholderData && query.isFetching;
  const pageNumber = view.cursors.length + 1;

  // The view last announced (the first one arrived is not: the page's own load is not news), and what was said.
  const [announced, setAnnounced] = useState<{ key: string; view: CatalogueView; text: string }>();
  const settled = page && counts && !query.isPlaceholderData && !countsQueryResult.isPlaceholderData;
  const listKey = listQuery(view);
  if (settled && announced?.key !== listKey) {
    setAnnounced({ key: listKey, view, text: announced ? announcement(view, announced.view, counts) : "" });
  }

  return (
    <section aria-labelledby="catalogue-title" className="min-w-0">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex w-full items-center justify-between gap-4 sm:w-auto">
          <h1 id={CATALOGUE_TITLE_ID} tabIndex={-1} className={`text-2xl font-semibold ${focusRing}`}>
            Catalogue
          </h1>
          {action}
        </div>
        <div className="flex flex-wrap items-center gap-4">
          <ViewSelect
            label="Sort by"
            view={view}
            value={view.sort}
            choices={SORT_CHOICES.map(({ sort, label }) => ({ value: sort, label }))}
            apply={(shown, value) => ({ ...shown, sort: value as PetSort, cursors: [] })}
            className="min-h-11"
          />
          <ViewSelect
            label="Pets per page"
            view={view}
            value={String(view.limit)}
            choices={PAGE_SIZES.map((size) => ({ value: String(size), label: String(size) }))}
            apply={(shown, value) => ({ ...shown, limit: Number(value) as PageSize, cursors: [] })}
            className="min-h-11"
          />
          <CatalogueFiles view={view} />
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

      <div className="mt-4" aria-busy={query.isFetching}>
        {query.isError && !page ? (
          <LoadError
            error={query.error}
            onRetry={() => void query.refetch()}
            firstPageHref={viewHref({ ...view, cursors: [] })}
          />
        ) : !page ? (
          <TableSkeleton rows={Math.min(view.limit, 8)} />
        ) : (
          <>
            {query.isError ? (
              <LoadError
                error={query.error}
                onRetry={() => void query.refetch()}
                firstPageHref={viewHref({ ...view, cursors: [] })}
              />
            ) : null}
            <PetTable page={page} dimmed={loadingAnother} view={view} />
          </>
        )}
      </div>

      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-600">{loadingAnother ? "Loading…" : page ? `Page ${pageNumber}` : ""}</p>
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
      <p role="status" className="sr-only" data-testid="catalogue-announcement">
        {announced?.text ?? ""}
      </p>
    </section>
  );
}

/**
 * A pager control: a link, or while there is nowhere to go (the first page's Previous, the last page's Next, or
 * any while a page loads) the same element marked unavailable and out of the tab order. It is never replaced by
 * another element, so a keyboard user who pressed it keeps the focus on it while the next page loads.
 */
function PagerLink({ label, href, rel }: { label: string; href?: string; rel: string }) {
  const navigate = useNavigate();
  const style = "inline-flex min-h-11 min-w-11 items-center rounded-md border px-3 py-2 text-sm font-medium";
  return (
    <a
      href={href}
      rel={href ? rel : undefined}
      role={href ? undefined : "link"}
      aria-disabled={href ? undefined : true}
      tabIndex={href ? undefined : -1}
      onClick={(event) => {
        if (!href) return event.preventDefault();
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(href);
      }}
      className={`${style} ${focusRing} ${
        href ? "border-slate-300 bg-white hover:bg-slate-100" : "cursor-default border-slate-200 text-slate-500"
      }`}
    >
      {label}
    </a>
  );
}

/** How long a select waits for the next arrow key before applying its value. */
const SELECT_SETTLE_MS = 400;

/**
 * A select that changes the view: arrow keys walking through its options change what it shows at once, and the
 * view (one navigation, one history entry) once they pause for SELECT_SETTLE_MS; Enter, or leaving the select,
 * applies at once. The view it builds on is the one shown when it applies, so a filter chosen meanwhile stays.
 */
function ViewSelect({
  label,
  view,
  value,
  choices,
  apply,
  className = "",
}: {
  label: string;
  view: CatalogueView;
  value: string;
  choices: { value: string; label: string }[];
  apply: (shown: CatalogueView, value: string) => CatalogueView;
  className?: string;
}) {
  const navigate = useNavigate();
  const [chosen, setChosen] = useState<string>();
  const latest = useRef(view);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => {
    latest.current = view;
  });
  useEffect(() => () => clearTimeout(timer.current), []);
  // The URL caught up (or moved elsewhere, e.g. Back): show what it says again.
  if (chosen !== undefined && chosen === value) setChosen(undefined);

  const commit = (next: string | undefined) => {
    clearTimeout(timer.current);
    if (next === undefined) return;
    const target = viewHref(apply(latest.current, next));
    if (target !== viewHref(latest.current)) navigate(target);
  };

  return (
    <label className="flex items-center gap-2 text-sm">
      <span>{label}</span>
      <select
        value={chosen ?? value}
        onChange={(event) => {
          const next = event.target.value;
          setChosen(next);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => commit(next), SELECT_SETTLE_MS);
        }}
        onKeyDown={(event) => {
          if (event.key === "Enter") commit(chosen);
        }}
        onBlur={() => commit(chosen)}
        className={`${className} rounded-md border border-slate-300 bg-white px-2 py-1 ${focusRing}`}
      >
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </label>
  );
}

function EmptyState({ view }: { view: CatalogueView }) {
  const which = view.status === "all" ? "pets" : `${view.status} pets`;
  return (
    <div
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
    // A phone may scroll the table sideways inside this box (never the page): it takes the focus, so the arrow keys
    // scroll it too, and says what it holds.
    <div
      role="region"
      aria-label="Pets table"
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling box is scrolled from the keyboard
      tabIndex={0}
      className={
        "overflow-x-auto rounded-lg border border-slate-200 bg-white transition-opacity " +
        "focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600 " +
        (dimmed ? "opacity-60" : "")
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

const loadErrorAction =
  "mt-3 inline-block min-h-11 rounded-md border border-red-300 bg-white px-3 py-2 font-medium hover:bg-red-100 " +
  focusRing;

function LoadError({ error, onRetry, firstPageHref }: { error: Error; onRetry: () => void; firstPageHref: string }) {
  const requestId = error instanceof AdminRequestError ? error.requestId : undefined;
  const message = error instanceof AdminRequestError ? staffErrorMessage(error) : error.message;
  // A page link whose cursor is refused is refused again on a retry: the way on is the first page.
  const expired = error instanceof AdminRequestError && isExpiredPageLink(error);
  return (
    <div role="alert" className="mb-3 rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-900">
      <p className="font-medium">The catalogue could not be loaded.</p>
      <p className="mt-1">{message}</p>
      {requestId ? (
        <p className="mt-1">
          Request id:{" "}
          <code className="font-mono select-all" data-testid="request-id">
            {requestId}
          </code>
        </p>
      ) : null}
      {expired ? (
        <ViewLink href={firstPageHref} className={loadErrorAction}>
          Go to the first page
        </ViewLink>
      ) : (
        <button type="button" onClick={onRetry} className={loadErrorAction}>
          Try again
        </button>
      )}
    </div>
  );
}
