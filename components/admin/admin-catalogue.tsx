"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { AddPetForm, AddPetShortcut } from "@/components/admin/add-pet-form";
import { Catalogue, CATALOGUE_TITLE_ID, petLinkId } from "@/components/admin/catalogue";
import { CatalogueNavigation, useCatalogueNavigation } from "@/components/admin/catalogue-navigation";
import { focusRing } from "@/components/admin/form-fields";
import { PET_PANEL_TITLE_ID, PetPanel } from "@/components/admin/pet-panel";
import { viewHref } from "@/lib/client/catalogue-view";
import { changePetInPages, PETS_KEY } from "@/lib/client/pet-cache";

type Notice = { message: string; alert: boolean };

/**
 * The catalogue page's body, all of it from the URL: the catalogue, and beside it (above it on a phone) the open
 * pet's panel, or the add form when none is open (on a phone, where the form is below the table, a button by the
 * heading takes the focus to it). Focus goes to the panel's heading when it opens, and back to the
 * pet's link in the table when it closes.
 */
export function AdminCatalogue() {
  const client = useQueryClient();
  const { view, navigate } = useCatalogueNavigation();
  const openPet = view.pet;
  const closeHref = viewHref({ ...view, pet: undefined });
  const [notice, setNotice] = useState<Notice>();

  // The pet whose panel was open before this render's, to give the focus back to its link.
  const lastPet = useRef<string | undefined>(undefined);
  useEffect(() => {
    const previous = lastPet.current;
    lastPet.current = view.pet;
    if (view.pet && view.pet !== previous) {
      document.getElementById(PET_PANEL_TITLE_ID)?.focus();
    } else if (!view.pet && previous) {
      // Its link is gone when the pet is (deleted, or another page of the catalogue is shown).
      (document.getElementById(petLinkId(previous)) ?? document.getElementById(CATALOGUE_TITLE_ID))?.focus();
    }
  }, [view.pet]);

  const closeWith = (next: Notice) => {
    setNotice(next);
    navigate(closeHref, "replace");
  };

  return (
    <CatalogueNavigation value={navigate}>
      <Catalogue
        view={view}
        action={openPet ? null : <AddPetShortcut />}
        notice={
          notice ? (
            <div
              role={notice.alert ? "alert" : "status"}
              className={
                "mt-4 flex items-start justify-between gap-3 rounded-lg border p-3 text-sm " +
                (notice.alert ? "border-amber-400 bg-amber-50 text-amber-950" : "border-emerald-300 bg-emerald-50")
              }
              data-testid="catalogue-notice"
            >
              <p className="min-w-0 break-words">{notice.message}</p>
              <button
                type="button"
                onClick={() => setNotice(undefined)}
                className={`-my-2 min-h-11 shrink-0 rounded-md px-2 font-medium underline ${focusRing}`}
              >
                Dismiss
              </button>
            </div>
          ) : null
        }
      />
      {openPet ? (
        <PetPanel
          key={openPet}
          id={openPet}
          closeHref={closeHref}
          onGone={(message) => {
            changePetInPages(client, openPet, () => undefined);
            void client.invalidateQueries({ queryKey: PETS_KEY });
            closeWith({ message, alert: true });
          }}
          onDeleted={(message) => closeWith({ message, alert: false })}
        />
      ) : (
        <AddPetForm />
      )}
    </CatalogueNavigation>
  );
}
