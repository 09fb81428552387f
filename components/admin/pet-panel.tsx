"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useEffectEvent, useRef, useState } from "react";
import { z } from "zod";
import { useNavigate, ViewLink } from "@/components/admin/catalogue-navigation";
import { FormProblems, NameAndCategoryFields, RequestId } from "@/components/admin/form-fields";
import { focusRing } from "@/components/ui/focus-ring";
import { PetHistory } from "@/components/admin/pet-history";
import { CategoryName } from "@/components/admin/category-name";
import { StatusBadge } from "@/components/admin/status-badge";
import { useNotifications } from "@/components/admin/notifications";
import { useDraft } from "@/components/admin/session-ended";
import { isConflict, isGone, usePetChange, type PetChange } from "@/components/admin/use-pet-change";
import { AdminRequestError, fetchPet, isSessionEnded } from "@/lib/client/admin-api";
import { useCategories } from "@/lib/client/categories-api";
import { petFromPages, petQueryKey } from "@/lib/client/pet-cache";
import { byField, candidate, refusedFieldErrors, staffFieldErrors, type FormErrors } from "@/lib/client/pet-form";
import { categoryLabel } from "@/lib/categories/schema";
import { petPatchSchema, petStatuses, type Pet, type PetPatch, type PetStatus } from "@/lib/pets/schema";
import { staffErrorMessage } from "@/lib/pets/staff-messages";

// One pet's panel, opened by ?pet=<id>: every field, its status in one click, its name and category edited
// with the add form's schema and messages, and deleting it after a confirmation. Every change carries the
// ETag the panel read (If-Match), so a colleague's change made meanwhile is shown, never overwritten. Its History
// lists who changed it and how.

export const PET_PANEL_TITLE_ID = "pet-panel-title";

const button =
  "inline-flex min-h-11 items-center justify-center rounded-md border px-3 py-2 text-sm font-medium " +
  `aria-disabled:cursor-not-allowed aria-disabled:opacity-60 ${focusRing}`;
const plainButton = `${button} border-slate-300 bg-white hover:bg-slate-100`;

type Problem =
  { kind: "conflict"; change: PetChange } | { kind: "error"; message: string; requestId?: string } | undefined;

type RunOptions = {
  /** Handles a refusal itself (true), e.g. a form putting errors[] beside its inputs. */
  onRefused?: (error: Error) => boolean;
  onSaved?: () => void;
  onSettled?: () => void;
};

export type PetPanelProps = {
  id: string;
  /** The catalogue without this panel. */
  closeHref: string;
  /** The pet is not there (deleted, here or elsewhere): the catalogue says so and closes the panel. */
  onGone: (message: string, requestId?: string) => void;
  /** A deletion is about to be sent. */
  onDeleting: () => void;
  /** The server deleted it: the catalogue says so (with an Undo) and closes the panel. */
  onDeleted: (pet: Pet) => void;
};

