"use client";

import { PagerLink } from "@/components/admin/catalogue-controls";
import {
  FIRST_PAGE,
  LAST_PAGE,
  pageCount,
  pageNumber,
  viewHref,
  type CatalogueView,
} from "@/lib/client/catalogue-view";

// The catalogue's pager: the numbers of the pages it can reach in one keyset read, then Previous and Next (side by
// side, so Shift+Tab from Next reaches Previous). Those are the
// first page, the last (the order read reversed, from the end), every page walked through to reach this one (their
// cursors are in the URL) and the page after it; a page in between has no position to seek to without stepping over
// every pet before it, so it has no number to press (see "Paging" in docs/staff.md).

/** How many numbered pages either side of the current one the pager shows, at most. */
const NEIGHBOURS = 2;

type PageLink = { number: number; href: string };

/** The pages reachable from this view, by number, each with its URL; the current page's is the view's own. */
export function reachablePages(view: CatalogueView, total: number | undefined, nextCursor?: string): PageLink[] {
  const current = pageNumber(view, total);
  const pages = new Map<number, string>();
  const add = (number: number | undefined, place: Pick<CatalogueView, "cursors" | "fromEnd">) => {
    if (number !== undefined && number >= 1 && !pages.has(number)) pages.set(number, viewHref({ ...view, ...place }));
  };
  if (current !== undefined) add(current, view);
  const last = total === undefined ? undefined : pageCount(total, view.limit);
  // Walking back through the cursors reaches every page between this one and where the walk began.
  const step = view.fromEnd ? -1 : 1;
  view.cursors.forEach((_, walked) => {
    const begin = view.fromEnd ? last : 1;
    add(begin === undefined ? undefined : begin + step * walked, {
      cursors: view.cursors.slice(0, walked),
      fromEnd: view.fromEnd,
    });
  });
  if (nextCursor && current !== undefined)
    add(current + step, { cursors: [...view.cursors, nextCursor], fromEnd: view.fromEnd });
  add(1, FIRST_PAGE);
  if (last !== undefined) add(last, LAST_PAGE);
  return [...pages]
    .map(([number, href]) => ({ number, href }))
    .filter(({ number }) => number === 1 || number === last || Math.abs(number - (current ?? number)) <= NEIGHBOURS)
    .sort((a, b) => a.number - b.number);
}

/** "21–40 of 4,160": the rows shown and how many the view lists. */
export function rangeSummary(view: CatalogueView, total: number, shown: number): string {
  const number = pageNumber(view, total) ?? 1;
  const first = (number - 1) * view.limit + 1;
  if (shown === 0) return `0 of ${total.toLocaleString("en")}`;
  return `${first.toLocaleString("en")}–${(first + shown - 1).toLocaleString("en")} of ${total.toLocaleString("en")}`;
}

/**
 * The pager, a navigation landmark: Previous and Next move one page (from the end, Previous reads on towards the
 * start), the numbers jump. `nextCursor` is the cursor after the page on screen, when it is the view's own.
 */
export function CataloguePager({
  view,
  total,
  nextCursor,
}: {
  view: CatalogueView;
  total: number | undefined;
  nextCursor: string | undefined;
}) {
  const current = pageNumber(view, total);
  const back = view.cursors.length > 0 ? viewHref({ ...view, cursors: view.cursors.slice(0, -1) }) : undefined;
  const on = nextCursor ? viewHref({ ...view, cursors: [...view.cursors, nextCursor] }) : undefined;
  const pages = reachablePages(view, total, nextCursor);
  const last = total === undefined ? undefined : pageCount(total, view.limit);
  return (
    <nav aria-label="Pages of the catalogue">
      <ul className="flex flex-wrap items-center gap-2">
        {pages.map(({ number, href }, index) => (
          <li key={number} className="flex items-center gap-2">
            {index > 0 && number > pages[index - 1].number + 1 ? (
              <span aria-hidden="true" className="text-slate-600">
                …
              </span>
            ) : null}
            <PagerLink
              label={number.toLocaleString("en")}
              name={number === last && number !== 1 ? `Last page, ${number}` : `Page ${number}`}
              href={href}
              current={number === current}
              testId={number === last ? "last-page" : undefined}
            />
          </li>
        ))}
        <li>
          <PagerLink label="Previous" href={view.fromEnd ? on : back} rel="prev" />
        </li>
        <li>
          <PagerLink label="Next" href={view.fromEnd ? back : on} rel="next" />
        </li>
      </ul>
    </nav>
  );
}
