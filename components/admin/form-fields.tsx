import type { Ref } from "react";

// The pieces of the admin app's forms that look and behave the same everywhere: the focus ring, an input's
// border (red while it has an error), and a pet's name and category id inputs with their hint and messages.

export const focusRing = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600";

export function inputClass(invalid: boolean): string {
  return (
    `mt-1 block min-h-11 w-full rounded-md border bg-white px-3 py-2 ${focusRing} ` +
    (invalid ? "border-red-600" : "border-slate-300")
  );
}

/** An input's aria-describedby: its hint, then its error message while it has one. */
export function describedBy(...ids: (string | false | undefined)[]): string | undefined {
  return ids.filter(Boolean).join(" ") || undefined;
}

export function FieldMessage({ id, messages }: { id: string; messages?: string[] }) {
  if (!messages) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-700">
      {messages.join("; ")}
    </p>
  );
}

type PetField = "name" | "categoryId";

/** The inputs' ids (the add form's, unprefixed, are the ones its specs know) and what each says. */
const petFields: { field: PetField; inputId: string; label: string; hint?: { id: string; text: string } }[] = [
  { field: "name", inputId: "pet-name", label: "Name" },
  {
    field: "categoryId",
    inputId: "pet-category",
    label: "Category id",
    hint: {
      id: "category-hint",
      text: "A whole number, e.g. 1 dogs, 2 cats, 3 birds, 4 fish, 5 reptiles, 6 small mammals.",
    },
  },
];

/** A pet's name and category id inputs, as the add form and a pet's edit form both show them. */
export function NameAndCategoryFields({
  prefix,
  values,
  onChange,
  errors,
  refs,
}: {
  /** Put before every id, so two forms can be on one page; "" for the add form. */
  prefix: string;
  values: Record<PetField, string>;
  onChange: (field: PetField, value: string) => void;
  errors: Partial<Record<PetField, string[]>>;
  refs: Record<PetField, Ref<HTMLInputElement>>;
}) {
  return petFields.map(({ field, inputId, label, hint }) => {
    const messages = errors[field];
    const errorId = `${prefix}${field}-error`;
    const hintId = hint && `${prefix}${hint.id}`;
    return (
      <div key={field}>
        <label htmlFor={`${prefix}${inputId}`} className="block text-sm font-medium">
          {label}
        </label>
        <input
          id={`${prefix}${inputId}`}
          ref={refs[field]}
          name={field}
          inputMode={field === "categoryId" ? "numeric" : undefined}
          value={values[field]}
          onChange={(event) => onChange(field, event.target.value)}
          aria-invalid={messages ? true : undefined}
          aria-describedby={describedBy(hintId, messages && errorId)}
          autoComplete="off"
          className={inputClass(Boolean(messages))}
        />
        {hint ? (
          <p id={hintId} className="mt-1 text-xs text-slate-600">
            {hint.text}
          </p>
        ) : null}
        <FieldMessage id={errorId} messages={messages} />
      </div>
    );
  });
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
    <div id={id} role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
      {messages.map((message) => (
        <p key={message}>{message}</p>
      ))}
    </div>
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
