import type { z } from "zod";
import type { FieldError } from "@/lib/http/errors";
import { staffIssueMessages, staffRefusedField, type StaffMessages } from "@/lib/pets/staff-messages";

// What the add form and a pet's edit form share: reading the inputs' text as the API's members, and putting
// the schema's (or the server's) field errors beside the inputs they name, in staff words
// (lib/pets/staff-messages.ts), not the API's.

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

/**
 * The schema's refusal of `input` as staff messages, by the member (path) each names: a pet's, or another form's
 * with its own table (lib/pets/staff-messages.ts).
 */
export function staffFieldErrors(error: z.ZodError, input: unknown, messages?: StaffMessages): FieldError[] {
  return staffIssueMessages(error.issues, input, messages).map(({ field, message }) => ({ path: field, message }));
}

/**
 * The server's errors[] for what the form's own check passed (an outdated page): which inputs it refused, in staff
 * words. The server's messages are /v1's, for developers; which rule they name is not in the answer.
 */
export function refusedFieldErrors(errors: FieldError[]): FieldError[] {
  return errors.map((error) => ({ path: error.path, message: staffRefusedField(error.path) }));
}
