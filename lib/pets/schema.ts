import { z } from "zod";
import { int64Schema, INT64_MAX, INT64_MIN, positiveInt64Text, smallIntegerSchema } from "@/lib/http/int64";
import { hasVisibleCharacter, NOT_ONLY_INVISIBLE } from "@/lib/visible-text";

// The pet resource's one set of rules. The /v1 handlers validate with these, the admin form validates
// with these (so its messages are the API's), lib/v1/openapi.ts documents them, the types are inferred
// from them, and the serialiser and the database columns (lib/pets/json.ts, store.ts) follow petSchema.

export const petStatuses = ["available", "pending", "sold"] as const;
export const petStatusSchema = z.enum(petStatuses, { error: `must be one of ${petStatuses.join(", ")}` }).meta({
  id: "PetStatus",
  description:
    "Availability of a pet. Any status may follow any other (a sold pet may be made available again), " +
    "and a pet may have none.",
});
export type PetStatus = z.infer<typeof petStatusSchema>;

export const NAME_MAX_LENGTH = 200;

export const petNameSchema = z
  .string({ error: (issue) => (issue.input === undefined ? "name is required" : "name must be a string") })
  // Each refinement names its rule (params.rule): the admin's staff messages are keyed on it
  // (lib/pets/staff-messages.ts), never on the message, which is /v1's.
  .refine((name) => name.trim().length > 0, { message: "name must not be empty", params: { rule: "not_blank" } })
  // Not blank, and not only invisible either: a zero-width space or a right-to-left override alone shows nothing.
  .refine((name) => name.trim().length === 0 || hasVisibleCharacter(name), {
    message: `name ${NOT_ONLY_INVISIBLE}`,
    params: { rule: "visible" },
  })
  .refine((name) => [...name].length <= NAME_MAX_LENGTH, {
    message: `name must be at most ${NAME_MAX_LENGTH} characters`,
    params: { rule: "max_characters" },
  })
  // Lone surrogates cannot be stored as UTF-8, and control characters have no place in a name.
  .refine(
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    (name) => name.isWellFormed() && !/[\u0000-\u001f\u007f]/.test(name),
    { message: "name must be text without control characters", params: { rule: "plain_text" } },
  )
  .meta({
    description:
      `The pet's name: 1 to ${NAME_MAX_LENGTH} characters, not blank: at least one visible character (spaces, ` +
      "zero-width and other invisible or format characters alone are refused).",
    examples: ["Rex"],
  });

/**
 * A pet: the one place its members are written. The types, the request schema, the serialiser and the database
 * columns follow it.
 */
export const petSchema = z
  .object({
    id: int64Schema("id").meta({ description: "Assigned by the service when the pet is added.", examples: [1] }),
    name: petNameSchema,
    categoryId: int64Schema("categoryId").meta({
      description: "Identifier of the category the pet belongs to.",
      examples: [1],
    }),
    status: petStatusSchema.optional(),
  })
  .meta({ id: "Pet", description: "A pet in the catalogue." });
/** A pet as the API returns it. `status` is absent, never null, when the pet has none. */
export type Pet = z.output<typeof petSchema>;

/** The body of createPet: a pet without its id, and nothing else. */
export const newPetSchema = z
  .strictObject(petSchema.omit({ id: true }).shape, {
    error: (issue) => (issue.code === "unrecognized_keys" ? undefined : "the body must be a JSON object"),
  })
  .meta({ id: "NewPet", description: "A pet to add. Members other than these are refused." });
export type NewPet = z.infer<typeof newPetSchema>;

/**
 * The body of updatePet: a JSON Merge Patch (RFC 7396) of the pet's members. A member that is present is set,
 * validated exactly as createPet validates it; `"status": null` removes the status; `name` and `categoryId`
 * cannot be removed, so `null` for them is refused, as are `id` and any unknown member. `{}` changes nothing.
 */
export const petPatchSchema = z
  .strictObject(
    {
      name: petNameSchema.optional(),
      categoryId: petSchema.shape.categoryId.optional(),
      status: petStatusSchema.nullable().optional(),
    },
    { error: (issue) => (issue.code === "unrecognized_keys" ? undefined : "the body must be a JSON object") },
  )
  .meta({
    id: "PetPatch",
    description:
      "Changes to a pet, as a JSON Merge Patch (RFC 7396): members left out stay as they are, " +
      '`"status": null` removes the status. `id` and unknown members are refused.',
  });
