"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { fetchPetCounts, fetchPetPage } from "@/lib/client/admin-api";
import { countsQuery, listQuery, pageNumber, type CatalogueView, type StatusFilter } from "@/lib/client/catalogue-view";
import { petCountsQueryKey, PETS_KEY } from "@/lib/client/pet-cache";
import { categoryLabel } from "@/lib/categories/schema";
import type { PetCounts, PetSort } from "@/lib/pets/schema";

// The catalogue's data: the page of pets a view lists, the counts by status, and what the live region says once a
// new view has arrived. The page on screen stays while the next one loads.

/** The cache key of a view's page; the last page's depends on how many pets the view lists (see listQuery). */
export function petsQueryKey(view: CatalogueView, counts?: PetCounts) {
  return [...PETS_KEY, listQuery(view, listedCount(view, counts))] as const;
}

/** How many pets the view lists, all pages together, when the counts say so exactly. */
export function listedCount(view: CatalogueView, counts: PetCounts | undefined): number | undefined {
  return counts?.exact ? chipCount(counts, view.status) : undefined;
}

/** How many pets a status chip stands for; undefined while the counts load. */
export function chipCount(counts: PetCounts | undefined, status: StatusFilter): number | undefined {
  if (!counts) return undefined;
  return status === "all" ? counts.total : counts.byStatus[status];
}

export const SORT_CAPTIONS: Record<PetSort, string> = {
  "-id": "newest first",
  id: "oldest first",
  name: "by name, A to Z",
  "-name": "by name, Z to A",
  status: "by status, available first, no status last",
  "-status": "by status, no status first",
  category: "by category number, lowest first",
  "-category": "by category number, highest first",
};

/** Category names by id (as text), to name the categories a view shows; "Unnamed (17)" without one. */
export type CategoryNames = ReadonlyMap<string, string> | undefined;

/** The pets of a status and the view's categories: "sold pets", "pets without a status in Birds". */
function petsNoun(view: CatalogueView, count: number, names: CategoryNames): string {
  const pets = count === 1 ? "pet" : "pets";
  const noun =
    view.status === "all" ? pets : view.status === "none" ? `${pets} without a status` : `${view.status} ${pets}`;
  const { categories } = view;
  if (categories.length === 0) return noun;
  if (categories.length > 2) return `${noun} in ${categories.length} categories`;
  return `${noun} in ${categories.map((id) => categoryLabel(BigInt(id), names)).join(" or ")}`;
}

/**
 * What the list holds, in words: "12 sold pets", "3 pets without a status in Birds", "3 pets match 'bis'",
 * "More than 10,000 pets match 'a'".
 */
export function matchSummary(view: CatalogueView, counts: PetCounts, names?: CategoryNames): string {
  const count = chipCount(counts, view.status) ?? 0;
  const noun = petsNoun(view, count, names);
  const amount = counts.exact ? count.toLocaleString("en") : `More than ${(count - 1).toLocaleString("en")}`;
  if (!view.q) return `${amount} ${noun}`;
  return `${amount} ${noun} ${count === 1 && counts.exact ? "matches" : "match"} '${view.q}'`;
}

/**
 * The match line under the search: the count only with the view it was counted for. While a new search or filter
 * is counted, the last count (kept on screen for the status chips) would pair the new query with the old number.
 */
export function matchLine(view: CatalogueView, counts: PetCounts | undefined, current: boolean, names?: CategoryNames) {
  if (!counts) return "";
  if (!current) return view.q ? `Searching for '${view.q}'…` : "Counting…";
  return matchSummary(view, counts, names);
}

/** The pets a view lists, in words: "the sold pets", "the pets matching 'bis'", "the pets". */
function listedPets(view: CatalogueView, names: CategoryNames): string {
  const noun = `the ${petsNoun(view, 2, names)}`;
  return view.q ? `${noun} matching '${view.q}'` : noun;
}

/**
 * What the live region says once a view's page and counts have arrived, by what changed from the view announced
 * before: another page, "Page 2 of the sold pets"; another order or page size, the count and the order or size;
 * otherwise (the filter, the search) the count, "12 sold pets", "3 pets match 'bis'".
 */
export function announcement(
  view: CatalogueView,
  before: CatalogueView,
  counts: PetCounts,
  names?: CategoryNames,
): string {
  const number = pageNumber(view, listedCount(view, counts)) ?? "last";
  const summary = matchSummary(view, counts, names);
  const filtersChanged = view.categories.join(",") !== before.categories.join(",");
  if (view.status !== before.status || view.q !== before.q || filtersChanged)
    return number !== 1 ? `${summary}: page ${number}` : summary;
  if (view.sort !== before.sort) return `${summary}, ${SORT_CAPTIONS[view.sort]}`;
  if (view.limit !== before.limit) return `${summary}, ${view.limit} per page`;
  return `Page ${number} of ${listedPets(view, names)}`;
}

export function useCatalogue(view: CatalogueView, names?: CategoryNames) {
  const countsQueryResult = useQuery({
    queryKey: petCountsQueryKey(countsQuery(view)),
    queryFn: () => fetchPetCounts(countsQuery(view)),
    placeholderData: keepPreviousData,
  });
  const counts = countsQueryResult.data;
  // The view's own counts: another view's, kept on screen while these load, would size the last page wrongly.
  const ownCounts = countsQueryResult.isPlaceholderData ? undefined : counts;
  const queryKey = petsQueryKey(view, ownCounts);
  const query = useQuery({
    queryKey,
    queryFn: async () => {
      const page = await fetchPetPage(queryKey[1]);
      // From the end the order is read reversed: the rows are put back in the view's order.
      return view.fromEnd ? { ...page, pets: [...page.pets].reverse() } : page;
    },
    // The last page is as long as the count leaves over, so it waits for the count (see listQuery).
    enabled: !(view.fromEnd && view.cursors.length === 0 && !ownCounts),
    placeholderData: keepPreviousData, // the page on screen stays there while the next one loads
  });
  const page = query.data;

  // The view last announced (the first one arrived is not: the page's own load is not news), and what was said.
  const [announced, setAnnounced] = useState<{ key: string; view: CatalogueView; text: string }>();
  const settled = page && counts && !query.isPlaceholderData && !countsQueryResult.isPlaceholderData;
  const listKey = listQuery(view); // the view, not the count that sizes its last page
  if (settled && announced?.key !== listKey) {
    setAnnounced({ key: listKey, view, text: announced ? announcement(view, announced.view, counts, names) : "" });
  }

  return {
    query,
    page,
    counts,
    /** How many pets the view lists, all pages together, when known exactly. */
    total: ownCounts ? listedCount(view, ownCounts) : undefined,
    /** Whether `counts` are the view's own (not the last view's, kept while this one's are counted). */
    countsCurrent: !countsQueryResult.isPlaceholderData,
    loadingAnother: query.isPlaceholderData && query.isFetching,
    /** Whether the page on screen is the view's own (not the last view's, kept while this one loads). */
    current: !query.isPlaceholderData,
    announcement: announced?.text ?? "",
  };
}
