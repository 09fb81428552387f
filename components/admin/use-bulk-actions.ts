"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useNotifications, UNDO_WINDOW_MS } from "@/components/admin/notifications";
import type { Selection } from "@/components/admin/use-selection";
import { AdminRequestError, batchPets, restorePet } from "@/lib/client/admin-api";
import { ORDERS_KEY } from "@/lib/client/orders-api";
import { PETS_KEY } from "@/lib/client/pet-cache";
import { categoryLabel } from "@/lib/categories/schema";
import { csvLine } from "@/lib/csv/write";
import { BATCH_MAX_PETS, petBatchSetSchema, type PetBatch, type PetBatchResult } from "@/lib/pets/batch-schema";
import { PET_CSV_COLUMNS, type Pet, type PetStatus } from "@/lib/pets/schema";
import { staffErrorMessage } from "@/lib/pets/staff-messages";

// The bulk actions on the catalogue's selection: each is one batch request (POST /admin/api/pets/batch), atomic,
// so every selected pet changes or none does. A refusal names, in staff words, the pets in the way (held by an open
// order, or gone), selects the others and offers to apply the action to them. A success is told with an Undo for
// the whole batch: a deletion restores each pet (for a minute, as one pet's), a change sends each pet's previous
// values back as batches, one per previous value.

export type BulkAction =
  { kind: "status"; status: PetStatus } | { kind: "category"; categoryId: bigint } | { kind: "delete" };

/** A refused batch, in the staff's words: the pets in the way, and those the action can still be applied to. */
export type Refused = { action: BulkAction; held: Pet[]; gone: Pet[]; rest: Pet[]; message: string };

// A refusal or failure is told about one selection (its `stamp`): another filter or an edit of the selection makes
// it stale, and it is no longer shown.
type Told<T> = T & { stamp: string };

type Names = ReadonlyMap<string, string> | undefined;

const plural = (count: number, one = "pet", many = "pets") =>
  `${count.toLocaleString("en")} ${count === 1 ? one : many}`;

/** "Rex", "Rex and Bella", "Rex, Bella and 3 others". */
export function nameList(pets: readonly Pet[], shown = 5): string {
  const names = pets.slice(0, shown).map((pet) => pet.name);
  if (pets.length > shown) return `${names.join(", ")} and ${plural(pets.length - shown, "other", "others")}`;
  return names.length < 2 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** What the action does, as a confirmation's question or a button says it: "Set 3 pets to sold". */
export function actionPhrase(action: BulkAction, count: number, names: Names): string {
  if (action.kind === "status") return `Set ${plural(count)} to ${action.status}`;
  if (action.kind === "category") return `Move ${plural(count)} to ${categoryLabel(action.categoryId, names)}`;
  return `Delete ${plural(count)}`;
}

/** What a batch did: "Set 3 pets to sold.", "Moved 3 pets to Birds.", "Deleted 3 pets." */
function doneMessage(action: BulkAction, count: number, names: Names): string {
  return `${actionPhrase(action, count, names)
    .replace(/^Move /, "Moved ")
    .replace(/^Delete /, "Deleted ")}.`;
}

function batchOf(action: BulkAction, ids: bigint[]): PetBatch {
  if (action.kind === "delete") return { action: "delete", ids };
  const set = action.kind === "status" ? { status: action.status } : { categoryId: action.categoryId };
  return { action: "update", ids, set };
}

/** A 409 batch_refused read back to the pets it names (`ids.3` is the fourth pet sent). */
function refusedPets(error: AdminRequestError, sent: Pet[]): { held: Pet[]; gone: Pet[] } {
  const held: Pet[] = [];
  const gone: Pet[] = [];
  for (const { path, message } of error.errors ?? []) {
    const pet = sent[Number(/^ids\.(\d+)$/.exec(path)?.[1] ?? NaN)];
    if (!pet) continue;
    (message.startsWith("No pet has id") ? gone : held).push(pet);
  }
  return { held, gone };
}

function refusalMessage({ held, gone }: { held: Pet[]; gone: Pet[] }, deleting: boolean): string {
  const parts = ["Nothing was changed."];
  const what = deleting ? "cannot be deleted" : "cannot change status";
  if (held.length)
    parts.push(
      `An open order holds ${nameList(held)}: ${held.length === 1 ? "it" : "they"} ${what} until the order ends.`,
    );
  if (gone.length) parts.push(`${nameList(gone)} ${gone.length === 1 ? "is" : "are"} no longer in the catalogue.`);
  return parts.join(" ");
}

/** The previous values of the pets a change changed, grouped: one batch per value to send back. */
function undoBatches(result: PetBatchResult): PetBatch[] {
  const groups = new Map<string, { set: PetBatch & { action: "update" }; ids: bigint[] }>();
  for (const row of result.results) {
    if (!row.changed || !row.previous) continue;
    const set = petBatchSetSchema.safeParse(row.previous);
    if (!set.success) continue;
    const key = `${set.data.status}|${set.data.categoryId}`;
    const group = groups.get(key) ?? { set: { action: "update", ids: [], set: set.data }, ids: [] };
    group.ids.push(row.id);
    groups.set(key, group);
  }
  return [...groups.values()].map(({ set, ids }) => ({ ...set, ids }));
}

/** Runs `work` on each item, `width` at a time; the results in the items' order. */
async function eachLimited<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return results;
}

