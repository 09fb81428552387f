import { z } from "zod";

// int64 on the wire: ids are plain JSON integers over the whole signed 64-bit range, never rounded.

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/**
 * A JSON integer anywhere in the int64 range. Request bodies are parsed so that integer literals arrive
 * as bigint (lib/http/json.ts); a number here is a literal such as 1e3 that JSON.parse would also read,
 * accepted only when it is an exact integer.
 */
export function int64Schema(label: string) {
  return z
    .preprocess(
      (value) => (typeof value === "number" && Number.isSafeInteger(value) ? BigInt(value) : value),
      z
        .bigint({
          error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be an integer`),
        })
        .min(INT64_MIN, `${label} must be at least ${INT64_MIN}`)
        .max(INT64_MAX, `${label} must be at most ${INT64_MAX}`),
    )
    .meta({ type: "integer", format: "int64" });
}

/**
 * A count or a small id in an answer, as a number. The browser reads answers with the int64-exact parser, which
 * gives every integer as a bigint: those far below 2^53 are made numbers again here.
 */
export const smallIntegerSchema = z.preprocess(
  (value) => (typeof value === "bigint" && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value),
  z.number().int(),
);

/** A positive int64 written in decimal, as a path parameter or a query parameter carries it: `label` names it. */
export function positiveInt64Text(label: string) {
  return z
    .string()
    .regex(/^[1-9][0-9]{0,18}$/, `${label} must be a positive integer`)
    .transform((digits) => BigInt(digits))
    .refine((id) => id <= INT64_MAX, `${label} must be at most ${INT64_MAX}`)
    .meta({ type: "integer", format: "int64", minimum: 1 });
}
