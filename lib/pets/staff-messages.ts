import type { z } from "zod";
import { KEY_NAME_MAX_LENGTH } from "@/lib/auth/api-key-schema";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@/lib/auth/staff-schema";
import { CATEGORY_NAME_MAX_LENGTH } from "@/lib/categories/schema";
import { CUSTOMER_EMAIL_MAX_LENGTH, CUSTOMER_NAME_MAX_LENGTH } from "@/lib/orders/schema";
import { NAME_MAX_LENGTH, petStatuses } from "@/lib/pets/schema";

// What the admin app tells staff, in their words, in one place: for a pet's forms, and for the forms of the API
// keys, Categories, Staff and Webhooks pages and a pet's order form (one table each, below). /v1, the endpoints and
// the command-line tools keep their precise developer messages (the schema's); the admin forms show these instead.
// Each message is keyed by the field and the rule that refused it, never by the text of the schema's message:
//   - a refinement names its rule in the issue (`params.rule`, set in the resource's schema.ts);
//   - zod's own checks are known by their issue code (`too_big`, `invalid_value`, …), and a wrong type is told
//     apart from a missing value (`required`) by the input at the issue's path.
// tests/messages.test.ts walks every rule of each form's schema (schemaRules) and fails when one has no message here.
// The same mapping serves the admin's API errors (staffErrorMessage), and the CSV import's report
// (staffIssueMessages: one row's issues as column and message).

/** The rule an issue broke: a refinement's own name, or zod's issue code; `required` for a missing value. */
export type Rule = string;

/** A refinement without a `params.rule`: it can have no staff message, and the rules test says so. */
export const UNNAMED_REFINEMENT = "unnamed_refinement";

const categoryNumber = "Choose a category: a category is a whole number, such as 1";

/** A message, or one made from the refused value (as it was typed, at the issue's path). */
type Message = string | ((value: unknown) => string);

/** A form's messages by field (the issue's path, "" for the body as a whole), then by rule. */
export type StaffMessages = Record<string, Record<Rule, Message>>;

/** How many characters a typed value has once trimmed, as the name rules count them. */
const trimmedLength = (value: unknown) => (typeof value === "string" ? [...value.trim()].length : 0);