export type PetPatch = z.infer<typeof petPatchSchema>;

/** The members of a pet, in the order the API writes them. */
export const petMembers = Object.keys(petSchema.shape) as (keyof Pet)[];

export const LIST_LIMIT_DEFAULT = 20;
export const LIST_LIMIT_MAX = 100;
export const SEARCH_MAX_LENGTH = 100;

/** A name fragment to search for: what a name contains, ignoring case. */
export const petSearchSchema = z
  .string()
  .refine((q) => q.length > 0 && [...q].length <= SEARCH_MAX_LENGTH, `q must be 1 to ${SEARCH_MAX_LENGTH} characters`)
  .meta({ minLength: 1, maxLength: SEARCH_MAX_LENGTH })
  // No name contains a control character (petNameSchema), and PostgreSQL refuses a NUL in a parameter.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  .refine((q) => !/[\u0000-\u001f\u007f]/.test(q), "q must be text without control characters");

/**
 * listPets' orders, as JSON:API writes a sort: a member's name, ascending, or with `-` in front, descending.
 * `id` is the order of adding (oldest first), `-id` newest first; `name` ignores the case of ASCII letters and
 * compares other characters by code point, the same on both databases. `status` is available, pending, sold,
 * then the pets without a status; `category` is by categoryId, numerically. Ties are broken by id, in the same
 * direction, so every order is total, and each descending order is its ascending one reversed exactly.
 */
export const petSorts = ["id", "-id", "name", "-name", "status", "-status", "category", "-category"] as const;
export const petSortSchema = z.enum(petSorts, { error: `sort must be one of ${petSorts.join(", ")}` }).meta({
  id: "PetSort",
  description:
    "The order of a list of pets: `id` oldest first (the default), `-id` newest first, `name` A to Z, `-name` " +
    "Z to A, `status` available, pending, sold and then the pets without a status (`-status` the reverse: those " +
    "without first), `category` by categoryId, smallest first (`-category` largest first). Names compare ignoring " +
    "the case of ASCII letters, other characters by code point. Pets with the same name, status or categoryId " +
    "follow in id order (descending for a descending order).",
});
export type PetSort = z.infer<typeof petSortSchema>;

/** A list's `limit`: 1 to LIST_LIMIT_MAX, LIST_LIMIT_DEFAULT when absent; `what` the list holds, for its docs. */
export function listLimitSchema(what: string) {
  const message = `limit must be an integer from 1 to ${LIST_LIMIT_MAX}`;
  return z
    .string()
    .regex(/^[0-9]+$/, message)
    .pipe(z.coerce.number<string>().int().min(1, message).max(LIST_LIMIT_MAX, message))
    .default(LIST_LIMIT_DEFAULT)
    .meta({ description: `Maximum number of ${what} returned.` });
}

/** A list's `cursor`: what a Link rel="next" carries (decoded and checked by the list's handler). */
export const listCursorSchema = z
  .string()
  .min(1, "cursor must not be empty")
  .optional()
  .meta({
    description:
      'Opaque position from a previous page\'s Link rel="next"; start from the first page without it. A cursor ' +
      "continues only the order it was issued in.",
  });

/** listPets' `status`: a status, or `none` for the pets without one. */
export const petStatusFilters = [...petStatuses, "none"] as const;
export const petStatusFilterSchema = z.enum(petStatusFilters, {
  error: `status must be one of ${petStatusFilters.join(", ")}`,
});
export type PetStatusFilter = z.infer<typeof petStatusFilterSchema>;

/** How many categories one list can be filtered by. */
export const CATEGORY_FILTER_MAX = 20;

/**
 * `categoryId` of listPets, countPets and exportPets: one category id or several, comma-separated (`3,7`), each a
 * decimal int64 as a pet's categoryId may be any, at most CATEGORY_FILTER_MAX of them; repeats count once. The
 * ids come back ascending. One parameter rather than a repeated one: every list refuses a parameter given twice.
 */
