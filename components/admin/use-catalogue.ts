"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { fetchPetCounts, fetchPetPage } from "@/lib/client/admin-api";
import { countsQuery, listQuery, type CatalogueView, type StatusFilter } from "@/lib/client/catalogue-view";
import { petCountsQueryKey, PETS_KEY } from "@/lib/client/pet-cache";
import type { PetCounts, PetSort } from "@/lib/pets/schema";

// The catalogue's data: the page of pets a view lists, the counts by status, and what the live region says once a
// new view has arrived. The page on screen stays while the next one loads.

export function petsQueryKey(view: CatalogueView) {
  return [...PETS_KEY, listQuery(view)] as const;
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
};

/** What the list holds, in words: "12 sold pets", "3 pets match 'bis'", "More than 10,000 pets match 'a'". */
export function matchSummary(view: CatalogueView, counts: PetCounts): string {
  const count = chipCount(counts, view.status) ?? 0;
  const noun = `${view.status === "all" ? "" : `${view.status} `}${count === 1 ? "pet" : "pets"}`;
  const amount = counts.exact ? count.toLocaleString("en") : `More than ${(count - 1).toLocaleString("en")}`;
  if (!view.q) return `${amount} ${noun}`;
  return `${amount} ${noun} ${count === 1 && counts.exact ? "matches" : "match"} '${view.q}'`;
}

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

export function useCatalogue(view: CatalogueView) {
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

  // The view last announced (the first one arrived is not: the page's own load is not news), and what was said.
  const [announced, setAnnounced] = useState<{ key: string; view: CatalogueView; text: string }>();
  const settled = page && counts && !query.isPlaceholderData && !countsQueryResult.isPlaceholderData;
  const listKey = listQuery(view);
  if (settled && announced?.key !== listKey) {
    setAnnounced({ key: listKey, view, text: announced ? announcement(view, announced.view, counts) : "" });
  }

  return {
    query,
    page,
    counts,
    loadingAnother: query.isPlaceholderData && query.isFetching,
    /** Whether the page on screen is the view's own (not the last view's, kept while this one loads). */
    current: !query.isPlaceholderData,
    announcement: announced?.text ?? "",
  };
}
