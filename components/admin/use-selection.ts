"use client";

import { useRef, useState } from "react";
import { AdminRequestError, fetchPetPage } from "@/lib/client/admin-api";
import { countsQuery, FIRST_PAGE, listQuery, type CatalogueView } from "@/lib/client/catalogue-view";
import { BATCH_MAX_PETS } from "@/lib/pets/batch-schema";
import type { Pet } from "@/lib/pets/schema";
import { staffErrorMessage } from "@/lib/pets/staff-messages";

// The catalogue's selection of pets for a bulk action, kept by id (a row the live updates change or move stays
// selected). It holds each selected pet as last seen, for its name in messages and for the export of the selection.
// It survives paging, sorting and the page size, which list the same pets, and is cleared when the filter or the
// search changes, which would leave pets selected that the view no longer lists.

/** What decides which pets the view lists: its status, categories and search (not its order or page). */
function filterKey(view: CatalogueView): string {
  return `${view.status}|${countsQuery(view)}`;
}

type Selected = { key: string; pets: ReadonlyMap<string, Pet>; anchor?: string };

/** Where the collection of every matching pet stands: pets read so far of how many. */
export type Collecting = { read: number; of: number };

/** Why "Select all matching" selected nothing, in words (a page read failed, or the view grew past the limit). */
export type CollectFailure = { message: string; requestId?: string };

/** The selection's pets as one string, with its filter: equal strings, the same selection. */
function stampOf(key: string, ids: Iterable<string>): string {
  return `${key}#${[...ids].sort().join(",")}`;
}

export function useSelection(view: CatalogueView, pagePets: readonly Pet[]) {
  const key = filterKey(view);
  const [selected, setSelected] = useState<Selected>({ key, pets: new Map() });
  // Both belong to the filter they were started under: another filter shows neither.
  const [collectingFor, setCollecting] = useState<Collecting & { key: string }>();
  const [collectFailureFor, setCollectFailure] = useState<CollectFailure & { key: string }>();
  // Bumped by every edit of the selection and by every bulk run: a collection started under an older generation
  // stops and applies nothing, so it never overwrites what the staff did meanwhile.
  const generation = useRef(0);
  const interrupt = () => {
    generation.current += 1;
    setCollecting(undefined);
    setCollectFailure(undefined);
  };
  const collecting = collectingFor?.key === key ? collectingFor : undefined;
  const collectFailure = collectFailureFor?.key === key ? collectFailureFor : undefined;
  // A new filter or search starts a new selection (set during render: no frame shows the old one).
  if (selected.key !== key) setSelected({ key, pets: new Map() });
  const current = selected.key === key ? selected.pets : new Map<string, Pet>();

  const onPage = pagePets.filter((pet) => current.has(String(pet.id)));
  const pageState: "none" | "some" | "all" =
    onPage.length === 0 ? "none" : onPage.length === pagePets.length ? "all" : "some";
  // The page's copy of a selected pet is the freshest one (the live updates rewrite the page).
  const fresh = new Map(pagePets.map((pet) => [String(pet.id), pet]));
  const pets = [...current.values()].map((pet) => fresh.get(String(pet.id)) ?? pet);

  const update = (change: (pets: Map<string, Pet>) => void, anchor?: string) =>
    setSelected((before) => {
      const next = new Map(before.key === key ? before.pets : []);
      change(next);
      return { key, pets: next, anchor: anchor ?? before.anchor };
    });

  return {
    /** The selected pets, in the order they were selected. */
    pets,
    count: current.size,
    isSelected: (id: string) => current.has(id),
    /** How much of the page on screen is selected. */
    pageState,
    /** How many selected pets are not on the page on screen (a change to them is confirmed first). */
    offPage: current.size - onPage.length,
    /** The selection with its filter, as one string: what a refusal or failure was told about. */
    stamp: stampOf(key, current.keys()),
    stampOf: (pets: readonly Pet[]) =>
      stampOf(
        key,
        pets.map((pet) => String(pet.id)),
      ),
    collecting,
    collectFailure,
    /** Stops a collection of every matching pet (a bulk run starts). */
    interrupt,
    /**
     * Selects or unselects a pet; with `range` (Shift), every pet of the page from the last one toggled to this
     * one gets the state this one gets.
     */
    toggle: (pet: Pet, range: boolean) => {
      const id = String(pet.id);
      const select = !current.has(id);
      const ids = pagePets.map((each) => String(each.id));
      const from = range && selected.anchor ? ids.indexOf(selected.anchor) : -1;
      const to = ids.indexOf(id);
      const span = from < 0 ? [pet] : pagePets.slice(Math.min(from, to), Math.max(from, to) + 1);
      interrupt();
      update((next) => {
        for (const each of span) {
          if (select) next.set(String(each.id), each);
          else next.delete(String(each.id));
        }
      }, id);
    },
    /** Selects every pet of the page, or, when all of them are selected, unselects them. */
    togglePage: () => {
      interrupt();
      update((next) => {
        for (const pet of pagePets) {
          if (pageState === "all") next.delete(String(pet.id));
          else next.set(String(pet.id), pet);
        }
      });
    },
    /** Makes exactly these pets the selection. */
    replace: (pets: readonly Pet[]) => {
      interrupt();
      setSelected({ key, pets: new Map(pets.map((pet) => [String(pet.id), pet])) });
    },
    clear: () => {
      interrupt();
      setSelected({ key, pets: new Map() });
    },
    /**
     * Selects every pet the view lists (at most BATCH_MAX_PETS: a bulk change is one atomic batch), read page by
     * page through the list endpoint, as paging would show them; `collecting` counts them as they come. An edit of
     * the selection or a bulk run meanwhile cancels it; a failed read or a view grown past the limit selects
     * nothing and says why in `collectFailure`.
     */
    selectAllMatching: async (total: number) => {
      if (total > BATCH_MAX_PETS) return;
      interrupt();
      const mine = generation.current;
      const found: Pet[] = [];
      let cursor: string | undefined;
      setCollecting({ key, read: 0, of: total });
      try {
        // One page past the limit at most: it tells whether pets were added meanwhile.
        do {
          const query = new URLSearchParams(listQuery({ ...view, ...FIRST_PAGE, limit: 100 }));
          if (cursor) query.set("cursor", cursor);
          const page = await fetchPetPage(query.toString());
          if (generation.current !== mine) return;
          found.push(...page.pets);
          cursor = page.nextCursor;
          setCollecting({ key, read: Math.min(found.length, BATCH_MAX_PETS), of: total });
        } while (cursor && found.length <= BATCH_MAX_PETS);
      } catch (error) {
        if (generation.current !== mine) return;
        setCollectFailure({
          key,
          message:
            "Could not select every matching pet: " +
            (error instanceof AdminRequestError ? staffErrorMessage(error) : String(error)),
          requestId: error instanceof AdminRequestError ? error.requestId : undefined,
        });
        return;
      } finally {
        if (generation.current === mine) setCollecting(undefined);
      }
      if (found.length > BATCH_MAX_PETS) {
        setCollectFailure({
          key,
          message:
            `Pets were added while selecting: the view now lists more than ${BATCH_MAX_PETS.toLocaleString("en")}, ` +
            "and a bulk change takes at most that many. Narrow the filter or search to select them all.",
        });
        return;
      }
      setSelected((before) =>
        before.key === key ? { key, pets: new Map(found.map((p) => [String(p.id), p])) } : before,
      );
    },
  };
}

export type Selection = ReturnType<typeof useSelection>;
