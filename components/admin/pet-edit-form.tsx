"use client";

import { useEffect, useRef, useState } from "react";
import { z } from "zod";
import { FormProblems, NameAndCategoryFields } from "@/components/admin/form-fields";
import { useDraft } from "@/components/admin/session-ended";
import type { RunOptions } from "@/components/admin/use-pet-panel";
import { Button } from "@/components/ui/button";
import { AdminRequestError } from "@/lib/client/admin-api";
import { byField, candidate, refusedFieldErrors, staffFieldErrors, type FormErrors } from "@/lib/client/pet-form";
import { petPatchSchema, type Pet, type PetPatch } from "@/lib/pets/schema";

const editFields = ["name", "categoryId"] as const;
type EditErrors = FormErrors<(typeof editFields)[number]>;

// The edit form shows both members, so one left blank is missing (the add form's "is required"), not "unchanged":
// the patch schema's own members, required (zod's .required() would replace their messages with its own).
const petEditSchema = z.strictObject({
  name: petPatchSchema.shape.name.unwrap(),
  categoryId: petPatchSchema.shape.categoryId.unwrap(),
});

/** A pet's name and category as typed: undefined until edited, so the inputs follow the pet when it changes. */
function useEditDraft(pet: Pet) {
  const [name, setName] = useState<string>();
  const [categoryId, setCategoryId] = useState<string>();
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
  const clear = () => {
    setName(undefined);
    setCategoryId(undefined);
  };
  return {
    name: name ?? pet.name,
    categoryId: categoryId ?? String(pet.categoryId),
    edited: name !== undefined || categoryId !== undefined,
    setName,
    setCategoryId,
    clear,
  };
}

/** What changed from the pet, as a patch: only the members that differ. */
function patchOf(pet: Pet, edited: { name: string; categoryId: bigint }): PetPatch {
  return {
    ...(edited.name !== pet.name ? { name: edited.name } : {}),
    ...(edited.categoryId !== pet.categoryId ? { categoryId: edited.categoryId } : {}),
  };
}

export function EditPetForm({
  pet,
  busy,
  onSave,
  onUnchanged,
  onEditing,
}: {
  pet: Pet;
  busy: boolean;
  onSave: (patch: PetPatch, options: RunOptions) => void;
  onUnchanged: () => void;
  /** Whether the form holds values typed and not saved (the panel then tells of a colleague's change instead). */
  onEditing?: (editing: boolean) => void;
}) {
  const draft = useEditDraft(pet);
  useEffect(() => onEditing?.(draft.edited), [draft.edited, onEditing]);
  const [errors, setErrors] = useState<EditErrors>({});
  const [requestId, setRequestId] = useState<string>();
  const nameInput = useRef<HTMLInputElement>(null);
  const categoryIdInput = useRef<HTMLSelectElement>(null);
  const inputs = { name: nameInput, categoryId: categoryIdInput };

  const show = (found: EditErrors) => {
    setErrors(found);
    const first = editFields.find((field) => found[field]);
    if (first) inputs[first].current?.focus();
  };

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setRequestId(undefined);
    const input = candidate(draft.name, draft.categoryId);
    const result = petEditSchema.safeParse(input);
    if (!result.success) return show(byField(editFields, staffFieldErrors(result.error, input))); // nothing is sent
    setErrors({});
    const patch = patchOf(pet, result.data);
    if (Object.keys(patch).length === 0) return onUnchanged();
    onSave(patch, {
      onSaved: draft.clear,
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
        values={{ name: draft.name, categoryId: draft.categoryId }}
        onChange={(field, value) => (field === "name" ? draft.setName : draft.setCategoryId)(value)}
        errors={errors}
        refs={inputs}
        keepId={pet.categoryId}
      />
      <FormProblems id="edit-form-error" errors={errors} requestId={requestId} requestIdTestId="edit-request-id" />
      <Button type="submit" variant="primary" aria-disabled={busy} className="w-full">
        Save changes
      </Button>
    </form>
  );
}
