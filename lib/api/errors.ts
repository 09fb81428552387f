import { errorCodes, type ErrorCode } from "@/lib/api/error-codes";

/** One offending member of a request, as a 400 names it: `path` is dotted (`name`, `tags.0`), "" for the whole body. */
export type FieldError = { path: string; message: string };

export type ErrorBody = { code: ErrorCode; message: string; status: number; errors?: FieldError[] };

/** An error the API answers as-is: thrown anywhere below the wrapper, turned into the Error body there. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors?: FieldError[];
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, options: { message?: string; errors?: FieldError[]; headers?: Record<string, string> } = {}) {
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
