"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useEffectEvent, useRef, useState, type RefObject } from "react";
import { useNavigate } from "@/components/admin/catalogue-navigation";
import { useNotifications } from "@/components/admin/notifications";
import { isConflict, isGone, usePetChange, type PetChange } from "@/components/admin/use-pet-change";
import { fetchPetHistory } from "@/lib/client/activity-api";
import { AdminRequestError, fetchPet, isSessionEnded, type VersionedPet } from "@/lib/client/admin-api";
import { onLiveChange, type LiveChange } from "@/lib/client/live";
import { SHEET_ATTRIBUTE } from "@/lib/client/shortcuts";
import { petFromPages, petQueryKey } from "@/lib/client/pet-cache";
import type { Pet, PetStatus } from "@/lib/pets/schema";
import { staffErrorMessage } from "@/lib/pets/staff-messages";

// One pet's panel's data: the pet and the ETag it was read in, the change being sent (with that ETag as If-Match,
// so a colleague's change made meanwhile is told as a conflict, never overwritten), and what the panel says of
// the last change: done, refused, or in conflict.

export type PanelProblem =
  { kind: "conflict"; change: PetChange } | { kind: "error"; message: string; requestId?: string } | undefined;

export type RunOptions = {
  /** Handles a refusal itself (true), e.g. a form putting errors[] beside its inputs. */
  onRefused?: (error: Error) => boolean;
  onSaved?: () => void;
  onSettled?: () => void;
};

export type PetPanelEvents = {
  /** The pet is not there (deleted, here or elsewhere): the catalogue says so and closes the panel. */
  onGone: (message: string, requestId?: string) => void;
  /** A deletion is about to be sent. */
  onDeleting: () => void;
  /** The server deleted it: the catalogue says so (with an Undo) and closes the panel. */
  onDeleted: (pet: Pet) => void;
};

export function inStaffWords(error: Error): string {
  return error instanceof AdminRequestError ? staffErrorMessage(error) : error.message;
}

function statusDone(status: PetStatus | null | undefined): string {
  return status ? `status set to ${status}.` : "status removed.";
}

function failure(change: PetChange): string {
  if (change.kind === "status") return "The status could not be changed";
  if (change.kind === "details") return "The changes could not be saved";
  return "The pet could not be deleted";
}

function usePet(id: string) {
  const client = useQueryClient();
  return useQuery({
    queryKey: petQueryKey(id),
    queryFn: () => fetchPet(id),
    // What the catalogue already shows, at once; the pet's own read brings the ETag that changes need.
    placeholderData: () => {
      const pet = petFromPages(client, id);
      return pet ? { pet, etag: "" } : undefined;
    },
    // Not read again just because the tab regains focus: the panel keeps the state it showed (and its ETag), so a
    // colleague's change made meanwhile is told as a conflict when staff act on it, rather than slipping in
    // unnoticed under the cursor just before a click that would then overwrite it.
    refetchOnWindowFocus: false,
  });
}

