"use client";

import { useEffect, useRef, useState } from "react";
import { useNavigate, ViewLink } from "@/components/admin/catalogue-navigation";
import { chipCount } from "@/components/admin/use-catalogue";
import { buttonClass } from "@/components/ui/button";
import { focusRing } from "@/components/ui/focus-ring";
import {
  FIRST_PAGE,
  STATUS_FILTERS,
  viewHref,
  type CatalogueView,
  type StatusFilter,
} from "@/lib/client/catalogue-view";
import type { PetCounts } from "@/lib/pets/schema";

// The controls that change the catalogue's view (each one a URL): the status chips with their counts, the selects
// for the order and the page size, and the pager.

const chipStyle = "inline-flex min-h-11 items-center gap-1.5 rounded-full border px-3 py-1 text-sm";

/** A status chip's words: the status (shown capitalised), "all", or "No status" for the pets without one. */
const chipLabel = (status: StatusFilter) =>
  status === "none" ? <span>No status</span> : <span className="capitalize">{status}</span>;

/** A count as the page writes it: "1,204", or "10,001+" when a search counted no further. */
function formatCount(count: number, exact: boolean): string {
  return `${count.toLocaleString("en")}${exact ? "" : "+"}`;
}

export function StatusChips({ view, counts }: { view: CatalogueView; counts: PetCounts | undefined }) {
  return (
    <nav aria-label="Filter by status">
      <ul className="flex flex-wrap gap-2">
        {STATUS_FILTERS.map((status) => {
          const current = status === view.status;
          const count = chipCount(counts, status);
          return (
            <li key={status}>
              <ViewLink
                href={viewHref({ ...view, status, ...FIRST_PAGE })}
                aria-current={current ? "page" : undefined}
                data-testid={`status-chip-${status}`}
                className={`${chipStyle} ${focusRing} ${
                  current
                    ? "border-indigo-700 bg-indigo-700 text-white"
                    : "border-slate-300 bg-white hover:bg-slate-100"
                }`}
              >
                {chipLabel(status)}
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
  );
}

const unavailable =
  "inline-flex min-h-11 min-w-11 cursor-default items-center rounded-md border border-slate-200 px-3 py-2 " +
  `text-sm font-medium text-slate-500 ${focusRing}`;

/**
 * A pager control: a link, or while there is nowhere to go (the first page's Previous, the last page's Next, or
 * any while a page loads) the same element marked unavailable and out of the tab order. It is never replaced by
 * another element, so a keyboard user who pressed it keeps the focus on it while the next page loads. `name` is
 * its accessible name when the label alone ("208") says too little; `current` marks the page on screen.
 */
export function PagerLink({
  label,
  href,
  rel,
  name,
  current,
  testId,
}: {
  label: string;
  href?: string;
  rel?: string;
  name?: string;
  current?: boolean;
  testId?: string;
}) {
  const navigate = useNavigate();
  return (
    <a
      href={href}
      rel={href ? rel : undefined}
      role={href ? undefined : "link"}
      aria-label={name}
      aria-current={current ? "page" : undefined}
      aria-disabled={href ? undefined : true}
      tabIndex={href ? undefined : -1}
      data-testid={testId}
      onClick={(event) => {
        if (!href) return event.preventDefault();
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(href);
      }}
      className={href ? buttonClass({ variant: current ? "primary" : "plain", className: "min-w-11" }) : unavailable}
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
export function ViewSelect({
  label,
  view,
  value,
  choices,
  apply,
}: {
  label: string;
  view: CatalogueView;
  value: string;
  choices: { value: string; label: string }[];
  apply: (shown: CatalogueView, value: string) => CatalogueView;
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
        className={`min-h-11 rounded-md border border-slate-300 bg-white px-2 py-1 ${focusRing}`}
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
