"use client";

import { BulkActions } from "@/components/admin/bulk-actions";
import { CatalogueFiles } from "@/components/admin/catalogue-files";
import { StatusChips, ViewSelect } from "@/components/admin/catalogue-controls";
import { CataloguePager, rangeSummary } from "@/components/admin/catalogue-pager";
import { CategoryFilter } from "@/components/admin/category-filter";
import { LoadError, PetTable, TableSkeleton } from "@/components/admin/pet-table";
import { SearchBox } from "@/components/admin/search-box";
import { useBulkActions } from "@/components/admin/use-bulk-actions";
import { matchLine, useCatalogue } from "@/components/admin/use-catalogue";
import { useSelection } from "@/components/admin/use-selection";
import { focusRing } from "@/components/ui/focus-ring";
import { useCategories } from "@/lib/client/categories-api";
import {
  FIRST_PAGE,
  PAGE_SIZES,
  pageNumber,
  SORT_CHOICES,
  viewHref,
  type CatalogueView,
  type PageSize,
} from "@/lib/client/catalogue-view";
import type { PetSort } from "@/lib/pets/schema";

export const CATALOGUE_TITLE_ID = "catalogue-title";

/**
 * The catalogue: the name search (or a pet's id), status filter (each chip with its count, "No status" too), the
 * category filter (several at once), sort, page size, how many pets match,
 * the table of one page (each name opening its pet's panel, each column header sorting), and paging by the API's
 * cursor, with where the page stands ("21–40 of 4,160") and the first and last pages a press away. A polite live region
 * says what each new view holds once it has arrived (never on the page's first load). `action` sits beside the
 * heading (the phone's "Add a pet"). The data is in use-catalogue.ts.
 */
export function Catalogue({ view, action }: { view: CatalogueView; action?: React.ReactNode }) {
  const { names } = useCategories();
  const { query, page, counts, countsCurrent, total, loadingAnother, current, announcement } = useCatalogue(
    view,
    names,
  );
  const selection = useSelection(view, page?.pets ?? []);
  const bulk = useBulkActions(selection, names);
  const number = pageNumber(view, total);
  const firstPageHref = viewHref({ ...view, ...FIRST_PAGE });
  const loadError = query.isError ? (
    <LoadError error={query.error} onRetry={() => void query.refetch()} firstPageHref={firstPageHref} />
  ) : null;

  return (
    <section aria-labelledby="catalogue-title" className="min-w-0">
      <CatalogueHeader view={view} action={action} />
      <SearchBox view={view} />
      <div className="mt-3 flex flex-wrap lg:mt-4 items-start gap-x-4 gap-y-2">
        <StatusChips view={view} counts={counts} />
        <CategoryFilter view={view} names={names} />
      </div>
      <p className="mt-2 min-h-5 lg:mt-3 text-sm font-medium break-words" data-testid="match-count">
        {matchLine(view, counts, countsCurrent, names)}
      </p>
      <div className="mt-3 lg:mt-4" aria-busy={query.isFetching}>
        <BulkActions selection={selection} bulk={bulk} total={total} pageSize={page?.pets.length ?? 0} names={names} />
        {page ? (
          <>
            {loadError}
            <PetTable page={page} dimmed={loadingAnother} view={view} selection={selection} />
          </>
        ) : (
          (loadError ?? <TableSkeleton rows={Math.min(view.limit, 8)} />)
        )}
      </div>
      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap gap-x-3 text-sm text-slate-600">
          <p>{loadingAnother ? "Loading…" : page ? (number ? `Page ${number}` : "Last page") : ""}</p>
          {page && total !== undefined && current ? (
            <p data-testid="page-range">{rangeSummary(view, total, page.pets.length)}</p>
          ) : null}
        </div>
        <CataloguePager view={view} total={total} nextCursor={current ? page?.nextCursor : undefined} />
      </div>
      <p role="status" className="sr-only" data-testid="catalogue-announcement">
        {announcement}
      </p>
    </section>
  );
}

function CatalogueHeader({ view, action }: { view: CatalogueView; action?: React.ReactNode }) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-x-4 gap-y-3">
      <div className="flex w-full items-center justify-between gap-4 sm:w-auto">
        <h1 id={CATALOGUE_TITLE_ID} tabIndex={-1} className={`text-2xl font-semibold ${focusRing}`}>
          Catalogue
        </h1>
        {action}
      </div>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-3">
        <ViewSelect
          label="Sort by"
          view={view}
          value={view.sort}
          choices={SORT_CHOICES.map(({ sort, label }) => ({ value: sort, label }))}
          apply={(shown, value) => ({ ...shown, sort: value as PetSort, ...FIRST_PAGE })}
        />
        <ViewSelect
          label="Pets per page"
          view={view}
          value={String(view.limit)}
          choices={PAGE_SIZES.map((size) => ({ value: String(size), label: String(size) }))}
          apply={(shown, value) => ({ ...shown, limit: Number(value) as PageSize, ...FIRST_PAGE })}
        />
        <CatalogueFiles view={view} />
      </div>
    </div>
  );
}
