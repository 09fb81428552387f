import { z } from "zod";
import { smallIntegerSchema } from "@/lib/http/int64";

// The rules for an API key's name, in one place: the key tool, the admin endpoint and the keys page's form
// all validate with this schema, so they give the same answer and the same message.

export const KEY_NAME_MAX_LENGTH = 100;

// Control, format, surrogate, private-use and unassigned characters, and the line and paragraph separators:
// nothing a listing could not print on one line.
const UNPRINTABLE = /[\p{C}\u2028\u2029]/u;

/** A key's name: 1 to 100 printable characters once trimmed (counted as characters, not UTF-16 units). */
export const keyNameSchema = z
  .string({ error: "name is required" })
  .trim()
  .min(1, "name must not be empty")
  // Each refinement names its rule (params.rule), which the keys page's staff message is keyed on
  // (lib/pets/staff-messages.ts); the message is the key tool's and the endpoint's.
  .refine((name) => [...name].length <= KEY_NAME_MAX_LENGTH, {
    message: `name must be at most ${KEY_NAME_MAX_LENGTH} characters`,
    params: { rule: "max_characters" },
  })
  .refine((name) => !UNPRINTABLE.test(name), {
    message: "name must contain printable characters only (no tabs or line breaks)",
    params: { rule: "printable" },
  });

/** The body of POST /admin/api/keys. */
export const newKeySchema = z.strictObject(
  { name: keyNameSchema },
  { error: (issue) => (issue.code === "unrecognized_keys" ? undefined : "the body must be a JSON object") },
);

/** The path of DELETE /admin/api/keys/{keyId}: a key's id, digits only. */
export const keyIdSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/, "keyId must be a positive integer")
  .transform(Number)
  .refine((id) => id <= 2_147_483_647, "keyId must be a positive integer");

/** A key as the admin app's endpoints show it (never its secret, but at its creation, in `key`). */
export const keyViewSchema = z.object({
  id: smallIntegerSchema,
  name: z.string(),
  prefix: z.string(),
  purpose: z.enum(["client", "admin_app"]),
  createdAt: z.string(),
  /** A staff member's email, "command line", "the app"; null for keys made before it was recorded. */
  createdBy: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  /** getPet calls: over the last 30 UTC days, and the last one ever (written every few seconds). */
  getPet: z.object({ last30Days: smallIntegerSchema, lastCallAt: z.string().nullable() }),
});
export type KeyView = z.output<typeof keyViewSchema>;

/** The answers of GET, POST and DELETE /admin/api/keys…: the list, the new key with its secret, a revocation. */
export const keyListSchema = z.object({ keys: z.array(keyViewSchema) });
export const newKeyAnswerSchema = keyViewSchema.extend({ key: z.string() });
export const revokedKeySchema = z.object({ key: keyViewSchema, alreadyRevoked: z.boolean() });
