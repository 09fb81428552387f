import type { ComponentProps, ReactNode } from "react";
import { focusRing } from "@/components/ui/focus-ring";

// A labelled input with its hint and its error, wired for assistive technology: the label names it, the hint and
// then the error describe it (aria-describedby), and aria-invalid marks it while it has an error.

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

/** A field's error, under it. */
export function FieldMessage({ id, messages }: { id: string; messages?: string[] }) {
  if (!messages) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-700">
      {messages.join("; ")}
    </p>
  );
}

/** A field's hint, under it. */
export function FieldHint({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="mt-1 text-xs text-slate-600">
      {children}
    </p>
  );
}

export function TextField({
  id,
  label,
  hint,
  errors,
  hintId = `${id}-hint`,
  errorId = `${id}-error`,
  inputClassName = "",
  beside,
  ...input
}: Omit<ComponentProps<"input">, "id" | "className" | "aria-invalid" | "aria-describedby"> & {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  errors?: string[];
  hintId?: string;
  errorId?: string;
  /** Added to the input's own classes (e.g. font-mono). */
  inputClassName?: string;
  /** A control beside the input, such as a Generate or Copy button. */
  beside?: ReactNode;
}) {
  const field = (
    <input
      id={id}
      aria-invalid={errors ? true : undefined}
      aria-describedby={describedBy(hint !== undefined && hintId, errors && errorId)}
      className={`${inputClass(Boolean(errors))} ${inputClassName}`.trim()}
      {...input}
    />
  );
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {beside ? (
        <div className="flex gap-2">
          {field}
          {beside}
        </div>
      ) : (
        field
      )}
      {hint !== undefined ? <FieldHint id={hintId}>{hint}</FieldHint> : null}
      <FieldMessage id={errorId} messages={errors} />
    </div>
  );
}
