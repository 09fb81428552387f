import { z } from "zod";
import { errorCodes, v1ErrorCodes, type ErrorCode } from "@/lib/http/error-codes";

// The one error type of the service. Thrown anywhere below the edge (lib/http/edge.ts), it is answered
// there as the Error body; anything else thrown becomes `internal`, or `service_unavailable` when the
// database is away.

/** One offending member of a request, as a 400 names it: `path` is dotted (`name`, `tags.0`), "" for the whole body. */
export type FieldError = { path: string; message: string };

export type ErrorBody = { code: ErrorCode; message: string; status: number; errors?: FieldError[] };

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors?: FieldError[];
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    options: { message?: string; errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(options.message ?? errorCodes[code].message);
    this.code = code;
    this.status = errorCodes[code].status;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }

  body(): ErrorBody {
    const body: ErrorBody = { code: this.code, message: this.message, status: this.status };
    if (this.errors) body.errors = this.errors;
    return body;
  }
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
