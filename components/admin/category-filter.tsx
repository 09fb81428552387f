"use client";

import { useQuery } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { useNavigate } from "@/components/admin/catalogue-navigation";
import { Button } from "@/components/ui/button";
import { focusRing } from "@/components/ui/focus-ring";
import { categoryLabel } from "@/lib/categories/schema";
import { CATEGORY_COUNTS_KEY, fetchCategoryCounts } from "@/lib/client/categories-api";
import { FIRST_PAGE, viewHref, type CatalogueView } from "@/lib/client/catalogue-view";
import { CATEGORY_FILTER_MAX } from "@/lib/pets/schema";

// The catalogue's category filter: a disclosure button naming how many categories are chosen, opening a group of
// checkboxes (every named category, then the ids pets carry without a name, as the Categories page lists them,
// each with its pets). Each tick changes the URL's categoryId at once; Clear shows every category again. Escape
// closes the group and gives the focus back to the button.

export function CategoryFilter({
  view,
  names,
}: {
  view: CatalogueView;
  names: ReadonlyMap<string, string> | undefined;
}) {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const listing = useQuery({ queryKey: CATEGORY_COUNTS_KEY, queryFn: fetchCategoryCounts, enabled: open });
  const chosen = new Set(view.categories);
  // The categories to offer: the listing's, and any chosen one it lacks (an id no pet carries any more).
  const rows = [
    ...(listing.data ?? []).map((row) => ({
      id: String(row.id),
      label: row.name ?? categoryLabel(row.id, names),
      pets: row.pets,
    })),
  ];
  for (const id of view.categories)
    if (!rows.some((row) => row.id === id)) rows.push({ id, label: categoryLabel(BigInt(id), names), pets: 0 });

  const show = (categories: string[]) => navigate(viewHref({ ...view, categories, ...FIRST_PAGE }));
  const caption =
    view.categories.length === 0
      ? "All categories"
      : view.categories.length === 1
        ? categoryLabel(BigInt(view.categories[0]), names)
        : `${view.categories.length} categories`;

  return (
    // Escape from any control inside (the button, a checkbox, Clear) closes the disclosure; the keys are the native
    // controls' own.
    // eslint-disable-next-line jsx-a11y/no-static-element-interactions -- a key listener around native controls
    <div
      className="relative"
      onKeyDown={(event) => {
        if (event.key === "Escape" && open) {
          event.stopPropagation();
          setOpen(false);
          button.current?.focus();
        }
      }}
    >
      <Button
        ref={button}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
        data-testid="category-filter"
        className="max-w-full gap-1.5"
      >
        <span>Category:</span> <span className="truncate font-normal">{caption}</span>
        {view.categories.length > 0 ? (
          <span className="rounded-full bg-indigo-700 px-1.5 text-xs text-white tabular-nums">
            <span className="sr-only">, chosen: </span>
            {view.categories.length}
          </span>
        ) : null}
        <span aria-hidden="true">{open ? "▴" : "▾"}</span>
      </Button>
      <div
        id={panelId}
        hidden={!open}
        className={
          "z-20 mt-1 w-72 max-w-full rounded-md border border-slate-300 bg-white p-3 shadow-lg sm:absolute sm:left-0"
        }
      >
        <fieldset>
          <legend className="text-sm font-medium">Show pets of these categories</legend>
          <p className="text-xs text-slate-600">
            None ticked shows every category; up to {CATEGORY_FILTER_MAX} at once.
          </p>
          {listing.isPending && open ? <p className="mt-2 text-sm">Loading categories…</p> : null}
          {listing.isError ? <p className="mt-2 text-sm text-red-800">The categories could not be read.</p> : null}
          <ul className="mt-2 max-h-64 overflow-y-auto">
            {rows.map((row) => {
              const checked = chosen.has(row.id);
              const full = !checked && chosen.size >= CATEGORY_FILTER_MAX;
              return (
                <li key={row.id}>
                  <label className="flex min-h-11 items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      checked={checked}
                      disabled={full}
                      onChange={() =>
                        show(checked ? view.categories.filter((id) => id !== row.id) : [...view.categories, row.id])
                      }
                      className={`size-5 ${focusRing}`}
                    />
                    <span className="min-w-0 flex-1 break-words">{row.label}</span>
                    <span className="font-mono text-xs text-slate-600 tabular-nums">
                      {row.pets.toLocaleString("en")}
                      <span className="sr-only"> pets</span>
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        </fieldset>
        <div className="mt-2 flex justify-between gap-2">
          <Button onClick={() => show([])}>Clear</Button>
          <Button
            onClick={() => {
              setOpen(false);
              button.current?.focus();
            }}
          >
            Done
          </Button>
        </div>
      </div>
    </div>
  );
}
