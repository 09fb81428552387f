import Link from "next/link";
import type { Ref } from "react";
import { Alert } from "@/components/ui/alert";
import { describedBy, FieldMessage, inputClass, TextField } from "@/components/ui/field";
import { focusRing } from "@/components/ui/focus-ring";
import { unnamedCategoryLabel } from "@/lib/categories/schema";
import { useCategories } from "@/lib/client/categories-api";

// The pieces of the admin app's forms that only it has: a pet's name input and category select with their
// messages, a form's problems and a failed request's id. The generic parts (a labelled field, an alert, buttons)
// are in components/ui/.

type PetField = "name" | "categoryId";

/**
 * A pet's name input and category select, as the add form and a pet's edit form both show them. The select offers
 * the named categories, sorted by name; `keepId` (a pet's current category) is offered too when no category names
 * it, as "Unnamed (17)", so editing the name alone keeps it. No number can be typed: an id gets a name on the
 * Categories page first.
 */
export function NameAndCategoryFields({
  prefix,
  values,
  onChange,
  errors,
  refs: { name: nameRef, categoryId: categoryRef },
  keepId,
}: {
  /** Put before every id, so two forms can be on one page; "" for the add form. */
  prefix: string;
  values: Record<PetField, string>;
  onChange: (field: PetField, value: string) => void;
  errors: Partial<Record<PetField, string[]>>;
  refs: { name: Ref<HTMLInputElement>; categoryId: Ref<HTMLSelectElement> };
  keepId?: bigint;
}) {
  const categories = useCategories();
  const nameErrors = errors.name;
  const categoryErrors = errors.categoryId;
  const nameErrorId = `${prefix}name-error`;
  const categoryErrorId = `${prefix}categoryId-error`;
  const hintId = `${prefix}category-hint`;
  const kept = keepId !== undefined && categories.names && !categories.names.has(String(keepId)) ? keepId : undefined;
  const hint = categories.isError
    ? `The categories could not be loaded: ${categories.error.message}`
    : categories.data?.length === 0 && kept === undefined
      ? "No category has a name yet: an admin names them on the Categories page."
      : undefined;
  return (
    <>
      <TextField
        id={`${prefix}pet-name`}
        label="Name"
        errors={nameErrors}
        errorId={nameErrorId}
        ref={nameRef}
        name="name"
        value={values.name}
        onChange={(event) => onChange("name", event.target.value)}
        autoComplete="off"
      />
      <div>
        <label htmlFor={`${prefix}pet-category`} className="block text-sm font-medium">
          Category
        </label>
        <select
          id={`${prefix}pet-category`}
          ref={categoryRef}
          name="categoryId"
          value={values.categoryId}
          onChange={(event) => onChange("categoryId", event.target.value)}
          aria-invalid={categoryErrors ? true : undefined}
          aria-describedby={describedBy(hint && hintId, categoryErrors && categoryErrorId)}
          aria-busy={categories.isPending}
          className={inputClass(Boolean(categoryErrors))}
        >
          <option value="">{categories.isPending ? "Loading categories…" : "Choose a category"}</option>
          {categories.data?.map((category) => (
            <option key={String(category.id)} value={String(category.id)}>
              {category.name}
            </option>
          ))}
          {kept !== undefined ? <option value={String(kept)}>{unnamedCategoryLabel(kept)}</option> : null}
          {/* While the names load, the pet's own id stays selectable, so the value is never lost. */}
          {categories.isPending && values.categoryId ? (
            <option value={values.categoryId}>{values.categoryId}</option>
          ) : null}
        </select>
        {hint ? (
          <p id={hintId} className="mt-1 text-xs text-slate-600">
            {hint}{" "}
            {categories.isError ? null : (
              <Link href="/admin/categories" className={`font-medium text-indigo-800 underline ${focusRing}`}>
                Categories
              </Link>
            )}
          </p>
        ) : null}
        <FieldMessage id={categoryErrorId} messages={categoryErrors} />
      </div>
    </>
  );
}

/**
 * A form's problems that name no input, as an alert, and the refused request's id while any error shows (field
 * errors from the server included).
 */
export function FormProblems({
  id,
  errors,
  requestId,
  requestIdTestId,
}: {
  id: string;
  errors: { form?: string[] };
  requestId?: string;
  requestIdTestId: string;
}) {
  return (
    <>
      <FormAlert id={id} messages={errors.form} />
      {requestId && Object.keys(errors).length > 0 ? (
        <RequestId id={requestId} testId={requestIdTestId} className="text-slate-600" />
      ) : null}
    </>
  );
}

/** What names no input of a form (a failed request's message), as an alert. */
function FormAlert({ id, messages }: { id: string; messages?: string[] }) {
  if (!messages) return null;
  return (
    <Alert id={id}>
      {messages.map((message) => (
        <p key={message}>{message}</p>
      ))}
    </Alert>
  );
}

/** A failed request's id, to quote when asking for help. */
export function RequestId({ id, testId, className = "" }: { id: string; testId?: string; className?: string }) {
  return (
    <p className={`text-xs ${className}`}>
      Request id:{" "}
      <code className="font-mono select-all" data-testid={testId}>
        {id}
      </code>
    </p>
  );
}
