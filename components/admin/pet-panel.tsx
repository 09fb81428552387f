"use client";

import { useRef, useState } from "react";
import { ViewLink } from "@/components/admin/catalogue-navigation";
import { CategoryName } from "@/components/admin/category-name";
import { RequestId } from "@/components/admin/form-fields";
import { PetHistory } from "@/components/admin/pet-history";
import { PetPhotos } from "@/components/admin/pet-photos";
import { holdReason, PetOrder, useOpenOrder } from "@/components/admin/pet-order";
import { EditPetForm } from "@/components/admin/pet-edit-form";
import { StatusBadge } from "@/components/admin/status-badge";
import { isGone, type PetChange } from "@/components/admin/use-pet-change";
import {
  inStaffWords,
  useCloseOnEscape,
  usePetPanel,
  useSheetOnPhone,
  type PetPanelEvents,
} from "@/components/admin/use-pet-panel";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClass } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { focusRing } from "@/components/ui/focus-ring";
import { AdminRequestError } from "@/lib/client/admin-api";
import type { Order } from "@/lib/client/orders-api";
import { useCategories } from "@/lib/client/categories-api";
import { categoryLabel } from "@/lib/categories/schema";
import { petStatuses, type Pet, type PetStatus } from "@/lib/pets/schema";

// One pet's panel, opened by ?pet=<id>: every field, its status in one click, its name and category edited
// with the add form's schema and messages, and deleting it after a confirmation. Every change carries the
// ETag the panel read (If-Match), so a colleague's change made meanwhile is shown, never overwritten. Its History
// lists who changed it and how. The data and the changes are in use-pet-panel.ts.

export const PET_PANEL_TITLE_ID = "pet-panel-title";

export type PetPanelProps = PetPanelEvents & {
  id: string;
  /** The catalogue without this panel. */
  closeHref: string;
};

export function PetPanel({ id, closeHref, ...events }: PetPanelProps) {
  const panel = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const { query, pet, busy, title, problem, ...panelState } = usePetPanel(id, events, heading);
  const orderQuery = useOpenOrder(id);
  const openOrder = orderQuery.data;
  useCloseOnEscape(panel, closeHref, confirmingDelete, panelState.isEditing);
  const sheet = useSheetOnPhone(panel);

  return (
    <section
      ref={panel}
      {...sheet}
      aria-labelledby={PET_PANEL_TITLE_ID}
      className={
        // On a phone, the whole screen over the catalogue (below the notifications): opening a pet moves nothing
        // on the page (issue 24 item 6), and closing it finds the list where it was.
        "h-fit min-w-0 bg-white p-4 max-lg:fixed max-lg:inset-0 max-lg:z-30 max-lg:h-auto " +
        "max-lg:overflow-y-auto max-lg:overscroll-contain lg:sticky lg:top-4 lg:max-h-[calc(100vh-2rem)] " +
        "lg:overflow-y-auto lg:rounded-lg lg:border lg:border-indigo-200"
      }
      data-testid="pet-panel"
    >
      <div className="flex items-start justify-between gap-3">
        <h2
          id={PET_PANEL_TITLE_ID}
          ref={heading}
          tabIndex={-1}
          className={`min-w-0 text-lg font-semibold break-words ${focusRing}`}
        >
          {pet ? pet.name : `Pet #${id}`}
        </h2>
        <ViewLink href={closeHref} aria-keyshortcuts="Escape" className={buttonClass({ className: "shrink-0" })}>
          Close
        </ViewLink>
      </div>

      {query.isError && !pet && !isGone(query.error) ? (
        <Alert className="mt-3">
          <p>This pet could not be loaded: {inStaffWords(query.error)}</p>
          {query.error instanceof AdminRequestError ? <RequestId id={query.error.requestId} /> : null}
          <Button onClick={() => void query.refetch()} className="mt-2">
            Try again
          </Button>
        </Alert>
      ) : null}

      <PetFacts id={id} pet={pet} />

      {problem?.kind === "conflict" && pet ? (
        <ConflictNotice
          pet={pet}
          change={problem.change}
          refreshing={query.isFetching}
          busy={busy}
          onResolve={panelState.resolve}
        />
      ) : null}
      {problem?.kind === "error" ? (
        <Alert className="mt-3">
          <p>{problem.message}</p>
          {problem.requestId ? <RequestId id={problem.requestId} testId="panel-request-id" /> : null}
        </Alert>
      ) : null}
      <p role="status" className="mt-2 min-h-5 text-sm text-emerald-800">
        {panelState.done}
      </p>
      {panelState.notice ? (
        <Alert tone="warning" polite className="mt-2">
          <p data-testid="pet-changed-notice">{panelState.notice}</p>
          <Button className="mt-2" onClick={panelState.showCurrent}>
            Show the current values
          </Button>
        </Alert>
      ) : null}

      {/* Once the open order is known too: the sections come in at once, rather than moving down as it loads. */}
      {pet && orderQuery.status !== "pending" ? (
        <>
          <PetOrder pet={pet} order={openOrder} />
          <StatusButtons
            status={pet.status}
            heldBy={openOrder ?? undefined}
            busy={busy}
            onChoose={(status) => panelState.run({ kind: "status", patch: { status } })}
          />
          <EditPetForm
            key={panelState.editRound}
            pet={pet}
            busy={busy}
            onSave={(patch, options) => panelState.run({ kind: "details", patch }, options)}
            onUnchanged={() => panelState.setDone("Nothing to save: the name and category are as they were.")}
            onEditing={panelState.onEditing}
          />
          <PetPhotos petId={id} petName={pet.name} onSaid={panelState.setDone} />
          <DeletePet
            heldBy={openOrder ?? undefined}
            title={title}
            busy={busy}
            deleting={panelState.deleting}
            open={confirmingDelete}
            onOpen={setConfirmingDelete}
            onConfirm={() => panelState.run({ kind: "delete" }, { onSettled: () => setConfirmingDelete(false) })}
          />
          <PetHistory id={id} />
        </>
      ) : null}
    </section>
  );
}

