"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { petHistoryKey } from "@/lib/client/activity-api";
import { AdminRequestError, deletePet, updatePet, type VersionedPet } from "@/lib/client/admin-api";
import { ORDERS_KEY } from "@/lib/client/orders-api";
import {
  applyPatch,
  changePetInPages,
  PETS_KEY,
  petQueryKey,
  restoreSnapshot,
  snapshotPet,
  type PetSnapshot,
} from "@/lib/client/pet-cache";
import type { PetPatch } from "@/lib/pets/schema";

/** What staff do to a pet from its panel. */
export type PetChange = { kind: "status"; patch: PetPatch } | { kind: "details"; patch: PetPatch } | { kind: "delete" };

/** A change sent with the ETag of the state the panel showed, so a colleague's change in between is never lost. */
export type SentChange = { change: PetChange; etag: string };

export function isConflict(error: unknown): error is AdminRequestError {
  return error instanceof AdminRequestError && error.status === 412 && error.code === "precondition_failed";
}

export function isGone(error: unknown): error is AdminRequestError {
  return error instanceof AdminRequestError && error.status === 404;
}

/**
 * Changing or deleting one pet. A change is shown at once in the pet's panel and on every cached catalogue page
 * (optimistic), and taken back if the server refuses it; a deletion takes the pet off the pages once the server
 * has done it. Either way the catalogue is then read again, since a change can move a pet in or out of a filter.
 */
export function usePetChange(id: string) {
  const client = useQueryClient();
  // A pet that is gone leaves every page, and its own cached copy is marked stale (not read again now, while the
  // panel still shows it), so coming back to its URL asks the server rather than showing it as it was.
  const forget = () => {
    changePetInPages(client, id, () => undefined);
    void client.invalidateQueries({ queryKey: petQueryKey(id), refetchType: "none" });
  };
  return useMutation<VersionedPet | undefined, Error, SentChange, PetSnapshot | undefined>({
    mutationFn: async ({ change, etag }) => {
      if (change.kind !== "delete") return updatePet(id, change.patch, etag);
      await deletePet(id, etag);
      return undefined;
    },
    onMutate: async ({ change }) => {
      if (change.kind === "delete") return undefined;
      const snapshot = await snapshotPet(client, id);
      changePetInPages(client, id, (pet) => applyPatch(pet, change.patch));
      // The ETag stays the one read: it names the state the change was made from.
      client.setQueryData<VersionedPet>(petQueryKey(id), (current) =>
        current ? { ...current, pet: applyPatch(current.pet, change.patch) } : current,
      );
      return snapshot;
    },
    onError: async (error, _sent, snapshot) => {
      if (snapshot) restoreSnapshot(client, id, snapshot);
      if (isGone(error)) forget();
      // Changed by someone else: read what it is now, to show it and to send the new ETag if the change is made again.
      if (isConflict(error)) await client.invalidateQueries({ queryKey: petQueryKey(id) });
    },
    onSuccess: (result) => {
      if (result) {
        client.setQueryData(petQueryKey(id), result);
        changePetInPages(client, id, () => result.pet);
      } else {
        forget();
      }
    },
    // Not awaited: the panel hears of the outcome without waiting for the catalogue (and the pet's History, which
    // has a record more) to be read again.
    onSettled: () => {
      void client.invalidateQueries({ queryKey: PETS_KEY });
      void client.invalidateQueries({ queryKey: petHistoryKey(id) });
      // An order placed meanwhile (a colleague's sale) is what may have refused the change: read the hold again.
      void client.invalidateQueries({ queryKey: ORDERS_KEY });
    },
  });
}
