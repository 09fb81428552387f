import "server-only";
import { z } from "zod";
import { activityPetFilterSchema, type ActivityRecord } from "@/lib/audit/activity-schema";
import { AUDIT_ACTIONS, type AuditAction } from "@/lib/audit/record";
import { db } from "@/lib/db/client";
import { parseJson, stringifyJson } from "@/lib/http/json";

// Reading the audit trail (lib/audit/record.ts writes it): pages of records newest first, each filter answered
// by its own index (actor, action, target, each ending in the id), the records as plain DTOs with a one-line
// summary made here and nowhere else, and the actors the Activity page's filter offers.

export const ACTIVITY_LIMIT_DEFAULT = 50;
export const ACTIVITY_LIMIT_MAX = 200;

/** Who a filter names: "staff:3", "api_key:5", or one of the actors without an id. */
export const ACTOR_FILTER_PATTERN = /^(?:(?:staff|api_key):[1-9][0-9]{0,9}|cli|system|visitor)$/;

const INT32_MAX = 2_147_483_647;

const limitMessage = `limit must be an integer from 1 to ${ACTIVITY_LIMIT_MAX}`;

/** The filters of the Activity page, its endpoint and the CSV export: one schema for all three. */
export const activityFilterShape = {
  actor: z
    .string()
    .regex(ACTOR_FILTER_PATTERN, "actor must be staff:<id>, api_key:<id>, cli, system or visitor")
    // Staff and key ids are 32-bit: a larger one names nobody, and PostgreSQL would refuse to compare it.
    .refine((actor) => !actor.includes(":") || Number(actor.split(":")[1]) <= INT32_MAX, {
      message: `actor's id must be at most ${INT32_MAX}`,
      abort: true,
    })
    .optional(),
  action: z.enum(AUDIT_ACTIONS, { error: `action must be one of ${AUDIT_ACTIONS.join(", ")}` }).optional(),
  pet: activityPetFilterSchema.optional(),
};

export const activityQuerySchema = z.strictObject(
  {
    limit: z
      .string()
      .regex(/^[0-9]+$/, limitMessage)
      .pipe(z.coerce.number<string>().int().min(1, limitMessage).max(ACTIVITY_LIMIT_MAX, limitMessage))
      .default(ACTIVITY_LIMIT_DEFAULT),
    cursor: z.string().min(1, "cursor must not be empty").optional(),
    ...activityFilterShape,
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? undefined : "invalid query") },
);
export type ActivityQuery = z.output<typeof activityQuerySchema>;

export type ActivityFilters = { actor?: string; action?: AuditAction; pet?: string; order?: string };

/** One record as the admin app and the export show it (its schema: lib/audit/activity-schema.ts). */
export type { ActivityRecord };

export type ActivityPage = { records: ActivityRecord[]; more: boolean };

const columns = {
  id: true,
  at: true,
  actorType: true,
  actorId: true,
  actorLabel: true,
  action: true,
  targetType: true,
  targetId: true,
  targetLabel: true,
  details: true,
  clientAddress: true,
  requestId: true,
} as const;

type Row = {
  id: bigint;
  at: Date;
  actorType: string;
  actorId: number | null;
  actorLabel: string;
  action: string;
  targetType: string;
  targetId: string | null;
  targetLabel: string | null;
  details: string | null;
  clientAddress: string | null;
  requestId: string | null;
};

function whereOf(filters: ActivityFilters, beforeId: bigint | undefined) {
  const [actorType, actorId] = filters.actor?.split(":") ?? [];
  return {
    ...(actorType ? { actorType, ...(actorId ? { actorId: Number(actorId) } : {}) } : {}),
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.pet ? { targetType: "pet", targetId: filters.pet } : {}),
    ...(filters.order ? { targetType: "order", targetId: filters.order } : {}),
    ...(beforeId !== undefined ? { id: { lt: beforeId } } : {}),
  };
}

/**
 * A page of records, newest first: at most `limit`, older than the record `beforeId` when given, and whether
 * more follow. The primary key walked backwards, or the filter's index (which ends in the id).
 */
