import { errorCodes, type ErrorCode } from "@/lib/http/error-codes";
import type { FieldError } from "@/lib/http/errors";

// The one way to refuse, from a store as from a handler: throw a Refusal with a code of the catalogue
// (lib/http/error-codes.ts). The HTTP layer answers it in one place (lib/http/api-route.ts) as the Error body with the
// catalogue's status; anything else thrown becomes `internal`, or `service_unavailable` when the database is
// away. See docs/decisions/012-how-a-store-refuses.md.

export class Refusal extends Error {
  readonly code: ErrorCode;
  /** The catalogue's status for the code. */
  readonly status: number;
  /** The offending members, for a refusal of a request's input. */
  readonly errors?: FieldError[];
  /** What the answer must also say: `Retry-After` of a refusal that passes with time, `Allow` of a 405. */
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
}