/** The selection as the catalogue's CSV (the export's columns), downloaded as a file. */
export function downloadSelection(pets: readonly Pet[], names: Names): void {
  const lines = [csvLine([...PET_CSV_COLUMNS])];
  for (const pet of pets)
    lines.push(csvLine([pet.id, pet.name, pet.categoryId, pet.status, names?.get(String(pet.categoryId))]));
  const url = URL.createObjectURL(new Blob(lines, { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = `pets-selected-${pets.length}.csv`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Where the focus goes once the selection (and the bar with the button that had it) is gone. */
export const SELECT_PAGE_ID = "select-page";
function focusAfterAction(): void {
  (document.getElementById(SELECT_PAGE_ID) ?? document.getElementById("catalogue-title"))?.focus();
}

export function useBulkActions(selection: Selection, names: Names) {
  const client = useQueryClient();
  const { notify } = useNotifications();
  const [asking, setAsking] = useState<BulkAction>();
  const [running, setRunning] = useState(false);
  const [refusedFor, setRefused] = useState<Told<Refused>>();
  const [failureFor, setFailure] = useState<Told<{ message: string; requestId?: string }>>();
  const refused = refusedFor?.stamp === selection.stamp ? refusedFor : undefined;
  const failure = failureFor?.stamp === selection.stamp ? failureFor : undefined;

  const refresh = async () => {
    await client.invalidateQueries({ queryKey: PETS_KEY });
    void client.invalidateQueries({ queryKey: ORDERS_KEY });
  };

  const undoDelete = (pets: Pet[]) => async () => {
    const outcomes = await eachLimited(pets, 4, (pet) =>
      restorePet(pet.id).then(
        () => undefined,
        (error: unknown) => ({ pet, error }),
      ),
    );
    await refresh();
    const missed = outcomes.flatMap((outcome) => outcome ?? []);
    if (missed.length === 0) return void notify({ kind: "success", message: `Restored ${plural(pets.length)}.` });
    const first = missed[0].error;
    notify({
      kind: "failure",
      message:
        `Restored ${plural(pets.length - missed.length)} of ${pets.length}; ${nameList(missed.map((m) => m.pet))} ` +
        `could not be restored: ${first instanceof AdminRequestError ? staffErrorMessage(first) : String(first)}`,
      requestId: first instanceof AdminRequestError ? first.requestId : undefined,
    });
  };

  const undoUpdate = (result: PetBatchResult) => async () => {
    const batches = undoBatches(result);
    const total = batches.reduce((sum, batch) => sum + batch.ids.length, 0);
    let undone = 0;
    for (const batch of batches) {
      try {
        await batchPets(batch);
        undone += batch.ids.length;
      } catch (error) {
        // Each batch is atomic: the ones sent before this were changed back, this one was not, nor any after it.
        const sent = result.results.map((row) => row.pet).filter((pet) => batch.ids.includes(pet.id));
        notify({
          kind: "failure",
          message:
            `Changed back ${undone.toLocaleString("en")} of ${plural(total)}. ` +
            (error instanceof AdminRequestError && error.code === "batch_refused"
              ? refusalMessage(refusedPets(error, sent), false)
              : error instanceof AdminRequestError
                ? staffErrorMessage(error)
                : String(error)),
          requestId: error instanceof AdminRequestError ? error.requestId : undefined,
        });
        return void (await refresh());
      }
    }
    await refresh();
    notify({ kind: "success", message: `Undone: ${plural(undone)} changed back.` });
  };

  /** Sends the action for `pets`; tells how it went. */
  const run = async (action: BulkAction, pets: Pet[]) => {
    setAsking(undefined);
    setRefused(undefined);
    setFailure(undefined);
    selection.interrupt();
    if (pets.length > BATCH_MAX_PETS) {
      setFailure({
        message: `At most ${BATCH_MAX_PETS.toLocaleString("en")} pets can be changed at once.`,
        stamp: selection.stampOf(pets),
      });
      return;
    }
    setRunning(true);
    try {
      const result = await batchPets(
        batchOf(
          action,
          pets.map((pet) => pet.id),
        ),
      );
      // The focus leaves the bar before the bar leaves (the state changes render after this task).
      focusAfterAction();
      selection.clear();
      const undo =
        action.kind === "delete"
          ? { run: undoDelete(result.results.map((row) => row.pet)), until: Date.now() + UNDO_WINDOW_MS }
          : { run: undoUpdate(result) };
      const unchanged = pets.length - result.changed;
      notify({
        kind: "success",
        message:
          doneMessage(action, result.changed, names) + (unchanged > 0 ? ` ${plural(unchanged)} already had it.` : ""),
        action:
          result.changed > 0
            ? { label: "Undo", busyLabel: "Undoing…", key: "z", lateLabel: "Too late to undo", ...undo }
            : undefined,
      });
      await refresh();
      // A deletion may have emptied the page, and its header checkbox with it.
      if (!document.activeElement || document.activeElement === document.body) focusAfterAction();
    } catch (error) {
      if (error instanceof AdminRequestError && error.code === "batch_refused") {
        const { held, gone } = refusedPets(error, pets);
        const inTheWay = new Set([...held, ...gone].map((pet) => String(pet.id)));
        const rest = pets.filter((pet) => !inTheWay.has(String(pet.id)));
        if (rest.length === 0) focusAfterAction();
        selection.replace(rest);
        setRefused({
          action,
          held,
          gone,
          rest,
          message: refusalMessage({ held, gone }, action.kind === "delete"),
          stamp: selection.stampOf(rest),
        });
        await refresh();
      } else if (error instanceof AdminRequestError) {
        setFailure({ message: staffErrorMessage(error), requestId: error.requestId, stamp: selection.stampOf(pets) });
      } else throw error;
    } finally {
      setRunning(false);
    }
  };

  /** Asks first when the action deletes or reaches pets not on this page; otherwise sends it. */
  const request = (action: BulkAction) => {
    if (running || selection.collecting) return;
    if (action.kind === "delete" || selection.offPage > 0) setAsking(action);
    else void run(action, selection.pets);
  };

  return {
    asking,
    running,
    /** Whether the bulk actions wait (a batch is sent, or every matching pet is being selected). */
    busy: running || selection.collecting !== undefined,
    refused,
    /** A batch that failed otherwise than refused (the connection, the session, the rate limit), in words. */
    failure,
    request,
    confirm: () => {
      if (asking) void run(asking, selection.pets);
    },
    cancel: () => setAsking(undefined),
    /** Applies the refused action to the selection (the pets that were not in its way), confirmed as any. */
    applyToRest: () => {
      if (refused) request(refused.action);
    },
    dismissRefusal: () => setRefused(undefined),
    exportSelection: () => downloadSelection(selection.pets, names),
  };
}