export function usePetPanel(
  id: string,
  { onGone, onDeleting, onDeleted }: PetPanelEvents,
  heading: RefObject<HTMLHeadingElement | null>,
) {
  const { notify } = useNotifications();
  const query = usePet(id);
  const mutation = usePetChange(id);
  const [problem, setProblem] = useState<PanelProblem>();
  const [done, setDone] = useState("");
  // Changed to start the edit form afresh, from the pet's current values.
  const [editRound, setEditRound] = useState(0);

  const pet = query.data?.pet;
  const busy = !query.data || query.isPlaceholderData || mutation.isPending;
  const title = pet ? `${pet.name} (#${id})` : `Pet #${id}`;

  const reportMissing = useEffectEvent((requestId: string) =>
    onGone(`Pet #${id} is not in the catalogue: it may have been deleted.`, requestId),
  );
  useEffect(() => {
    if (isGone(query.error)) reportMissing(query.error.requestId);
  }, [query.error]);

  const refused = (change: PetChange, error: Error, options: RunOptions) => {
    if (isSessionEnded(error)) return; // the session-ended dialog says so; the edit form's values stay
    if (isConflict(error)) setProblem({ kind: "conflict", change });
    else if (isGone(error))
      onGone(`${title} is no longer in the catalogue: someone deleted it meanwhile.`, error.requestId);
    else if (!options.onRefused?.(error)) {
      const requestId = error instanceof AdminRequestError ? error.requestId : undefined;
      setProblem({ kind: "error", message: `${failure(change)}: ${inStaffWords(error)}`, requestId });
    }
  };

  function run(change: PetChange, options: RunOptions = {}) {
    const etag = query.data?.etag;
    if (busy || !etag || !pet) return;
    const before = pet;
    setProblem(undefined);
    setDone("");
    if (change.kind === "delete") onDeleting();
    mutation.mutate(
      { change, etag },
      {
        onSuccess: (result) => {
          if (change.kind === "delete") return onDeleted(before);
          options.onSaved?.();
          const saved = change.kind === "details" ? "changes saved." : statusDone(change.patch.status);
          notify({ kind: "success", key: `pet-${id}`, message: `${(result?.pet ?? before).name} (#${id}): ${saved}` });
        },
        onError: (error) => refused(change, error, options),
        onSettled: options.onSettled,
      },
    );
  }

  function resolve(apply: boolean) {
    if (problem?.kind !== "conflict") return;
    if (apply) run(problem.change);
    else {
      setProblem(undefined);
      setEditRound((round) => round + 1);
      setDone("Kept the current values.");
    }
    heading.current?.focus(); // the buttons pressed are gone
  }

  const live = useColleagueChanges(id, mutation.isPending);
  const { dropNotice } = live;
  // A conflict shows the current values itself: a notice of the same change would say it twice.
  useEffect(() => {
    if (problem?.kind === "conflict") dropNotice();
  }, [problem, dropNotice]);

  const deleting = mutation.isPending && mutation.variables.change.kind === "delete";
  return { query, pet, busy, title, problem, done, setDone, editRound, deleting, run, resolve, ...live };
}

/**
 * A change to this pet made elsewhere (a colleague, an API client), as the live stream reports it: the panel reads
 * the pet, and if its ETag is not the one shown, says who changed what, with a button to show the current values.
 * It never swaps them in by itself: a status button pressed as the values change under the cursor would act on
 * values the staff member never saw. Until they choose, a change they make is sent with the ETag they saw and is
 * refused as a conflict that shows the current values, as without live updates; typed values are kept either way.
 */
function useColleagueChanges(id: string, sending: boolean) {
  const client = useQueryClient();
  const editing = useRef(false);
  const [notice, setNotice] = useState<{ message: string; current: VersionedPet }>();
  const onEditing = useCallback((now: boolean) => void (editing.current = now), []);
  const isEditing = useCallback(() => editing.current, []);
  const shownTag = () => client.getQueryData<VersionedPet>(petQueryKey(id))?.etag;
  const changed = useEffectEvent(async () => {
    if (sending) return; // this panel's own change: its answer shows it
    let current: VersionedPet;
    try {
      current = await fetchPet(id);
    } catch (error) {
      if (isGone(error)) void client.invalidateQueries({ queryKey: petQueryKey(id) }); // the panel says it is gone
      return;
    }
    const latest = (await fetchPetHistory(id).catch(() => undefined))?.records[0];
    // Read again after the requests: a conflict's answer may have shown the current values meanwhile.
    if (!shownTag() || current.etag === shownTag()) return;
    const who = latest ? `${latest.summary}` : `${current.pet.name} (#${id}) was changed`;
    const message = editing.current
      ? `Changed while you were editing: ${who}. Saving will show you its current values first.`
      : `Changed elsewhere just now: ${who}.`;
    setNotice({ message, current });
  });
  useEffect(
    () => onLiveChange((change: LiveChange) => change.type.startsWith("pet.") && change.id === id && void changed()),
    [id],
  );
  // The current values, shown at the staff member's word; and a notice made stale by a conflict's answer goes.
  const showCurrent = () => {
    if (notice && notice.current.etag !== shownTag()) client.setQueryData(petQueryKey(id), notice.current);
    setNotice(undefined);
  };
  const dropNotice = useCallback(() => setNotice(undefined), []);
  return { notice: notice?.message, showCurrent, dropNotice, onEditing, isEditing };
}

