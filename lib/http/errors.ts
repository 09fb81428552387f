import { z } from "zod";
import { v1ErrorCodes, type ErrorCode } from "@/lib/http/error-codes";
import type { Refusal } from "@/lib/refusal";

// The Error body every refusal is answered with (lib/refusal.ts), and its schema for the OpenAPI document.

/** One offending member of a request, as a 400 names it: `path` is dotted (`name`, `tags.0`), "" for the whole body. */
export type FieldError = { path: string; message: string };

export type ErrorBody = { code: ErrorCode; message: string; status: number; errors?: FieldError[] };

export function errorBody({ code, message, status, errors }: Refusal): ErrorBody {
  const body: ErrorBody = { code, message, status };
  if (errors) body.errors = errors;
  return body;
}

/** The Error body as /v1's OpenAPI document describes it, from the same catalogue. */
export const errorBodySchema = z
  .object({
    code: z.enum(v1ErrorCodes as [ErrorCode, ...ErrorCode[]]).meta({ description: "Machine-readable error code." }),
    message: z.string().meta({ description: "Human-readable description." }),
    status: z.number().int().min(400).max(599).meta({ description: "The HTTP status code of the response." }),
    errors: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .meta({
        description: 'On a 400, each offending member: its dotted path ("" for the whole body) and what is wrong.',
      }),
  })
  .meta({ id: "Error", description: "Every error response has this body; status repeats the HTTP status." });

/**
 * An Error body as a client reads it (the admin app's browser code): every member may be missing, and the code is
 * any text, since the admin endpoints answer with codes /v1 does not have.
 */
export const errorAnswerSchema = errorBodySchema
  .pick({ message: true, errors: true })
  .partial()
  .extend({ code: z.string().optional() });