export function PetPanel({ id, closeHref, onGone, onDeleting, onDeleted }: PetPanelProps) {
  const navigate = useNavigate();
  const { notify } = useNotifications();
  const client = useQueryClient();
  const query = useQuery({
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
  const mutation = usePetChange(id);
  const [problem, setProblem] = useState<Problem>();
  const [done, setDone] = useState("");
  // Changed to start the edit form afresh, from the pet's current values.
  const [editRound, setEditRound] = useState(0);
  const panel = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);

  const pet = query.data?.pet;
  const ready = Boolean(query.data) && !query.isPlaceholderData;
  const busy = !ready || mutation.isPending;
  const title = pet ? `${pet.name} (#${id})` : `Pet #${id}`;

  const reportMissing = useEffectEvent((requestId: string) =>
    onGone(`Pet #${id} is not in the catalogue: it may have been deleted.`, requestId),
  );
  useEffect(() => {
    if (isGone(query.error)) reportMissing(query.error.requestId);
  }, [query.error]);

  // Escape closes the panel, as its Close link does; not from a text input (a draft would be lost) or the
  // delete dialog (Escape closes the dialog).
  const closeOnEscape = useEffectEvent((event: KeyboardEvent) => {
    const target = event.target as HTMLElement | null;
    if (event.key !== "Escape" || event.defaultPrevented || dialog.current?.open) return;
    if (!target || !panel.current?.contains(target) || target.closest("input, select, textarea")) return;
    navigate(closeHref);
  });
  useEffect(() => {
    document.addEventListener("keydown", closeOnEscape);
    return () => document.removeEventListener("keydown", closeOnEscape);
  }, []);

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
          if (change.kind === "delete") {
            onDeleted(before);
            return;
          }
          options.onSaved?.();
          const now = result?.pet ?? before;
          const saved = change.kind === "details" ? "changes saved." : statusDone(change.patch.status);
          notify({
            kind: "success",
            key: `pet-${id}`,
            message: `${now.name} (#${id}): ${saved}`,
          });
        },
        onError: (error) => {
          if (isSessionEnded(error)) return; // the session-ended dialog says so; the edit form's values stay
          if (isConflict(error)) setProblem({ kind: "conflict", change });
          else if (isGone(error))
            onGone(`${title} is no longer in the catalogue: someone deleted it meanwhile.`, error.requestId);
          else if (!options.onRefused?.(error)) {
            setProblem({
              kind: "error",
              message: `${failure(change)}: ${inStaffWords(error)}`,
              requestId: error instanceof AdminRequestError ? error.requestId : undefined,
            });
          }
        },
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

  return (
    <section
      ref={panel}
      aria-labelledby={PET_PANEL_TITLE_ID}
      className={
        "order-first h-fit min-w-0 rounded-lg border border-indigo-200 bg-white p-4 " +
        "lg:sticky lg:top-4 lg:order-none lg:max-h-[calc(100vh-2rem)] lg:overflow-y-auto"
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
        <ViewLink href={closeHref} aria-keyshortcuts="Escape" className={`${plainButton} shrink-0`}>
          Close
        </ViewLink>
      </div>

      {query.isError && !pet && !isGone(query.error) ? (
        <div role="alert" className="mt-3 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
          <p>This pet could not be loaded: {inStaffWords(query.error)}</p>
          {query.error instanceof AdminRequestError ? <RequestId id={query.error.requestId} /> : null}
          <button type="button" onClick={() => void query.refetch()} className={`${plainButton} mt-2`}>
            Try again
          </button>
        </div>
      ) : null}

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

      {problem?.kind === "conflict" && pet ? (
        <ConflictNotice
          pet={pet}
          change={problem.change}
          refreshing={query.isFetching}
          busy={busy}
          onResolve={resolve}
        />
      ) : null}
      {problem?.kind === "error" ? (
        <div role="alert" className="mt-3 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
          <p>{problem.message}</p>
          {problem.requestId ? <RequestId id={problem.requestId} testId="panel-request-id" /> : null}
        </div>
      ) : null}
      <p role="status" className="mt-2 min-h-5 text-sm text-emerald-800">
        {done}
      </p>

      {pet ? (
        <>
          <StatusButtons
            status={pet.status}
            busy={busy}
            onChoose={(status) => run({ kind: "status", patch: { status } })}
          />
          <EditPetForm
            key={editRound}
            pet={pet}
            busy={busy}
            onSave={(patch, options) => run({ kind: "details", patch }, options)}
            onUnchanged={() => setDone("Nothing to save: the name and category are as they were.")}
          />
          <DeletePet
            title={title}
            dialog={dialog}
            busy={busy}
            deleting={mutation.isPending && mutation.variables.change.kind === "delete"}
            onConfirm={() => run({ kind: "delete" }, { onSettled: () => dialog.current?.close() })}
          />
          <PetHistory id={id} />
        </>
      ) : null}
    </section>
  );
}

function inStaffWords(error: Error): string {
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
    <div role="alert" className="mt-3 rounded-md border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950">
      <p className="font-medium">This pet was changed by someone else meanwhile.</p>
      <p className="mt-1">
        {refreshing ? "Reading its current values…" : `It is now: ${now}.`} Your change ({describeChange(change, names)}
        ) was not made.
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        <button
          type="button"
          aria-disabled={waiting}
          onClick={() => !waiting && onResolve(true)}
          className={`${button} border-amber-600 bg-white hover:bg-amber-100`}
        >
          Apply my change again
        </button>
        <button type="button" onClick={() => onResolve(false)} className={plainButton}>
          Keep the current values
        </button>
      </div>
    </div>
  );
}