export async function listActivity({
  limit,
  beforeId,
  ...filters
}: ActivityFilters & { limit: number; beforeId?: bigint }): Promise<ActivityPage> {
  const rows: Row[] = await db().auditEvent.findMany({
    where: whereOf(filters, beforeId),
    orderBy: { id: "desc" },
    take: limit + 1,
    select: columns,
  });
  return { records: rows.slice(0, limit).map(toRecord), more: rows.length > limit };
}

function parsedDetails(text: string | null): unknown {
  if (text === null) return null;
  try {
    return parseJson(text);
  } catch {
    return text; // written by this app as JSON; anything else is shown as it is rather than hidden
  }
}

function toRecord(row: Row): ActivityRecord {
  const record: Omit<ActivityRecord, "summary"> = {
    id: String(row.id),
    at: row.at.toISOString(),
    actor: { type: row.actorType, id: row.actorId, label: row.actorLabel },
    action: row.action,
    target: { type: row.targetType, id: row.targetId, label: row.targetLabel },
    details: parsedDetails(row.details),
    clientAddress: row.clientAddress,
    requestId: row.requestId,
  };
  return { ...record, summary: summarise(record) };
}

// What a record says at a glance: "ana@animal-store.example marked Biscuit (#12) sold".

type Members = Record<string, unknown>;

function membersOf(value: unknown): Members {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Members) : {};
}

function shown(value: unknown): string {
  if (value === null || value === undefined) return "none";
  return typeof value === "string" ? value : stringifyJson(value);
}

/** A name in quotes, as the summaries write a key's or a category's name. */
function quoted(value: unknown): string {
  return `"${shown(value)}"`;
}

/** "a", "a and b", "a, b and c". */
function listed(parts: string[]): string {
  return parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

/** The parts of a pet's update: the first names the pet, the others say "it". */
function petChanges(name: string, id: string, details: unknown): string {
  const photo = membersOf(membersOf(details).photo);
  if ("added" in photo) return `added photo #${shown(photo.added)} of ${shown(name)} (#${id})`;
  if ("removed" in photo) return `deleted photo #${shown(photo.removed)} of ${shown(name)} (#${id})`;
  if ("described" in photo) return `changed the text of photo #${shown(photo.described)} of ${shown(name)} (#${id})`;
  if ("ordered" in photo) return `reordered the photos of ${shown(name)} (#${id})`;
  const before = membersOf(membersOf(details).before);
  const after = membersOf(membersOf(details).after);
  const reference = `${shown(before.name ?? name)} (#${id})`;
  const parts: ((pet: string, its: string) => string)[] = [];
  if ("name" in after) parts.push((pet) => `renamed ${pet} to ${shown(after.name)}`);
  if ("categoryId" in after)
    parts.push((_, its) => `changed ${its} category from ${shown(before.categoryId)} to ${shown(after.categoryId)}`);
  if ("status" in after)
    parts.push((pet, its) =>
      after.status === null ? `removed ${its} status` : `marked ${pet} ${shown(after.status)}`,
    );
  if (parts.length === 0) return `changed ${reference}`;
  return listed(parts.map((part, index) => (index === 0 ? part(reference, `${reference}'s`) : part("it", "its"))));
}

/** A role as details carry it: "admin", or {role: "admin"}. */
function roleOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  const role = membersOf(value).role;
  return typeof role === "string" ? role : undefined;
}

function withRole(role: string | undefined): string {
  return role === "admin" ? "an admin" : role === "staff" ? "a staff member" : shown(role);
}

