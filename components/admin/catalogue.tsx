"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { StatusBadge } from "@/components/admin/status-badge";
import { AdminRequestError, fetchPetPage, type PetPage } from "@/lib/client/admin-api";
import {
  listQuery,
  PAGE_SIZES,
  readView,
  STATUS_FILTERS,
  viewHref,
  type CatalogueView,
  type PageSize,
} from "@/lib/client/catalogue-view";

const focusRing = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600";

export function petsQueryKey(view: CatalogueView) {
  return ["pets", listQuery(view)] as const;
}

/** The catalogue: status filter, page size, the table of one page, and paging by the API's cursor. */
export function Catalogue() {
  const router = useRouter();
  const view = readView(useSearchParams());
  const query = useQuery({
    queryKey: petsQueryKey(view),
    queryFn: () => fetchPetPage(listQuery(view)),
    placeholderData: keepPreviousData, // the page on screen stays there while the next one loads
  });
  const page = query.data;
  const loadingAnother = query.isPlaceholderData && query.isFetching;
  const pageNumber = view.cursors.length + 1;

  return (
    <section aria-labelledby="catalogue-title" className="min-w-0">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 id="catalogue-title" className="text-2xl font-semibold">
          Catalogue
        </h1>
        <label className="flex items-center gap-2 text-sm">
          <span>Pets per page</span>
          <select
            value={view.limit}
            onChange={(event) =>
              router.push(viewHref({ ...view, limit: Number(event.target.value) as PageSize, cursors: [] }), {
                scroll: false,
              })
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

      <nav aria-label="Filter by status" className="mt-4">
        <ul className="flex flex-wrap gap-2">
          {STATUS_FILTERS.map((status) => {
            const current = status === view.status;
            return (
              <li key={status}>
                <Link
                  href={viewHref({ ...view, status, cursors: [] })}
                  scroll={false}
                  aria-current={current ? "page" : undefined}
                  className={`inline-block rounded-full border px-3 py-1 text-sm capitalize ${focusRing} ${
                    current
                      ? "border-indigo-700 bg-indigo-700 text-white"
                      : "border-slate-300 bg-white hover:bg-slate-100"
                  }`}
                >
                  {status}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>

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
    <Link
      href={href}
      rel={rel}
      scroll={false}
      className={`${style} border-slate-300 bg-white hover:bg-slate-100 ${focusRing}`}
    >
      {label}
    </Link>
  );
}

function PetTable({ page, dimmed, view }: { page: PetPage; dimmed: boolean; view: CatalogueView }) {
  if (page.pets.length === 0) {
    return (
      <div
        className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center"
        data-testid="empty-state"
      >
        <p className="font-medium">
          {view.status === "all" ? "No pets in the catalogue yet." : `No ${view.status} pets.`}
        </p>
        <p className="mt-1 text-sm text-slate-600">
          Add one with the form{view.status === "all" ? "" : ", or choose another status"}.
        </p>
      </div>
    );
  }
  return (
    <div
      className={
        "overflow-x-auto rounded-lg border border-slate-200 bg-white transition-opacity " + (dimmed ? "opacity-60" : "")
      }
    >
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Pets, in the order they were added</caption>
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
          {page.pets.map((pet) => (
            <tr key={String(pet.id)} data-testid="pet-row">
              <td className="px-3 py-2 font-mono tabular-nums">{String(pet.id)}</td>
              {/* Always a text node: React escapes it, so a name never becomes markup. */}
              <td className="px-3 py-2 break-all">{pet.name}</td>
              <td className="px-3 py-2 font-mono tabular-nums">{String(pet.categoryId)}</td>
              <td className="px-3 py-2">
                <StatusBadge status={pet.status} />
              </td>
            </tr>
          ))}
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
