import { z } from "zod";
import type { ErrorCode } from "@/lib/http/error-codes";
import type { FieldError } from "@/lib/http/errors";
import { Refusal } from "@/lib/refusal";

/**
 * The most offending members a 400 names. A 16 KiB body (or query string) can hold thousands of unknown members:
 * named each in errors[] and again in the message, they made a 400 nine times the size of the request.
 */
export const MAX_FIELD_ERRORS = 20;

/** The most characters of a client's member name a 400 repeats. */
const MAX_ECHOED_NAME = 60;

function echoed(name: string): string {
  return name.length <= MAX_ECHOED_NAME ? name : `${name.slice(0, MAX_ECHOED_NAME)}…`;
}

/**
 * The offending members named by a zod failure, one per member (unknown members each get their own), the first
 * MAX_FIELD_ERRORS of them, client-chosen names cut to MAX_ECHOED_NAME characters.
 */
export function fieldErrors(error: z.ZodError): FieldError[] {
  const errors: FieldError[] = [];
  for (const issue of error.issues) {
    const path = issue.path.map((segment) => echoed(String(segment))).join(".");
    const members =
      issue.code === "unrecognized_keys"
        ? issue.keys.map((key) => ({
            path: path ? `${path}.${echoed(key)}` : echoed(key),
            message: `${echoed(key)} is not a known member`,
          }))
        : [{ path, message: issue.message }];
    for (const member of members) {
      if (errors.length === MAX_FIELD_ERRORS) return errors;
      errors.push(member);
    }
  }
  return errors;
}

/** How many members a zod failure names in all, of which fieldErrors lists the first MAX_FIELD_ERRORS. */
function offendingCount(error: z.ZodError): number {
  return error.issues.reduce((count, issue) => count + (issue.code === "unrecognized_keys" ? issue.keys.length : 1), 0);
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
  const more = offendingCount(result.error) - errors.length;
  const message =
    `${what}: ${errors.map((error) => error.message).join("; ")}` +
    `${more > 0 ? `; and ${more.toLocaleString("en")} more` : ""}.`;
  throw new Refusal(code, { message, errors });
}

/** The object schemas of path parameters, made once each: a zod object compiles its parser when it is made. */
const pathSchemas = new WeakMap<z.ZodType, Map<string, z.ZodObject>>();

function pathSchema(name: string, schema: z.ZodType): z.ZodObject {
  let byName = pathSchemas.get(schema);
  if (!byName) pathSchemas.set(schema, (byName = new Map<string, z.ZodObject>()));
  let made = byName.get(name);
  if (!made) byName.set(name, (made = z.object({ [name]: schema })));
  return made;
}

/**
 * The path parameter `name` (`petId` of /v1/pets/{petId}), parsed by `schema`. A value it refuses is the 400
 * `invalid_path` naming the parameter, or, given `notFound`, a 404 with its message: for a resource whose ids are
 * not in the API's contract, an id none can have is simply not there.
 */
export function pathParam<S extends z.ZodType>(
  params: Record<string, string>,
  name: string,
  schema: S,
  notFound?: (raw: string) => string,
): z.output<S> {
  if (!notFound) {
    const path = parseOrThrow(pathSchema(name, schema), params, "invalid_path", "Invalid path");
    return path[name] as z.output<S>;
  }
  const raw = params[name] ?? "";
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new Refusal("not_found", { message: notFound(raw) });
  return parsed.data;
}

/** The query of an operation that takes no parameters: any is refused, rather than silently ignored. */
export const noQueryParameters = z.strictObject(
  {},
  { error: (issue) => (issue.code === "unrecognized_keys" ? undefined : "invalid query") },
);
