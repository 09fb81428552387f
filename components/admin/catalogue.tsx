"use client";

import { CatalogueFiles } from "@/components/admin/catalogue-files";
import { PagerLink, StatusChips, ViewSelect } from "@/components/admin/catalogue-controls";
import { LoadError, PetTable, TableSkeleton } from "@/components/admin/pet-table";
import { SearchBox } from "@/components/admin/search-box";
import { matchSummary, useCatalogue } from "@/components/admin/use-catalogue";
import { focusRing } from "@/components/ui/focus-ring";
import { PAGE_SIZES, SORT_CHOICES, viewHref, type CatalogueView, type PageSize } from "@/lib/client/catalogue-view";
import type { PetSort } from "@/lib/pets/schema";

export const CATALOGUE_TITLE_ID = "catalogue-title";

/**
 * The catalogue: the name search, status filter (each chip with its count), sort, page size, how many pets match,
 * the table of one page (each name opening its pet's panel), and paging by the API's cursor. A polite live region
 * says what each new view holds once it has arrived (never on the page's first load). `action` sits beside the
 * heading (the phone's "Add a pet"). The data is in use-catalogue.ts.
 */
export function Catalogue({ view, action }: { view: CatalogueView; action?: React.ReactNode }) {
  const { query, page, counts, loadingAnother, current, announcement } = useCatalogue(view);
  const firstPageHref = viewHref({ ...view, cursors: [] });
  const loadError = query.isError ? (
    <LoadError error={query.error} onRetry={() => void query.refetch()} firstPageHref={firstPageHref} />
  ) : null;

  return (
    <section aria-labelledby="catalogue-title" className="min-w-0">
      <CatalogueHeader view={view} action={action} />
      <SearchBox view={view} />
      <StatusChips view={view} counts={counts} />
      <p className="mt-3 min-h-5 text-sm font-medium break-words" data-testid="match-count">
        {counts ? matchSummary(view, counts) : ""}
      </p>
      <div className="mt-4" aria-busy={query.isFetching}>
        {page ? (
          <>
            {loadError}
            <PetTable page={page} dimmed={loadingAnother} view={view} />
          </>
        ) : (
          (loadError ?? <TableSkeleton rows={Math.min(view.limit, 8)} />)
        )}
      </div>
      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-600">
          {loadingAnother ? "Loading…" : page ? `Page ${view.cursors.length + 1}` : ""}
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
              page?.nextCursor && current
                ? viewHref({ ...view, cursors: [...view.cursors, page.nextCursor] })
                : undefined
            }
            rel="next"
          />
        </div>
      </div>
      <p role="status" className="sr-only" data-testid="catalogue-announcement">
        {announcement}
      </p>
    </section>
  );
}

function CatalogueHeader({ view, action }: { view: CatalogueView; action?: React.ReactNode }) {
  return (
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
        />
        <ViewSelect
          label="Pets per page"
          view={view}
          value={String(view.limit)}
          choices={PAGE_SIZES.map((size) => ({ value: String(size), label: String(size) }))}
          apply={(shown, value) => ({ ...shown, limit: Number(value) as PageSize, cursors: [] })}
        />
        <CatalogueFiles view={view} />
      </div>
    </div>
  );
}
