"use client";

import { ViewLink } from "@/components/admin/catalogue-navigation";
import { CategoryName } from "@/components/admin/category-name";
import { RequestId } from "@/components/admin/form-fields";
import { StatusBadge } from "@/components/admin/status-badge";
import { SORT_CAPTIONS } from "@/components/admin/use-catalogue";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClass } from "@/components/ui/button";
import { focusRing } from "@/components/ui/focus-ring";
import { AdminRequestError, type PetPage } from "@/lib/client/admin-api";
import { viewHref, type CatalogueView } from "@/lib/client/catalogue-view";
import { isExpiredPageLink, staffErrorMessage } from "@/lib/pets/staff-messages";

// The catalogue's list: the table of one page (each name opening its pet's panel), or what stands in its place
// while it loads, when the view holds no pet, or when it could not be loaded.

/** The id of a pet's link in the table, to give the focus back to when its panel closes. */
export function petLinkId(id: string): string {
  return `pet-link-${id}`;
}

export function PetTable({ page, dimmed, view }: { page: PetPage; dimmed: boolean; view: CatalogueView }) {
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
          {page.pets.map((pet) => (
            <PetRow key={String(pet.id)} pet={pet} view={view} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PetRow({ pet, view }: { pet: PetPage["pets"][number]; view: CatalogueView }) {
  const id = String(pet.id);
  const open = view.pet === id;
  return (
    <tr data-testid="pet-row" className={open ? "bg-indigo-50" : undefined}>
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

export function TableSkeleton({ rows }: { rows: number }) {
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

export function LoadError({
  error,
  onRetry,
  firstPageHref,
}: {
  error: Error;
  onRetry: () => void;
  firstPageHref: string;
}) {
  const requestId = error instanceof AdminRequestError ? error.requestId : undefined;
  const message = error instanceof AdminRequestError ? staffErrorMessage(error) : error.message;
  // A page link whose cursor is refused is refused again on a retry: the way on is the first page.
  const expired = error instanceof AdminRequestError && isExpiredPageLink(error);
  return (
    <Alert className="mb-3">
      <p className="font-medium">The catalogue could not be loaded.</p>
      <p className="mt-1">{message}</p>
      {requestId ? <RequestId id={requestId} testId="request-id" className="mt-1" /> : null}
      {expired ? (
        <ViewLink href={firstPageHref} className={buttonClass({ variant: "onError", className: "mt-3" })}>
          Go to the first page
        </ViewLink>
      ) : (
        <Button variant="onError" onClick={onRetry} className="mt-3">
          Try again
        </Button>
      )}
    </Alert>
  );
}