const statusChoices: (PetStatus | null)[] = [...petStatuses, null];

function StatusButtons({
  status,
  busy,
  onChoose,
}: {
  status?: PetStatus;
  busy: boolean;
  onChoose: (status: PetStatus | null) => void;
}) {
  return (
    <div role="group" aria-labelledby="pet-status-title" className="mt-3">
      <h3 id="pet-status-title" className="text-sm font-semibold">
        Set the status
      </h3>
      <div className="mt-2 flex flex-wrap gap-2">
        {statusChoices.map((choice) => {
          const current = (status ?? null) === choice;
          return (
            <button
              key={choice ?? "none"}
              type="button"
              aria-pressed={current}
              // aria-disabled, not disabled: the button keeps the keyboard focus while a change is sent.
              aria-disabled={busy}
              onClick={() => !busy && !current && onChoose(choice)}
              className={`${button} ${
                current
                  ? "border-indigo-700 bg-indigo-700 text-white"
                  : "border-slate-300 bg-white text-slate-900 hover:bg-slate-100"
              }`}
            >
              {choice ?? "no status"}
            </button>
          );
        })}
      </div>
    </div>
  );
}

const editFields = ["name", "categoryId"] as const;
type EditErrors = FormErrors<(typeof editFields)[number]>;

// The edit form shows both members, so one left blank is missing (the add form's "is required"), not "unchanged":
// the patch schema's own members, required (zod's .required() would replace their messages with its own).
const petEditSchema = z.strictObject({
  name: petPatchSchema.shape.name.unwrap(),
  categoryId: petPatchSchema.shape.categoryId.unwrap(),
});