/** Where the panel covers the whole screen (Tailwind's `max-lg`, as its classes say). */
const SHEET_QUERY = "(width < 64rem)";
/** What stays usable over a sheet: the notifications (an Undo, a failure's words), above it on the screen. */
const ABOVE_THE_SHEET = '[data-testid="notifications"]';

/**
 * On a phone the panel covers the screen: it is then a modal dialog (the attributes this returns), and everything it
 * covers is inert, so neither Tab nor a screen reader reaches controls no one can see (WCAG 2.4.11), and the app's
 * shortcuts wait as for any dialog. On a wide screen it is the side panel again, the page beside it usable.
 */
export function useSheetOnPhone(panel: RefObject<HTMLElement | null>): {
  role?: "dialog";
  "aria-modal"?: true;
  [SHEET_ATTRIBUTE]?: "";
} {
  const [covering, setCovering] = useState(false);
  useEffect(() => {
    const sheet = window.matchMedia(SHEET_QUERY);
    const follow = () => setCovering(sheet.matches);
    follow();
    sheet.addEventListener("change", follow);
    return () => sheet.removeEventListener("change", follow);
  }, []);
  useEffect(() => (covering && panel.current ? inertAround(panel.current) : undefined), [covering, panel]);
  return covering ? { role: "dialog", "aria-modal": true, [SHEET_ATTRIBUTE]: "" } : {};
}

/** Makes inert everything on the page but `element`, its ancestors and the notifications; returns the undoing. */
function inertAround(element: HTMLElement): () => void {
  const madeInert: HTMLElement[] = [];
  for (let node = element; node.parentElement && node !== document.body; node = node.parentElement) {
    for (const sibling of node.parentElement.children) {
      if (sibling === node || !(sibling instanceof HTMLElement) || sibling.inert) continue;
      if (sibling.matches(ABOVE_THE_SHEET) || sibling.querySelector(ABOVE_THE_SHEET)) continue;
      sibling.inert = true;
      madeInert.push(sibling);
    }
  }
  return () => {
    for (const each of madeInert) each.inert = false;
  };
}

/**
 * Escape closes the panel, as its Close link does: from the panel, from the catalogue's table (a row the `j` and `k`
 * shortcuts moved to) or with the focus nowhere. Not from a text input (a draft would be lost), except the edit
 * form's name with nothing changed (where the `e` shortcut puts the focus), nor while a dialog of the panel is open
 * (Escape closes the dialog).
 */
export function useCloseOnEscape(
  panel: RefObject<HTMLElement | null>,
  closeHref: string,
  dialogOpen: boolean,
  isEditing: () => boolean,
) {
  const navigate = useNavigate();
  const closeOnEscape = useEffectEvent((event: KeyboardEvent) => {
    const target = event.target instanceof Element ? event.target : null;
    if (event.key !== "Escape" || event.defaultPrevented || dialogOpen || !target) return;
    const inPanel = panel.current?.contains(target);
    if (!inPanel && target !== document.body && !target.closest("tbody tr")) return;
    const unchangedName = target.id === EDIT_NAME_ID && !isEditing();
    if (target.closest("input:not([type=checkbox]):not([type=radio]), select, textarea") && !unchangedName) return;
    navigate(closeHref);
  });
  useEffect(() => {
    document.addEventListener("keydown", closeOnEscape);
    return () => document.removeEventListener("keydown", closeOnEscape);
  }, []);
}

/** The edit form's name field (NameAndCategoryFields with the prefix "edit-"). */
const EDIT_NAME_ID = "edit-pet-name";
