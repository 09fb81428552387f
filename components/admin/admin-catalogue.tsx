"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useLayoutEffect, useRef } from "react";
import { AddPetForm, AddPetShortcut, focusAddPetForm } from "@/components/admin/add-pet-form";
import { Catalogue, CATALOGUE_TITLE_ID } from "@/components/admin/catalogue";
import { petLinkId } from "@/components/admin/pet-table";
import { petsQueryKey } from "@/components/admin/use-catalogue";
import { CatalogueNavigation, useCatalogueNavigation } from "@/components/admin/catalogue-navigation";
import { focusPageHeading, UNDO_WINDOW_MS, useNotifications } from "@/components/admin/notifications";
import { PET_PANEL_TITLE_ID, PetPanel } from "@/components/admin/pet-panel";
import { AdminRequestError, restorePet, type PetPage } from "@/lib/client/admin-api";
import { countsQuery, viewHref } from "@/lib/client/catalogue-view";
import { changePetInPages, petCountsQueryKey, PETS_KEY } from "@/lib/client/pet-cache";
import type { Pet, PetCounts } from "@/lib/pets/schema";

/** Resolves once a pet's link is in the table (the list read again has been rendered), or after `ms`. */
async function petLinkShown(id: string, ms = 2000): Promise<void> {
  const until = Date.now() + ms;
  while (!document.getElementById(petLinkId(id)) && Date.now() < until)
    await new Promise((resolve) => requestAnimationFrame(resolve));
}

/** Focuses a pet's link in the table, or the catalogue's heading when it is not on the page shown. */
function focusPetOrHeading(id: string | undefined): void {
  const target = (id ? document.getElementById(petLinkId(id)) : null) ?? document.getElementById(CATALOGUE_TITLE_ID);
  if (target) target.focus();
  else focusPageHeading();
}

/**
 * The catalogue page's body, all of it from the URL: the catalogue, and beside it the open pet's panel (on a phone,
 * over the whole screen) or the add form when none is open. A button by the heading, always there, takes the focus
 * to the form (on a phone, where it is below the table, too), closing the pet first when one is open. Focus goes
 * to the panel's heading when it opens, and back to the pet's link in the table when it closes; after a deletion to
 * the row that took the pet's place (or the heading). What happened is told by the app's notifications: a deletion
 * with its Undo, a pet gone meanwhile as a failure.
 */
export function AdminCatalogue() {
  const client = useQueryClient();
  const { notify } = useNotifications();
  const { view, navigate } = useCatalogueNavigation();
  const openPet = view.pet;
  const closeHref = viewHref({ ...view, pet: undefined });

  // The pet whose panel was open before this render's, to give the focus back to its link; after a deletion, the
  // row to focus instead (the pet's own link is gone).
  const lastPet = useRef<string | undefined>(undefined);
  const focusAfterClose = useRef<{ pet?: string; form?: boolean } | undefined>(undefined);
  const neighbourAtDelete = useRef<string | undefined>(undefined);
  // A layout effect: the focus moves in the same task as the commit that removed the element holding it, so it is
  // never seen on <body> in between.
  useLayoutEffect(() => {
    const previous = lastPet.current;
    lastPet.current = view.pet;
    if (view.pet && view.pet !== previous) {
      document.getElementById(PET_PANEL_TITLE_ID)?.focus();
    } else if (!view.pet && previous) {
      const instead = focusAfterClose.current;
      focusAfterClose.current = undefined;
      if (instead?.form) focusAddPetForm();
      else focusPetOrHeading(instead ? instead.pet : previous);
    }
  }, [view.pet]);

  /** The pet shown after this one on the current page (before it, for the last row): where the focus goes next. */
  const neighbourOf = (id: string): string | undefined => {
    const pets =
      client.getQueryData<PetPage>(
        petsQueryKey(view, client.getQueryData<PetCounts>(petCountsQueryKey(countsQuery(view)))),
      )?.pets ?? [];
    const index = pets.findIndex((pet) => String(pet.id) === id);
    if (index < 0) return undefined;
    const next = pets[index + 1] ?? pets[index - 1];
    return next ? String(next.id) : undefined;
  };

  const undo = (pet: Pet) => async () => {
    const id = String(pet.id);
    try {
      await restorePet(id);
      // Its Undo keeps the focus until the pet is back in its row, which then takes it; only then is the
      // notification replaced, so the focus is never left on <body>.
      await client.invalidateQueries({ queryKey: PETS_KEY });
      await petLinkShown(id);
      focusPetOrHeading(id);
      notify({
        kind: "success",
        key: `pet-${id}`,
        message: `Restored ${pet.name} (#${id}).`,
        link: { href: viewHref({ ...view, pet: id }), label: `Open ${pet.name}` },
      });
    } catch (error) {
      notify({
        kind: "failure",
        key: `pet-${id}`,
        message: `${pet.name} (#${id}) could not be restored: ${(error as Error).message}`,
        requestId: error instanceof AdminRequestError ? error.requestId : undefined,
        focus: true, // it takes the place of the Undo that had the focus
      });
    }
  };

  return (
    <CatalogueNavigation value={navigate}>
      {/* The add action stays by the heading whatever is open, so opening a pet moves nothing there; while a pet is
          open it closes the pet and takes the focus to the form that takes the panel's place. */}
      <Catalogue
        view={view}
        action={
          <AddPetShortcut
            onAdd={
              openPet
                ? () => {
                    focusAfterClose.current = { form: true };
                    navigate(closeHref);
                  }
                : undefined
            }
          />
        }
      />
      {openPet ? (
        <PetPanel
          key={openPet}
          id={openPet}
          closeHref={closeHref}
          onGone={(message, requestId) => {
            focusAfterClose.current = { pet: neighbourOf(openPet) };
            changePetInPages(client, openPet, () => undefined);
            void client.invalidateQueries({ queryKey: PETS_KEY });
            notify({ kind: "failure", key: `pet-${openPet}`, message, requestId });
            navigate(closeHref, "replace");
          }}
          onDeleting={() => (neighbourAtDelete.current = neighbourOf(openPet))}
          onDeleted={(pet) => {
            focusAfterClose.current = { pet: neighbourAtDelete.current };
            notify({
              kind: "success",
              key: `pet-${openPet}`,
              message: `Deleted ${pet.name} (#${openPet}).`,
              action: {
                label: "Undo",
                busyLabel: "Restoring…",
                run: undo(pet),
                key: "z",
                until: Date.now() + UNDO_WINDOW_MS,
                lateLabel: "Too late to undo",
              },
            });
            navigate(closeHref, "replace");
          }}
        />
      ) : (
        <AddPetForm />
      )}
    </CatalogueNavigation>
  );
}