/** A pet's add and edit forms, and the CSV import's report. */
export const petMessages: StaffMessages = {
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

/** Only what the form sends: the whole body's rules, in case the page and the endpoint disagree. */
const body = (what: string): Record<Rule, string> => ({
  required: `Fill in the ${what}`,
  invalid_type: `Fill in the ${what}`,
  unrecognized_keys: `This is not something a ${what} has`,
});

/** A name as the keys and Categories pages take it: their rules differ from a pet's only in the length. */
const nameMessages = (give: string, max: number): Record<Rule, Message> => ({
  required: give,
  invalid_type: give,
  too_small: give,
  not_blank: give,
  visible: "Enter a name that can be seen: this one has only invisible characters.",
  max_characters: (value) => `Use ${max} characters or fewer; this name has ${trimmedLength(value)}.`,
  printable: "Use letters, digits and punctuation only: no tabs or line breaks.",
  plain_text: "Remove control characters from the name.",
});

/** The API keys page's form: a new key's name. */
export const keyMessages: StaffMessages = {
  "": body("key"),
  name: nameMessages("Give the key a name.", KEY_NAME_MAX_LENGTH),
};

/** The Categories page's forms: adding, renaming or naming an id. */
export const categoryMessages: StaffMessages = {
  "": body("category"),
  id: {
    required: "Choose the id to name.",
    invalid_type: "A category's id is a whole number, such as 1.",
    too_small: "This number is too small to be a category's id.",
    too_big: "This number is too large to be a category's id.",
  },
  name: nameMessages("Give the category a name.", CATEGORY_NAME_MAX_LENGTH),
};

const emailExample = "Enter an email address such as name@example.com.";
const passwordMessages: Record<Rule, Message> = {
  required: `Enter a password of at least ${PASSWORD_MIN_LENGTH} characters.`,
  invalid_type: `Enter a password of at least ${PASSWORD_MIN_LENGTH} characters.`,
  too_small: (value) =>
    `The password needs at least ${PASSWORD_MIN_LENGTH} characters; this one has ${String(value).length}.`,
  too_big: (value) =>
    `The password can have at most ${PASSWORD_MAX_LENGTH} characters; this one has ${String(value).length}.`,
};

/** The Staff page's forms: adding an account, and setting an account's password. */
export const staffAccountMessages: StaffMessages = {
  "": body("staff account"),
  email: {
    required: emailExample,
    invalid_type: emailExample,
    invalid_format: emailExample,
    too_big: (value) => `An email address has at most 254 characters; this one has ${trimmedLength(value)}.`,
  },
  role: {
    required: "Choose a role: staff or admin.",
    invalid_type: "Choose a role: staff or admin.",
    invalid_value: "Choose a role: staff or admin.",
  },
  password: passwordMessages,
};

const urlExample = "Enter the receiver's address, such as https://shop.example/webhooks.";

/** The Webhooks page's form: a new endpoint's address (its event types are checkboxes, which cannot be wrong). */
export const webhookMessages: StaffMessages = {
  "": body("webhook endpoint"),
  url: {
    required: urlExample,
    invalid_type: urlExample,
    too_small: urlExample,
    too_big: (value) => `Use an address of 2048 characters or fewer; this one has ${trimmedLength(value)}.`,
  },
};

const customerName = "Enter the customer's name.";

/**
 * A pet's order form (the counter sale in its panel): the customer's name and email. The pet is the panel's, never
 * typed; its rules have words only in case the page and the endpoint disagree.
 */
export const orderMessages: StaffMessages = {
  "": body("order"),
  petId: {
    required: "This order has no pet. Reload the page, then try again.",
    invalid_type: "This order's pet is not one of the catalogue's. Reload the page, then try again.",
    too_small: "This order's pet is not one of the catalogue's. Reload the page, then try again.",
    too_big: "This order's pet is not one of the catalogue's. Reload the page, then try again.",
  },
  customerName: {
    required: customerName,
    invalid_type: customerName,
    not_blank: customerName,
    visible: "Enter a name that can be seen: this one has only invisible characters.",
    max_characters: (value) =>
      `Use ${CUSTOMER_NAME_MAX_LENGTH} characters or fewer; this name has ${trimmedLength(value)}.`,
    plain_text: "Remove control characters from the name: no tabs or line breaks.",
  },
  customerEmail: {
    required: emailExample,
    invalid_type: emailExample,
    invalid_format: emailExample,
    too_big: (value) =>
      `An email address has at most ${CUSTOMER_EMAIL_MAX_LENGTH} characters; this one has ${trimmedLength(value)}.`,
  },
};

/** The Activity page's filter: a pet's id. */
export const activityFilterMessages: StaffMessages = {
  "": body("filter"),
  pet: {
    required: "Enter a pet id, such as 12.",
    invalid_type: "Enter a pet id, such as 12.",
    invalid_format: "A pet id is a whole number of 1 or more, such as 12: digits only.",
    int64: "No pet has an id this large.",
  },
};

/**
 * The staff message for a field's rule (made from the refused `value` where it says how long it is), or undefined
 * when none is written (the rules test forbids that).
 */
export function staffMessage(
  field: string,
  rule: Rule,
  messages: StaffMessages = petMessages,
  value?: unknown,
): string | undefined {
  const message = messages[field]?.[rule];
  return typeof message === "function" ? message(value) : message;
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
export function staffIssueMessages(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  messages: StaffMessages = petMessages,
): StaffFieldMessage[] {
  const found: StaffFieldMessage[] = [];
  const push = (field: string, message: string) => {
    if (!found.some((entry) => entry.field === field && entry.message === message)) found.push({ field, message });
  };
  for (const issue of issues) {
    const field = issue.path.map(String).join(".");
    const rule = ruleOf(issue, input);
    // Only a schema the rules test does not cover can reach the fallback.
    const text = staffMessage(field, rule, messages, valueAt(input, issue.path)) ?? "Check this value";
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) push(field ? `${field}.${key}` : key, text);
    } else push(field, text);
  }
  return found;
}

/** What the server refused in a field of a form that the form's own check had passed (an outdated page). */
export function staffRefusedField(field: string): string {
  const what: Record<string, string> = {
    name: "name",
    categoryId: "category",
    status: "status",
    customerName: "customer name",
    customerEmail: "email address",
  };
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
  const checks = (def.checks ?? []).flatMap((check) => {
    const checkDef = check._zod.def as { check: string; params?: { rule?: unknown } };
    if (checkDef.check === "overwrite") return []; // trim(), toLowerCase(): they change, never refuse
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
      // A format of its own (z.email(), z.url()…) is a check that the schema is, not one it has.
      return "format" in def && def.format ? [...typed, here("invalid_format")] : typed;
    case "bigint":
    case "number":
    case "boolean":
      return typed;
    default:
      return [here(`unknown:${def.type}`)];
  }
}
