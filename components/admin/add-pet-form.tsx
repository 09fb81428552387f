"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import {
  describedBy,
  FieldMessage,
  focusRing,
  FormProblems,
  inputClass,
  NameAndCategoryFields,
} from "@/components/admin/form-fields";
import { AdminRequestError, addPet, newIdempotencyKey } from "@/lib/client/admin-api";
import { byField, candidate, type FormErrors } from "@/lib/client/pet-form";
import { stringifyJson } from "@/lib/http/json";
import { fieldErrors } from "@/lib/http/validation";
import { newPetSchema, petStatuses, type NewPet, type Pet } from "@/lib/pets/schema";

const fields = ["name", "categoryId", "status"] as const;
type Errors = FormErrors<(typeof fields)[number]>;

/** Adding a pet: validated in the browser by the API's own schema, then sent through the admin endpoint. */
export function AddPetForm() {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [categoryId, setCategoryId] = useState("");
  const [status, setStatus] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [added, setAdded] = useState<Pet>();
  const [requestId, setRequestId] = useState<string>();
  const nameInput = useRef<HTMLInputElement>(null);
  const categoryIdInput = useRef<HTMLSelectElement>(null);
  const statusInput = useRef<HTMLSelectElement>(null);
  // One Idempotency-Key per pet being added: a retry or a second click sends the same one, so the server adds the
  // pet once; a new key is taken once it is added, or when what is being sent changes.
  const attempt = useRef<{ key: string; body: string }>(null);
  const inputs = { name: nameInput, categoryId: categoryIdInput, status: statusInput };

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
      setAdded(pet);
      setName("");
      setCategoryId("");
      setStatus("");
      await queryClient.invalidateQueries({ queryKey: ["pets"] }); // the list refetches; no page reload
    },
    onError: (error) => {
      const found: Errors =
        error instanceof AdminRequestError && error.errors?.length
          ? byField(fields, error.errors)
          : { form: [error.message] };
      setErrors(found);
      setRequestId(error instanceof AdminRequestError ? error.requestId : undefined);
      focusFirstError(found);
    },
  });

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setAdded(undefined);
    setRequestId(undefined);
    const result = newPetSchema.safeParse(candidate(name, categoryId, status));
    if (!result.success) {
      const found = byField(fields, fieldErrors(result.error));
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
        <button
          type="submit"
          disabled={mutation.isPending}
          className={
            "min-h-11 w-full rounded-md bg-indigo-700 px-4 py-2 font-medium text-white " +
            "hover:bg-indigo-800 disabled:opacity-60 " +
            focusRing
          }
        >
          {mutation.isPending ? "Adding…" : "Add pet"}
        </button>
        <p role="status" className="text-sm text-emerald-800">
          {added ? `Added “${added.name}” with id ${String(added.id)}.` : ""}
        </p>
      </form>
    </section>
  );
}
