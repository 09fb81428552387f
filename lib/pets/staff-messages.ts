import type { z } from "zod";
import { NAME_MAX_LENGTH, petStatuses } from "@/lib/pets/schema";

// What the admin app tells staff, in their words, in one place. /v1 keeps its precise developer messages (the
// schema's); the admin forms show these instead. Each message is keyed by the field and the rule that refused
// it, never by the text of the schema's message:
//   - a refinement names its rule in the issue (`params.rule`, set in lib/pets/schema.ts);
//   - zod's own checks are known by their issue code (`too_big`, `invalid_value`, …), and a wrong type is told
//     apart from a missing value (`required`) by the input at the issue's path.
// tests/messages.test.ts walks every rule of the pet schemas (schemaRules) and fails when one has no message here.
// The same mapping serves the admin's API errors (staffErrorMessage), and the CSV import's report
// (staffIssueMessages: one row's issues as column and message).

/** The rule an issue broke: a refinement's own name, or zod's issue code; `required` for a missing value. */
export type Rule = string;

/** A refinement without a `params.rule`: it can have no staff message, and the rules test says so. */
export const UNNAMED_REFINEMENT = "unnamed_refinement";

const categoryNumber = "Choose a category: a category is a whole number, such as 1";

/** By field (the issue's path, "" for the pet as a whole), then by rule. */
const fieldMessages: Record<string, Record<Rule, string>> = {
  "": {
    required: "Fill in the pet's details",
    invalid_type: "Fill in the pet's details",
    unrecognized_keys: "This is not something a pet has",
  },
  id: {
    required: "Enter the pet's id",
    invalid_type: "Enter the pet's id as a whole number",
    too_small: "Enter a pet id of 1 or more",
    too_big: "This id is too large to be a pet's",
  },
  name: {
    required: "Enter a name",
    invalid_type: "Enter a name",
    not_blank: "Enter a name",
    visible: "Enter a name that can be seen: this one has only invisible characters",
    max_characters: `Use ${NAME_MAX_LENGTH} characters or fewer`,
    plain_text: "Remove control characters from the name",
  },
  categoryId: {
    required: "Choose a category",
    invalid_type: categoryNumber,
    too_small: "Choose a category: this number is too small to be one",
    too_big: "Choose a category: this number is too large to be one",
  },
  status: {
    required: "Choose a status",
    invalid_type: `Choose a status: ${petStatuses.join(", ")}, or none`,
    invalid_value: `Choose a status: ${petStatuses.join(", ")}, or none`,
  },
};

/** The staff message for a field's rule, or undefined when none is written (the rules test forbids that). */
export function staffMessage(field: string, rule: Rule): string | undefined {
  return fieldMessages[field]?.[rule];
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** The rule an issue broke; `input` is what was parsed, to tell a missing value from one of the wrong type. */
export function ruleOf(issue: z.core.$ZodIssue, input: unknown): Rule {
  if (issue.code === "custom") {
    const rule = (issue.params as { rule?: unknown } | undefined)?.rule;
    return typeof rule === "string" ? rule : UNNAMED_REFINEMENT;
  }
  if (issue.code === "invalid_type") return valueAt(input, issue.path) === undefined ? "required" : "invalid_type";
  return issue.code;
}

export type StaffFieldMessage = { field: string; message: string };

/**
 * One parse's issues in staff words, one per field and rule, in the schema's order: the field (a form's input,
 * or an import's column) and what to do about it. An unknown member is one entry of its own, its field its name.
 */
export function staffIssueMessages(issues: readonly z.core.$ZodIssue[], input: unknown): StaffFieldMessage[] {
  const found: StaffFieldMessage[] = [];
  const push = (field: string, message: string) => {
    if (!found.some((entry) => entry.field === field && entry.message === message)) found.push({ field, message });
  };
  for (const issue of issues) {
    const field = issue.path.map(String).join(".");
    const rule = ruleOf(issue, input);
    // Only a schema the rules test does not cover can reach the fallback.
    const text = staffMessage(field, rule) ?? "Check this value";
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) push(field ? `${field}.${key}` : key, text);
    } else push(field, text);
  }
  return found;
}

/** What the server refused in a field of a form that the form's own check had passed (an outdated page). */
export function staffRefusedField(field: string): string {
  const what: Record<string, string> = { name: "name", categoryId: "category", status: "status" };
  return `The store refused this ${what[field] ?? "value"}; check it and save again`;
}

/** An admin request that failed, as lib/client/admin-api.ts's AdminRequestError carries it. */
export type FailedRequest = {
  status: number;
  code?: string;
  requestId: string;
  errors?: readonly { path: string; message: string }[];
  retryAfterSeconds?: number;
};