/** Deleting the pet, after a confirmation whose Cancel has the focus first (Escape cancels too). */
function DeletePet({
  heldBy,
  title,
  busy,
  deleting,
  open,
  onOpen,
  onConfirm,
}: {
  heldBy?: Order;
  title: string;
  busy: boolean;
  deleting: boolean;
  open: boolean;
  onOpen: (open: boolean) => void;
  onConfirm: () => void;
}) {
  if (heldBy) return null; // StatusButtons says why: the order holds the pet
  return (
    <div className="mt-5 border-t border-slate-200 pt-4">
      <Button
        variant="dangerOutline"
        aria-disabled={busy}
        aria-haspopup="dialog"
        onClick={() => !busy && onOpen(true)}
        className="w-full"
      >
        Delete this pet…
      </Button>
      <ConfirmDialog
        open={open}
        idPrefix="delete-pet"
        size="small"
        title={`Delete ${title}?`}
        description="It leaves the catalogue for good, and its id is never given to another pet."
        confirmLabel="Delete"
        pendingLabel="Deleting…"
        pending={deleting}
        onConfirm={onConfirm}
        onCancel={() => onOpen(false)}
      />
    </div>
  );
}

function PetFacts({ id, pet }: { id: string; pet: Pet | undefined }) {
  return (
    <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm" aria-busy={!pet}>
      <dt className="text-slate-600">ID</dt>
      <dd className="font-mono tabular-nums" data-testid="pet-id">
        {id}
      </dd>
      <dt className="text-slate-600">Name</dt>
      <dd className="break-all" data-testid="pet-name">
        {pet?.name ?? "…"}
      </dd>
      <dt className="text-slate-600">Category</dt>
      <dd className="break-words" data-testid="pet-category">
        {pet ? <CategoryName id={pet.categoryId} /> : "…"}
      </dd>
      <dt className="text-slate-600">Status</dt>
      <dd data-testid="pet-status">{pet ? <StatusBadge status={pet.status} /> : "…"}</dd>
    </dl>
  );
}

function describeChange(change: PetChange, names: ReadonlyMap<string, string> | undefined): string {
  if (change.kind === "delete") return "delete it";
  const { name, categoryId, status } = change.patch;
  const parts = [
    ...(name !== undefined ? [`name “${name}”`] : []),
    ...(categoryId !== undefined ? [`category ${categoryLabel(categoryId, names)}`] : []),
    ...(status !== undefined ? [status === null ? "no status" : `status ${status}`] : []),
  ];
  return `set ${parts.join(", ")}`;
}

function ConflictNotice({
  pet,
  change,
  refreshing,
  busy,
  onResolve,
}: {
  pet: Pet;
  change: PetChange;
  refreshing: boolean;
  busy: boolean;
  onResolve: (apply: boolean) => void;
}) {
  const waiting = refreshing || busy;
  const { names } = useCategories();
  const now = `${pet.name}, category ${categoryLabel(pet.categoryId, names)}, ${pet.status ?? "no status"}`;
  return (
    <Alert tone="warning" className="mt-3">
      <p className="font-medium">This pet was changed by someone else meanwhile.</p>
      <p className="mt-1">
        {refreshing ? "Reading its current values…" : `It is now: ${now}.`} Your change ({describeChange(change, names)}
        ) was not made.
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button variant="onWarning" aria-disabled={waiting} onClick={() => !waiting && onResolve(true)}>
          Apply my change again
        </Button>
        <Button onClick={() => onResolve(false)}>Keep the current values</Button>
      </div>
    </Alert>
  );
}

const statusChoices: (PetStatus | null)[] = [...petStatuses, null];

function StatusButtons({
  status,
  heldBy,
  busy,
  onChoose,
}: {
  status?: PetStatus;
  heldBy?: Order;
  busy: boolean;
  onChoose: (status: PetStatus | null) => void;
}) {
  if (heldBy) {
    return (
      <p className="mt-3 text-sm text-slate-700" data-testid="status-held">
        {holdReason(heldBy)}
      </p>
    );
  }
  return (
    <div role="group" aria-labelledby="pet-status-title" className="mt-3">
      <h3 id="pet-status-title" className="text-sm font-semibold">
        Set the status
      </h3>
      <div className="mt-2 flex flex-wrap gap-2">
        {statusChoices.map((choice) => {
          const current = (status ?? null) === choice;
          return (
            <Button
              key={choice ?? "none"}
              variant={current ? "primary" : "plain"}
              aria-pressed={current}
              // aria-disabled, not disabled: the button keeps the keyboard focus while a change is sent.
              aria-disabled={busy}
              onClick={() => !busy && !current && onChoose(choice)}
            >
              {choice ?? "no status"}
            </Button>
          );
        })}
      </div>
    </div>
  );
}
