"use client";

import { useNavigate, ViewLink } from "@/components/admin/catalogue-navigation";
import { CategoryName } from "@/components/admin/category-name";
import { RequestId } from "@/components/admin/form-fields";
import { StatusBadge } from "@/components/admin/status-badge";
import { SELECT_PAGE_ID } from "@/components/admin/use-bulk-actions";
import { SORT_CAPTIONS } from "@/components/admin/use-catalogue";
import type { Selection } from "@/components/admin/use-selection";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClass } from "@/components/ui/button";
import { focusRing } from "@/components/ui/focus-ring";
import { AdminRequestError, type PetPage } from "@/lib/client/admin-api";
import { FIRST_PAGE, reversedSort, viewHref, type CatalogueView } from "@/lib/client/catalogue-view";
import { coversQueryKey, fetchCovers, photoSrc } from "@/lib/client/photos-api";
import type { Pet, PetSort } from "@/lib/pets/schema";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useLayoutEffect, useRef } from "react";
import { isExpiredPageLink, staffErrorMessage } from "@/lib/pets/staff-messages";

// The catalogue's list: the table of one page (each name opening its pet's panel), or what stands in its place
// while it loads, when the view holds no pet, or when it could not be loaded.

/** The id of a pet's link in the table, to give the focus back to when its panel closes. */
export function petLinkId(id: string): string {
  return `pet-link-${id}`;
}

