"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { AdminRequestError, addPet } from "@/lib/client/admin-api";
import type { FieldError } from "@/lib/http/errors";
import { fieldErrors } from "@/lib/http/validation";
import { newPetSchema, petStatuses, type NewPet, type Pet } from "@/lib/pets/schema";

const fields = ["name", "categoryId", "status"] as const;
type Field = (typeof fields)[number];
type Errors = Partial<Record<Field | "form", string[]>>;

const focusRing = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600";

/**
 * The form's text as the NewPet the API takes: an integer literal becomes a bigint, anything else stays text for the
 * schema to name.
 */
function candidate(name: string, categoryId: string, status: string): Record<string, unknown> {
  const category = categoryId.trim();
  return {
    name,
    categoryId: category === "" ? undefined : /^-?[0-9]+$/.test(category) ? BigInt(category) : category,
    ...(status ? { status } : {}),
  };
}

/** Field errors (the schema's or the server's errors[]) by input; what names no input goes to the form. */
function byField(errors: FieldError[]): Errors {
  const grouped: Errors = {};
  for (const error of errors) {
    const field = (fields as readonly string[]).includes(error.path) ? (error.path as Field) : "form";
    (grouped[field] ??= []).push(field === "form" && error.path ? `${error.path}: ${error.message}` : error.message);
  }
  return grouped;
}

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
  const categoryIdInput = useRef<HTMLInputElement>(null);
  const statusInput = useRef<HTMLSelectElement>(null);
  const inputs = { name: nameInput, categoryId: categoryIdInput, status: statusInput };

  const focusFirstError = (found: Errors) => {
    const first = fields.find((field) => found[field]);
    if (first) inputs[first].current?.focus();
  };

  const mutation = useMutation({
    mutationFn: (pet: NewPet) => addPet(pet),
    onSuccess: async (pet) => {
      setAdded(pet);
      setName("");
      setCategoryId("");
      setStatus("");
      await queryClient.invalidateQueries({ queryKey: ["pets"] }); // the list refetches; no page reload
    },
    onError: (error) => {
      const found: Errors =
        error instanceof AdminRequestError && error.errors?.length ? byField(error.errors) : { form: [error.message] };
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
      const found = byField(fieldErrors(result.error));
      setErrors(found);
      focusFirstError(found);
      return; // nothing is sent while the schema refuses it
    }
    setErrors({});
    mutation.mutate(result.data);
  }

  const describedBy = (field: Field, hint?: string) =>
    [hint, errors[field] ? `${field}-error` : undefined].filter(Boolean).join(" ") || undefined;
  const inputStyle = (field: Field) =>
    `mt-1 block w-full rounded-md border bg-white px-3 py-2 ${focusRing} ` +
    `${errors[field] ? "border-red-600" : "border-slate-300"}`;

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
        <div>
          <label htmlFor="pet-name" className="block text-sm font-medium">
            Name
          </label>
          <input
            id="pet-name"
            ref={nameInput}
            name="name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={describedBy("name")}
            autoComplete="off"
            className={inputStyle("name")}
          />
          <FieldMessage id="name-error" messages={errors.name} />
        </div>
        <div>
          <label htmlFor="pet-category" className="block text-sm font-medium">
            Category id
          </label>
          <input
            id="pet-category"
            ref={categoryIdInput}
            name="categoryId"
            inputMode="numeric"
            value={categoryId}
            onChange={(event) => setCategoryId(event.target.value)}
            aria-invalid={errors.categoryId ? true : undefined}
            aria-describedby={describedBy("categoryId", "category-hint")}
            autoComplete="off"
            className={inputStyle("categoryId")}
          />
          <p id="category-hint" className="mt-1 text-xs text-slate-600">
            A whole number, e.g. 1 dogs, 2 cats, 3 birds, 4 fish, 5 reptiles, 6 small mammals.
          </p>
          <FieldMessage id="categoryId-error" messages={errors.categoryId} />
        </div>
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
            aria-describedby={describedBy("status")}
            className={inputStyle("status")}
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
        {errors.form ? (
          <div
            id="form-error"
            role="alert"
            className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900"
          >
            {errors.form.map((message) => (
              <p key={message}>{message}</p>
            ))}
          </div>
        ) : null}
        {requestId && Object.keys(errors).length > 0 ? (
          <p className="text-xs text-slate-600">
            Request id:{" "}
            <code className="font-mono select-all" data-testid="form-request-id">
              {requestId}
            </code>
          </p>
        ) : null}
        <button
          type="submit"
          disabled={mutation.isPending}
          className={
            "w-full rounded-md bg-indigo-700 px-4 py-2 font-medium text-white " +
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

function FieldMessage({ id, messages }: { id: string; messages?: string[] }) {
  if (!messages) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-700">
      {messages.join("; ")}
    </p>
  );
}