/** The one-line summary of a record, for every action in AUDIT_ACTIONS; others are named as they are. */
export function summarise(record: Omit<ActivityRecord, "summary">): string {
  const who = record.actor.label;
  const { id, label } = record.target;
  const name = label ?? (id ? `#${id}` : "someone");
  if (record.action === "staff.sign_in_failed") return `someone failed to sign in as ${label ?? who}`;
  const details = membersOf(record.details);
  const what = (() => {
    switch (record.action as AuditAction) {
      case "pet.created": {
        const via = membersOf(details.via);
        const from = typeof via.import === "string" ? ` from import ${via.import}, line ${shown(via.line)}` : "";
        return `added ${shown(label)} (#${shown(id)})${from}`;
      }
      case "pet.updated":
        return petChanges(shown(label), shown(id), record.details);
      case "pet.deleted":
        return `deleted ${shown(label)} (#${shown(id)})`;
      case "pet.restored":
        return `restored ${shown(label)} (#${shown(id)}) after its deletion`;
      case "api_key.created":
        return `created API key "${shown(label)}" (#${shown(id)})`;
      case "api_key.revoked":
        return `revoked API key "${shown(label)}" (#${shown(id)})`;
      case "api_key.made_admin_app":
        return `made API key "${shown(label)}" (#${shown(id)}) the admin app's key (ADMIN_API_KEY)`;
      case "staff.created": {
        const role = roleOf(details.role ?? details.after);
        return `created the staff account ${name}${role ? ` as ${withRole(role)}` : ""}`;
      }
      case "staff.disabled":
        return `disabled the staff account ${name}`;
      case "staff.enabled":
        return `re-enabled the staff account ${name}`;
      case "staff.role_changed": {
        const before = roleOf(details.before);
        const after = roleOf(details.after);
        return `made ${name} ${withRole(after)}${before ? ` (was ${withRole(before)})` : ""}`;
      }
      case "staff.password_reset":
        return `reset the password of ${name}`;
      case "staff.unlocked":
        return `unlocked the staff account ${name}`;
      case "staff.signed_in":
        return "signed in";
      case "category.created":
        return `added the category ${quoted(label)} (#${shown(id)})`;
      case "category.renamed": {
        const before = membersOf(details.before).name ?? label;
        const after = membersOf(details.after).name ?? label;
        return `renamed the category ${quoted(before)} (#${shown(id)}) to ${quoted(after)}`;
      }
      case "order.placed":
        return `placed order #${shown(id)}: ${shown(label)}`;
      case "order.approved":
        return `approved order #${shown(id)}: ${shown(label)}`;
      case "order.delivered":
        return `delivered order #${shown(id)}: ${shown(label)}`;
      case "order.cancelled":
        return `cancelled order #${shown(id)}: ${shown(label)}`;
      case "order.expired":
        return `expired order #${shown(id)}, its hold over: ${shown(label)}`;
      case "webhook.created":
        return `added the webhook endpoint ${shown(label)} (#${shown(id)})`;
      case "webhook.disabled": {
        const reason = typeof details.reason === "string" ? `: ${details.reason}` : "";
        return `disabled the webhook endpoint ${shown(label)} (#${shown(id)})${reason}`;
      }
      case "webhook.enabled":
        return `enabled the webhook endpoint ${shown(label)} (#${shown(id)})`;
      case "webhook.deleted":
        return `deleted the webhook endpoint ${shown(label)} (#${shown(id)})`;
      case "webhook.secret_rotated":
        return `rotated the secret of the webhook endpoint ${shown(label)} (#${shown(id)})`;
      default:
        return `${record.action} ${name}`;
    }
  })();
  return `${who} ${what}`;
}

/** An actor the Activity page's filter offers: its filter value and how it is named. */
export type ActivityActor = { value: string; label: string };

/**
 * The actors to filter by: every staff account and API client key (a handful, read from their own tables, not
 * from the log, so the list costs the same however large the log grows), then the actors without an id.
 */
export async function listActivityActors(): Promise<ActivityActor[]> {
  const [staff, keys] = await Promise.all([
    db().staff.findMany({ select: { id: true, email: true }, orderBy: { email: "asc" } }),
    db().apiKey.findMany({ where: { purpose: "client" }, select: { id: true, name: true }, orderBy: { id: "asc" } }),
  ]);
  return [
    ...staff.map(({ id, email }) => ({ value: `staff:${id}`, label: email })),
    ...keys.map(({ id, name }) => ({ value: `api_key:${id}`, label: `API key "${name}" (#${id})` })),
    { value: "cli", label: "The command line" },
    { value: "system", label: "The app itself" },
    { value: "visitor", label: "Visitors (failed sign-ins)" },
  ];
}
