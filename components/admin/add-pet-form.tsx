"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { FormProblems, NameAndCategoryFields } from "@/components/admin/form-fields";
import { describedBy, FieldMessage, inputClass } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { useCatalogueNavigation } from "@/components/admin/catalogue-navigation";
import { useNotifications } from "@/components/admin/notifications";
import { useDraft } from "@/components/admin/session-ended";
import { AdminRequestError, addPet, isSessionEnded, newIdempotencyKey } from "@/lib/client/admin-api";
import { newPetHref } from "@/lib/client/catalogue-view";
import { byField, candidate, refusedFieldErrors, staffFieldErrors, type FormErrors } from "@/lib/client/pet-form";
import { stringifyJson } from "@/lib/http/json";
import { newPetSchema, petStatuses, type NewPet } from "@/lib/pets/schema";
import { staffErrorMessage } from "@/lib/pets/staff-messages";

const fields = ["name", "categoryId", "status"] as const;
type Errors = FormErrors<(typeof fields)[number]>;

/** Moves the focus to the add form's first field, which scrolls it into view. */
export function focusAddPetForm(): void {
  document.getElementById(ADD_PET_FIRST_FIELD)?.focus();
}

/**
 * "Add a pet", by the catalogue's heading: on a phone, where the add form is below the table, it moves the focus to
 * the form's first field; while a pet is open (whose panel has the form's place), `onAdd` closes it first. Not
 * shown where the form is beside the table already.
 */
export function AddPetShortcut({ onAdd }: { onAdd?: () => void }) {
  return (
    <Button variant="primary" onClick={onAdd ?? focusAddPetForm} className={`shrink-0 ${onAdd ? "" : "lg:hidden"}`}>
      Add a pet
    </Button>
  );
}

/** The add form's name input. */
const ADD_PET_FIRST_FIELD = "pet-name";

/** Adding a pet: validated in the browser by the API's own schema, then sent through the admin endpoint. */
export function AddPetForm() {
  const queryClient = useQueryClient();
  const { notify } = useNotifications();
  const { view } = useCatalogueNavigation();
  const [name, setName] = useState("");
  const [categoryId, setCategoryId] = useState("");
  const [status, setStatus] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [requestId, setRequestId] = useState<string>();
  const nameInput = useRef<HTMLInputElement>(null);
  const categoryIdInput = useRef<HTMLSelectElement>(null);
  const statusInput = useRef<HTMLSelectElement>(null);
  // One Idempotency-Key per pet being added: a retry or a second click sends the same one, so the server adds the
  // pet once; a new key is taken once it is added, or when what is being sent changes.
  const attempt = useRef<{ key: string; body: string }>(null);
  const inputs = { name: nameInput, categoryId: categoryIdInput, status: statusInput };
  // Kept as typed, and put back (not sent) after signing in again if the session ends.
  useDraft("add-pet", name || categoryId || status ? { name, categoryId, status } : undefined, (draft) => {
    setName(draft.name ?? "");
    setCategoryId(draft.categoryId ?? "");
    setStatus(draft.status ?? "");
  });

  const focusFirstError = (found: Errors) => {
    const first = fields.find((field) => found[field]);
    if (first) inputs[first].current?.focus();
  };

  const mutation = useMutation({
    mutationFn: (pet: NewPet) => {
      const body = stringifyJson(pet);
      if (attempt.current?.body !== body) attempt.current = { key: newIdempotencyKey(), body };
      return addPet(pet, attempt.current.key);
    },
    onSuccess: async ({ pet }) => {
      attempt.current = null;
      setName("");
      setCategoryId("");
      setStatus("");
      // Ready for the next pet; the notification says where this one is, with a link to it (the next Tab from
      // the form's button reaches it: the notifications follow the page's content).
      nameInput.current?.focus();
      const id = String(pet.id);
      notify({
        kind: "success",
        key: `pet-${id}`,
        message: `Added “${pet.name}” with id ${id}.`,
        link: { href: newPetHref(view, id), label: `Open ${pet.name}` },
      });
      await queryClient.invalidateQueries({ queryKey: ["pets"] }); // the list refetches; no page reload
    },
    onError: (error) => {
      if (isSessionEnded(error)) return; // the session-ended dialog says so; the values stay
      const found: Errors =
        error instanceof AdminRequestError && error.errors?.length
          ? byField(fields, refusedFieldErrors(error.errors))
          : { form: [error instanceof AdminRequestError ? staffErrorMessage(error) : error.message] };
      setErrors(found);
      setRequestId(error instanceof AdminRequestError ? error.requestId : undefined);
      focusFirstError(found);
    },
  });

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (mutation.isPending) return;
    setRequestId(undefined);
    const input = candidate(name, categoryId, status);
    const result = newPetSchema.safeParse(input);
    if (!result.success) {
      const found = byField(fields, staffFieldErrors(result.error, input));
      setErrors(found);
      focusFirstError(found);
      return; // nothing is sent while the schema refuses it
    }
    setErrors({});
    mutation.mutate(result.data);
  }

  return (
    <section aria-labelledby="add-pet-title" className="h-fit rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="add-pet-title" className="text-lg font-semibold">
        Add a pet
      </h2>
      <form
        noValidate
        onSubmit={onSubmit}
        className="mt-3 space-y-4"
        aria-describedby={errors.form ? "form-error" : undefined}
      >
        <NameAndCategoryFields
          prefix=""
          values={{ name, categoryId }}
          onChange={(field, value) => (field === "name" ? setName : setCategoryId)(value)}
          errors={errors}
          refs={inputs}
        />
        <div>
          <label htmlFor="pet-status" className="block text-sm font-medium">
            Status <span className="font-normal text-slate-600">(optional)</span>
          </label>
          <select
            id="pet-status"
            ref={statusInput}
            name="status"
            value={status}
            onChange={(event) => setStatus(event.target.value)}
            aria-invalid={errors.status ? true : undefined}
            aria-describedby={describedBy(errors.status && "status-error")}
            className={inputClass(Boolean(errors.status))}
          >
            <option value="">No status</option>
            {petStatuses.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
          <FieldMessage id="status-error" messages={errors.status} />
        </div>
        <FormProblems id="form-error" errors={errors} requestId={requestId} requestIdTestId="form-request-id" />
        {/* aria-disabled, not disabled: the button keeps the keyboard focus while the pet is sent. */}
        <Button type="submit" variant="primary" size="large" aria-disabled={mutation.isPending} className="w-full">
          {mutation.isPending ? "Adding…" : "Add pet"}
        </Button>
      </form>
    </section>
  );
}