export const SESSION_ENDED = "Your session has ended. Sign in again to continue; what you typed is kept.";
export const PAGE_LINK_EXPIRED = "This page link has expired; start from the first page.";

/** A list's cursor refused (a page link from an older order, or altered): only the first page will do. */
export function isExpiredPageLink(failure: FailedRequest): boolean {
  return failure.code === "invalid_query" && Boolean(failure.errors?.some((error) => error.path === "cursor"));
}

/** A failed admin request in staff words. A server error names its request id, to quote when asking for help. */
export function staffErrorMessage(failure: FailedRequest): string {
  const { status, code, requestId } = failure;
  if (status === 0) return "The store could not be reached. Check the connection, then try again.";
  if (code === "session_required") return SESSION_ENDED;
  if (code === "rate_limited")
    return failure.retryAfterSeconds
      ? `Too many changes in a short time. Try again in ${failure.retryAfterSeconds} seconds.`
      : "Too many changes in a short time. Wait a moment, then try again.";
  if (code === "precondition_failed") return "Someone else changed this pet; review and save again.";
  if (code === "not_found") return "This pet is no longer in the catalogue: someone may have deleted it.";
  if (isExpiredPageLink(failure)) return PAGE_LINK_EXPIRED;
  if (code === "idempotency_key_in_progress") return "This pet is still being added. Wait a moment, then look again.";
  if (code === "admin_role_required") return "Only an admin can do this. Ask an admin of this store.";
  if (code === "cross_origin") return "This page is out of date. Reload it, then try again.";
  if (code === "payload_too_large") return "This is too long to save. Shorten it, then try again.";
  if (code === "service_unavailable" || code === "admin_key_refused" || status === 503)
    return "The store is not answering right now. Try again in a moment.";
  if (status >= 500)
    return (
      "Something went wrong on our side. If it happens again, quote request id " +
      `${requestId} to whoever runs the store.`
    );
  if (failure.errors?.length) return "The store refused some of these values; check them and save again.";
  return `The store refused this (${status}${code ? ` ${code}` : ""}). Reload the page, then try again.`;
}

/** The issue code a zod check raises, by the check's kind. */
const checkCodes: Record<string, Rule> = {
  greater_than: "too_small",
  less_than: "too_big",
  min_length: "too_small",
  max_length: "too_big",
  min_size: "too_small",
  max_size: "too_big",
  string_format: "invalid_format",
  multiple_of: "not_multiple_of",
};

/**
 * Every (field, rule) a schema can refuse with, found by walking it: its objects' members, unwrapped through
 * optional, nullable, default and pipes; each value's type (`required`, `invalid_type`), its checks and
 * refinements (by `params.rule`; UNNAMED_REFINEMENT without one), an enum's `invalid_value`, a strict object's
 * `unrecognized_keys`. A kind of schema it does not know is returned as the rule `unknown:<type>`, which has no
 * message, so a test over it fails rather than skipping it.
 */
export function schemaRules(schema: z.core.$ZodType, field = ""): { field: string; rule: Rule }[] {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  const here = (rule: Rule) => ({ field, rule });
  const checks = (def.checks ?? []).map((check) => {
    const checkDef = check._zod.def as { check: string; params?: { rule?: unknown } };
    if (checkDef.check === "custom")
      return here(typeof checkDef.params?.rule === "string" ? checkDef.params.rule : UNNAMED_REFINEMENT);
    return here(checkCodes[checkDef.check] ?? `unknown_check:${checkDef.check}`);
  });
  const typed = [here("required"), here("invalid_type"), ...checks];
  switch (def.type) {
    case "object": {
      const shape = def.shape as Record<string, z.core.$ZodType>;
      const catchall = def.catchall as z.core.$ZodType | undefined;
      return [
        ...typed,
        ...(catchall?._zod.def.type === "never" ? [here("unrecognized_keys")] : []),
        ...Object.entries(shape).flatMap(([key, member]) => schemaRules(member, field ? `${field}.${key}` : key)),
      ];
    }
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
      return [...checks, ...schemaRules(def.innerType as z.core.$ZodType, field)];
    case "pipe":
      return [
        ...checks,
        ...schemaRules(def.in as z.core.$ZodType, field),
        ...schemaRules(def.out as z.core.$ZodType, field),
      ];
    case "transform":
      return checks; // a transform refuses nothing itself (a preprocess's first half)
    case "enum":
      return [...typed, here("invalid_value")];
    case "string":
    case "bigint":
    case "number":
    case "boolean":
      return typed;
    default:
      return [here(`unknown:${def.type}`)];
  }
}
