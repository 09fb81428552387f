import type { z } from "zod";
import type { ErrorCode } from "@/lib/http/error-codes";
import { ApiError, type FieldError } from "@/lib/http/errors";

/** The offending members named by a zod failure, one per member: unknown members each get their own. */
export function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.flatMap((issue): FieldError[] => {
    const path = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        path: path ? `${path}.${key}` : key,
        message: `${key} is not a known member`,
      }));
    }
    return [{ path, message: issue.message }];
  });
}

/** Parses input with a schema, or throws the 400 with this code naming every offending member. */
export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  input: unknown,
  code: ErrorCode,
  what: string,
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error);
  const message = `${what}: ${errors.map((error) => error.message).join("; ")}.`;
  throw new ApiError(code, { message, errors });
}