export const categoryFilterSchema = z
  .string()
  .transform((text, context) => {
    const items = text.split(",");
    const bad = items.find((item) => !/^(0|-?[1-9][0-9]{0,18})$/.test(item) || !fitsInt64(BigInt(item)));
    if (bad !== undefined) {
      context.addIssue({
        code: "custom",
        message:
          `categoryId must be integers from ${INT64_MIN} to ${INT64_MAX}, comma-separated; ` +
          `"${bad.slice(0, 30)}" is not`,
      });
      return z.NEVER;
    }
    const ids = [...new Set(items.map((item) => BigInt(item)))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (ids.length > CATEGORY_FILTER_MAX) {
      context.addIssue({ code: "custom", message: `categoryId must name at most ${CATEGORY_FILTER_MAX} categories` });
      return z.NEVER;
    }
    return ids;
  })
  .meta({
    type: "string",
    pattern: "^-?[0-9]+(,-?[0-9]+)*$",
    examples: ["3", "3,7"],
    description:
      `Only pets of these categories: one categoryId, or up to ${CATEGORY_FILTER_MAX} comma-separated (\`3,7\`), ` +
      "each an int64.",
  });

function fitsInt64(id: bigint): boolean {
  return id >= INT64_MIN && id <= INT64_MAX;
}

export const listPetsQuerySchema = z.strictObject(
  {
    limit: listLimitSchema("pets"),
    status: petStatusFilterSchema
      .optional()
      .meta({ description: "Only pets with this status; `none`: only pets without a status." }),
    categoryId: categoryFilterSchema.optional(),
    q: petSearchSchema.optional().meta({
      description:
        `Only pets whose name contains this text, ignoring case (1 to ${SEARCH_MAX_LENGTH} characters). ` +
        "Fragments of three or more characters are answered from an index.",
    }),
    sort: petSortSchema.default("id").meta({
      description:
        "The order: `id` (oldest first, the default), `-id` (newest first), `name` (A to Z), `-name` (Z to A), " +
        "`status` (available, pending, sold, then none), `-status` (the reverse), `category` (by categoryId, " +
        "smallest first) or `-category` (largest first). See PetSort.",
    }),
    cursor: listCursorSchema,
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? undefined : "invalid query") },
);

/** How many matching pets a search counts at most: counting is then bounded however common the text. */
export const SEARCH_COUNT_LIMIT = 10_000;

export const countPetsQuerySchema = z.strictObject(
  {
    categoryId: categoryFilterSchema.optional().meta({
      description:
        `Count only pets of these categories (one categoryId, or up to ${CATEGORY_FILTER_MAX} comma-separated), ` +
        `as listPets' \`categoryId\`. At most ${SEARCH_COUNT_LIMIT.toLocaleString("en")} of their pets are ` +
        "counted: beyond, `exact` is false and the numbers are lower bounds.",
    }),
    q: petSearchSchema.optional().meta({
      description:
        `Count only pets whose name contains this text, ignoring case, as listPets' \`q\` (1 to ${SEARCH_MAX_LENGTH} ` +
        `characters). At most ${SEARCH_COUNT_LIMIT.toLocaleString("en")} matches are counted: beyond, \`exact\` is ` +
        "false and the numbers are lower bounds.",
    }),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? undefined : "invalid query") },
);

const countSchema = z.number().int().min(0);

/** countPets' answer. */
export const petCountsSchema = z
  .object({
    total: countSchema.meta({
      description: "How many pets there are (that match `q` and `categoryId`, when given).",
    }),
    byStatus: z
      .object({ available: countSchema, pending: countSchema, sold: countSchema, none: countSchema })
      .meta({ description: "The same, by status; `none` counts the pets without a status." }),
    exact: z.boolean().meta({
      description:
        "Always true without `q` and `categoryId`. False when they matched more pets than are counted: each " +
        "number is then a lower bound.",
    }),
  })
  .meta({ id: "PetCounts", description: "How many pets there are, by status." });
export type PetCounts = z.infer<typeof petCountsSchema>;

/** countPets' answer as a client reads it with the int64-exact parser (the counts arrive as bigint). */
export const petCountsAnswerSchema = z.object({
  total: smallIntegerSchema,
  byStatus: z.object({
    available: smallIntegerSchema,
    pending: smallIntegerSchema,
    sold: smallIntegerSchema,
    none: smallIntegerSchema,
  }),
  exact: z.boolean(),
}) satisfies z.ZodType<PetCounts, unknown>;

export const petIdSchema = positiveInt64Text("petId").meta({
  type: "integer",
  format: "int64",
  minimum: 1,
  description: "Identifier of the pet.",
});

/** exportPets' query: listPets' filters and order, without paging (the export is every pet of the view). */
export const exportPetsQuerySchema = listPetsQuerySchema.pick({ status: true, categoryId: true, q: true, sort: true });

/** The columns of a pets CSV, exported and imported, in order. */
export const PET_CSV_COLUMNS = ["id", "name", "categoryId", "status", "category"] as const;
