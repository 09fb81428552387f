import { z } from "zod";
import { int64Schema, smallIntegerSchema } from "@/lib/http/int64";
import { hasVisibleCharacter, NOT_ONLY_INVISIBLE, withoutFormatCharacters } from "@/lib/visible-text";

// The category resource's one set of rules. GET /v1/categories documents and serialises with categorySchema, the
// admin endpoints validate with the body schemas below, the Categories page's forms validate with the same ones (so
// their messages are the server's), and the store keys names with categoryNameKey. A pet's categoryId stays any
// int64 (the /v1 contract defines no category record): a category names an id, it does not make one valid.

export const CATEGORY_NAME_MAX_LENGTH = 100;

/** A category's name as it is sent: trimmed first, then 1 to 100 characters, no control characters. */
export const categoryNameSchema = z
  .string({ error: (issue) => (issue.input === undefined ? "name is required" : "name must be a string") })
  .trim()
  // Each refinement names its rule (params.rule), which the Categories page's staff message is keyed on
  // (lib/pets/staff-messages.ts); the message is the endpoints'.
  .refine((name) => name.length > 0, { message: "name must not be empty", params: { rule: "not_blank" } })
  .refine((name) => name.length === 0 || hasVisibleCharacter(name), {
    message: `name ${NOT_ONLY_INVISIBLE}`,
    params: { rule: "visible" },
  })
  .refine((name) => [...name].length <= CATEGORY_NAME_MAX_LENGTH, {
    message: `name must be at most ${CATEGORY_NAME_MAX_LENGTH} characters`,
    params: { rule: "max_characters" },
  })
  // Lone surrogates cannot be stored as UTF-8, and control characters have no place in a name.
  .refine(
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    (name) => name.isWellFormed() && !/[\u0000-\u001f\u007f-\u009f]/.test(name),
    { message: "name must be text without control characters", params: { rule: "plain_text" } },
  )
  .meta({
    description:
      `The category's name: 1 to ${CATEGORY_NAME_MAX_LENGTH} characters after trimming, no control characters, ` +
      "at least one visible character, unique ignoring case and invisible or format characters.",
    examples: ["Dogs"],
  });

/** A category as GET /v1/categories and the admin endpoints write it. */
export const categorySchema = z
  .object({
    id: int64Schema("id").meta({
      description: "The categoryId that pets of this category carry.",
      examples: [1],
    }),
    name: categoryNameSchema,
  })
  .meta({
    id: "Category",
    description:
      "The name of a categoryId. A pet may carry a categoryId that no category names: the list holds only the " +
      "named ones.",
  });
export type Category = z.output<typeof categorySchema>;

/** A row of the Categories page: a named category, or an id pets carry without a name (name null), with its pets. */
export const categoryListingSchema = z.object({
  id: categorySchema.shape.id,
  name: z.string().nullable(),
  pets: smallIntegerSchema,
});
export type CategoryListing = z.output<typeof categoryListingSchema>;

/** The answer of renaming a category: `renamed` is false when the name was already that. */
export const categoryRenamedSchema = z.object({ category: categorySchema, renamed: z.boolean() });

const strict = {
  error: (issue: { code: string }) =>
    issue.code === "unrecognized_keys" ? undefined : "the body must be a JSON object",
};

/**
 * The body of adding a category (admins, in the admin app): its name, and the id to name. Without an id the
 * category gets the first id after the largest named one that no pet carries (lib/categories/store.ts); with one,
 * that id is named (an id pets already carry without a name, typically).
 */
export const newCategorySchema = z.strictObject(
  { id: categorySchema.shape.id.optional(), name: categoryNameSchema },
  strict,
);
export type NewCategory = z.output<typeof newCategorySchema>;

/** The body of renaming a category. */
export const categoryRenameSchema = z.strictObject({ name: categoryNameSchema }, strict);

/**
 * What makes two names the same name: without format and other default-ignorable characters (so "Dogs" and "Dogs"
 * followed by a zero-width space, or with a soft hyphen inside, are one name; lib/visible-text.ts), trimmed,
 * NFKC-normalised (a composed "é" and "e" with a combining accent, or a full-width "Ｄ" and "D", are one name) and
 * case-folded (upper then lower case, so "STRASSE" and "straße" match). Computed here, not by either database, so
 * both refuse exactly the same duplicates. Stored in name_key: when this changes, rekeyCategoryNames (store.ts)
 * brings the stored keys up to date at start-up.
 */
export function categoryNameKey(name: string): string {
  return withoutFormatCharacters(name).trim().normalize("NFKC").toUpperCase().toLowerCase();
}

/** The order categories are listed in: by name key, code point by code point (the same everywhere), then by id. */
export function compareCategories(a: Category, b: Category): number {
  const left = [...categoryNameKey(a.name)].map((char) => char.codePointAt(0)!);
  const right = [...categoryNameKey(b.name)].map((char) => char.codePointAt(0)!);
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    if (left[index] !== right[index]) return left[index] - right[index];
  }
  if (left.length !== right.length) return left.length - right.length;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** How the admin app names a categoryId no category names: "Unnamed (17)". */
export function unnamedCategoryLabel(id: bigint | string): string {
  return `Unnamed (${String(id)})`;
}

/** A categoryId as the admin app shows it: the category's name, or "Unnamed (17)". */
export function categoryLabel(id: bigint, names: ReadonlyMap<string, string> | undefined): string {
  return names?.get(String(id)) ?? unnamedCategoryLabel(id);
}