export function PetTable({
  page,
  dimmed,
  view,
  selection,
}: {
  page: PetPage;
  dimmed: boolean;
  view: CatalogueView;
  selection: Selection;
}) {
  const covers = usePageCovers(page.pets);
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
            <th scope="col" className="p-0">
              <SelectBox
                id={SELECT_PAGE_ID}
                label="Select all on this page"
                checked={selection.pageState === "all"}
                indeterminate={selection.pageState === "some"}
                onToggle={() => selection.togglePage()}
              />
            </th>
            <SortHeader label="ID" sort="id" view={view} />
            <SortHeader label="Name" sort="name" view={view} />
            <SortHeader label="Category" sort="category" view={view} />
            <SortHeader label="Status" sort="status" view={view} />
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {page.pets.map((pet) => (
            <PetRow
              key={String(pet.id)}
              pet={pet}
              view={view}
              selection={selection}
              cover={covers.get(String(pet.id))}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A column header that sorts: a button in the <th>, which carries aria-sort while the list is in its order. A press
 * sorts by the column ascending, or, when it already is, descending; the URL's `sort` changes, as with the Sort by
 * select, so the two always agree. A new order starts from its first page.
 */
function SortHeader({ label, sort, view }: { label: string; sort: PetSort; view: CatalogueView }) {
  const navigate = useNavigate();
  const descending = reversedSort(sort);
  const direction = view.sort === sort ? "ascending" : view.sort === descending ? "descending" : undefined;
  const next = view.sort === sort ? descending : sort;
  return (
    <th scope="col" aria-sort={direction} className="p-0">
      <button
        type="button"
        onClick={() => navigate(viewHref({ ...view, sort: next, ...FIRST_PAGE }))}
        className={
          "inline-flex min-h-11 w-full items-center gap-1 px-3 py-2 text-left tracking-wide uppercase " +
          "hover:bg-slate-200 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600"
        }
      >
        {label}
        <span aria-hidden="true" className="w-3 text-slate-600">
          {direction === "ascending" ? "▲" : direction === "descending" ? "▼" : "↕"}
        </span>
      </button>
    </th>
  );
}

/**
 * A selection checkbox in a 44 px cell. Shift with a click or with Space selects a range (see useSelection): the
 * Shift key is read as the press starts, since a click made by Space carries no modifiers.
 */
function SelectBox({
  id,
  label,
  checked,
  indeterminate = false,
  onToggle,
}: {
  id?: string;
  label: string;
  checked: boolean;
  indeterminate?: boolean;
  onToggle: (range: boolean) => void;
}) {
  const box = useRef<HTMLInputElement>(null);
  const shift = useRef(false);
  useLayoutEffect(() => {
    if (box.current) box.current.indeterminate = indeterminate;
  }, [indeterminate]);
  const marked = checked || indeterminate;
  return (
    // The input itself is the 44 px target (as the theme toggle's radios): drawn by the box under it.
    <label className="relative flex min-h-11 min-w-11 items-center justify-center">
      <input
        ref={box}
        id={id}
        type="checkbox"
        aria-label={label}
        checked={checked}
        onMouseDown={(event) => (shift.current = event.shiftKey)}
        onKeyDown={(event) => {
          if (event.key === " ") shift.current = event.shiftKey;
        }}
        onChange={() => {
          onToggle(shift.current);
          shift.current = false;
        }}
        className={
          "peer absolute inset-0 size-full cursor-pointer appearance-none focus-visible:outline-2 " +
          "focus-visible:-outline-offset-2 focus-visible:outline-indigo-600"
        }
      />
      <span
        aria-hidden="true"
        className={
          "pointer-events-none flex size-5 items-center justify-center rounded border-2 text-sm leading-none " +
          "font-bold " +
          (marked ? "border-indigo-700 bg-indigo-700 text-white" : "border-slate-500 bg-white")
        }
      >
        {checked ? "✓" : indeterminate ? "–" : ""}
      </span>
    </label>
  );
}

/** The cover photo of each pet of the page that has one, by pet id: one read for the page. */
function usePageCovers(pets: Pet[]): Map<string, bigint> {
  const ids = pets.map((pet) => String(pet.id));
  const query = useQuery({
    queryKey: coversQueryKey(ids),
    queryFn: () => fetchCovers(ids),
    placeholderData: keepPreviousData,
  });
  return new Map((query.data ?? []).map((cover) => [String(cover.petId), cover.photoId]));
}

/**
 * A pet's cover as a 40 px thumbnail, or a placeholder of the same size: the row never moves as covers load. It
 * is beside the pet's name, which says what it shows: the image is decorative (alt="").
 */
function Thumbnail({ petId, photoId }: { petId: string; photoId?: bigint }) {
  if (photoId === undefined)
    return <span aria-hidden="true" className="size-10 shrink-0 rounded bg-slate-100" data-testid="no-cover" />;
  return (
    // eslint-disable-next-line @next/next/no-img-element -- an endpoint's image, sized here: no optimiser
    <img
      src={photoSrc(petId, photoId, "thumb")}
      alt=""
      width={40}
      height={40}
      loading="lazy"
      className="size-10 shrink-0 rounded bg-slate-100 object-cover"
      data-testid="cover"
    />
  );
}

function PetRow({
  pet,
  view,
  selection,
  cover,
}: {
  pet: Pet;
  view: CatalogueView;
  selection: Selection;
  cover?: bigint;
}) {
  const id = String(pet.id);
  const open = view.pet === id;
  const selected = selection.isSelected(id);
  return (
    <tr
      data-testid="pet-row"
      aria-selected={selected}
      className={open ? "bg-indigo-50" : selected ? "bg-amber-50" : undefined}
    >
      <td className="p-0">
        <SelectBox label={`Select ${pet.name}`} checked={selected} onToggle={(range) => selection.toggle(pet, range)} />
      </td>
      <td className="px-3 py-2 font-mono tabular-nums">{id}</td>
      <td className="p-0">
        {/* Always a text node: React escapes it, so a name never becomes markup. */}
        <ViewLink
          id={petLinkId(id)}
          href={viewHref({ ...view, pet: id })}
          aria-current={open ? "page" : undefined}
          className={
            "flex min-h-11 items-center gap-3 px-3 py-1 font-medium text-indigo-800 underline-offset-2 " +
            // Inside the outline, which the table's scrolling box would clip at its edges.
            "hover:underline focus-visible:outline-2 focus-visible:-outline-offset-2 " +
            "focus-visible:outline-indigo-600"
          }
        >
          <Thumbnail petId={id} photoId={cover} />
          {/* At least 5rem of name beside the picture: the table scrolls in its box rather than squeeze it. */}
          <span className="min-w-20 break-all">{pet.name}</span>
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
              href={viewHref({ ...view, q: "", ...FIRST_PAGE })}
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