function EditPetForm({
  pet,
  busy,
  onSave,
  onUnchanged,
}: {
  pet: Pet;
  busy: boolean;
  onSave: (patch: PetPatch, options: RunOptions) => void;
  onUnchanged: () => void;
}) {
  // Drafts: undefined until edited, so the inputs follow the pet when it changes elsewhere.
  const [name, setName] = useState<string>();
  const [categoryId, setCategoryId] = useState<string>();
  const [errors, setErrors] = useState<EditErrors>({});
  const [requestId, setRequestId] = useState<string>();
  const nameInput = useRef<HTMLInputElement>(null);
  const categoryIdInput = useRef<HTMLSelectElement>(null);
  const inputs = { name: nameInput, categoryId: categoryIdInput };
  // Kept as typed, and put back (not sent) after signing in again if the session ends; only what was edited.
  useDraft(
    `edit-pet-${String(pet.id)}`,
    name !== undefined || categoryId !== undefined
      ? { ...(name !== undefined ? { name } : {}), ...(categoryId !== undefined ? { categoryId } : {}) }
      : undefined,
    (draft) => {
      setName(draft.name);
      setCategoryId(draft.categoryId);
    },
    { dropOnClose: true },
  );
  const nameText = name ?? pet.name;
  const categoryIdText = categoryId ?? String(pet.categoryId);

  const show = (found: EditErrors) => {
    setErrors(found);
    const first = editFields.find((field) => found[field]);
    if (first) inputs[first].current?.focus();
  };

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setRequestId(undefined);
    const input = candidate(nameText, categoryIdText);
    const result = petEditSchema.safeParse(input);
    if (!result.success) {
      show(byField(editFields, staffFieldErrors(result.error, input)));
      return; // nothing is sent while the schema refuses it
    }
    setErrors({});
    const patch: PetPatch = {
      ...(result.data.name !== pet.name ? { name: result.data.name } : {}),
      ...(result.data.categoryId !== pet.categoryId ? { categoryId: result.data.categoryId } : {}),
    };
    if (Object.keys(patch).length === 0) {
      onUnchanged();
      return;
    }
    onSave(patch, {
      onSaved: () => {
        setName(undefined);
        setCategoryId(undefined);
      },
      onRefused: (error) => {
        if (!(error instanceof AdminRequestError && error.errors?.length)) return false;
        setRequestId(error.requestId);
        show(byField(editFields, refusedFieldErrors(error.errors)));
        return true;
      },
    });
  }

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      aria-labelledby="edit-pet-title"
      aria-describedby={errors.form ? "edit-form-error" : undefined}
      className="mt-5 space-y-3 border-t border-slate-200 pt-4"
    >
      <h3 id="edit-pet-title" className="text-sm font-semibold">
        Edit name and category
      </h3>
      <NameAndCategoryFields
        prefix="edit-"
        values={{ name: nameText, categoryId: categoryIdText }}
        onChange={(field, value) => (field === "name" ? setName : setCategoryId)(value)}
        errors={errors}
        refs={inputs}
        keepId={pet.categoryId}
      />
      <FormProblems id="edit-form-error" errors={errors} requestId={requestId} requestIdTestId="edit-request-id" />
      <button
        type="submit"
        aria-disabled={busy}
        className={`${button} w-full border-indigo-700 bg-indigo-700 text-white hover:bg-indigo-800`}
      >
        Save changes
      </button>
    </form>
  );
}

function DeletePet({
  title,
  dialog,
  busy,
  deleting,
  onConfirm,
}: {
  title: string;
  dialog: React.RefObject<HTMLDialogElement | null>;
  busy: boolean;
  deleting: boolean;
  onConfirm: () => void;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  const danger = `${button} border-red-700 text-red-800 hover:bg-red-50`;
  return (
    <div className="mt-5 border-t border-slate-200 pt-4">
      <button
        type="button"
        aria-disabled={busy}
        aria-haspopup="dialog"
        onClick={() => {
          if (busy) return;
          dialog.current?.showModal();
          cancel.current?.focus(); // the safe choice first; Escape cancels too
        }}
        className={`${danger} w-full bg-white`}
      >
        Delete this pet…
      </button>
      <dialog
        ref={dialog}
        aria-labelledby="delete-pet-title"
        aria-describedby="delete-pet-text"
        className={
          "m-auto w-[calc(100%-2rem)] max-w-sm rounded-lg bg-white p-5 text-slate-900 shadow-xl " +
          "backdrop:bg-slate-900/50 dark:backdrop:bg-black/70"
        }
      >
        <h2 id="delete-pet-title" className="text-lg font-semibold break-words">
          Delete {title}?
        </h2>
        <p id="delete-pet-text" className="mt-2 text-sm text-slate-700">
          It leaves the catalogue for good, and its id is never given to another pet.
        </p>
        <div className="mt-4 flex flex-wrap justify-end gap-2">
          <button ref={cancel} type="button" onClick={() => dialog.current?.close()} className={plainButton}>
            Cancel
          </button>
          <button
            type="button"
            aria-disabled={deleting}
            onClick={() => !deleting && onConfirm()}
            className={`${button} border-red-700 bg-red-700 text-white hover:bg-red-800`}
          >
            {deleting ? "Deleting…" : "Delete"}
          </button>
        </div>
      </dialog>
    </div>
  );
}
