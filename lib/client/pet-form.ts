import type { FieldError } from "@/lib/http/errors";

// What the add form and a pet's edit form share: reading the inputs' text as the API's members, and putting
// the schema's (or the server's) field errors beside the inputs they name.

/** Messages by input; `form` holds what names no input of this form. */
export type FormErrors<F extends string> = Partial<Record<F | "form", string[]>>;

/** A category id as typed: an integer literal becomes a bigint, anything else stays text for the schema to name. */
export function categoryIdValue(text: string): bigint | string | undefined {
  const category = text.trim();
  return category === "" ? undefined : /^-?[0-9]+$/.test(category) ? BigInt(category) : category;
}

/** The form's text as the pet members the API takes, for a schema to check. */
export function candidate(name: string, categoryId: string, status = ""): Record<string, unknown> {
  return { name, categoryId: categoryIdValue(categoryId), ...(status ? { status } : {}) };
}

/** Field errors (the schema's or the server's errors[]) by input; what names no input goes to the form. */
export function byField<F extends string>(fields: readonly F[], errors: FieldError[]): FormErrors<F> {
  const grouped: FormErrors<F> = {};
  for (const error of errors) {
    const field = (fields as readonly string[]).includes(error.path) ? (error.path as F) : "form";
    (grouped[field] ??= []).push(field === "form" && error.path ? `${error.path}: ${error.message}` : error.message);
  }
  return grouped;
}
