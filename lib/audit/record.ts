import "server-only";
import { dialect, type Transaction } from "@/lib/db/client";
import { isEventType, recordEvents, type EventRecord } from "@/lib/events/outbox";
import { stringifyJson } from "@/lib/http/json";
import type { AuditAction } from "@/lib/audit/actions";

// Writing the audit trail. Every change calls recordAudit with the transaction that makes the change, so the
// record commits or rolls back with it: there is never a change without its record nor a record without its
// change. The rows are append-only (the 0008 migrations refuse UPDATE); lib/audit/activity.ts reads them. A change
// to a pet, an order or a category is also an event of the same name (lib/events/outbox.ts): its entry carries
// the event's `data`, and the event is written in the same transaction.

/** Who made a change. `label` is the email or key name as it is now: the record keeps it when it changes. */
export type Actor =
  | { type: "staff"; id: number; label: string }
  | { type: "api_key"; id: number; label: string }
  | { type: "cli"; label: string }
  | { type: "system"; label: string }
  | { type: "visitor"; label: string };

/** Who made a change, and from where: the client's address and the request's id, when it came over HTTP. */
export type AuditContext = {
  actor: Actor;
  clientAddress?: string;
  requestId?: string;
  /** What the change was part of, kept in the record's details as `via`: a CSV import and its line. */
  via?: { import: string; line: number };
};

// The catalogue of actions, with the words the Activity page shows for each, is lib/audit/actions.ts.
export { AUDIT_ACTIONS, type AuditAction } from "@/lib/audit/actions";

export type AuditTargetType = "pet" | "api_key" | "staff" | "category" | "order" | "webhook";

export type AuditEntry = {
  action: AuditAction;
  target: { type: AuditTargetType; id?: number | bigint | string; label?: string };
  /** Serialised as JSON (bigints digit for digit): a pet change's before and after, a new role… */
  details?: unknown;
  /** When it happened, if not now (recordAudit): the demo store's made-up history (lib/demo-seed.ts). */
  at?: Date;
  /**
   * The event of a change to a pet, an order or a category (required for those actions): the resource after the
   * change as its /v1 read shows it, and on changes the changed members' old values.
   */
  event?: Pick<EventRecord, "data" | "previous">;
};

/** The events of these entries, in their order; a pet, order or category change without one is a programming error. */
function eventsOf(entries: AuditEntry[]): EventRecord[] {
  return entries.flatMap(({ action, event, at }) => {
    if (!isEventType(action)) return [];
    if (!event) throw new Error(`an audit entry of ${action} must carry its event`);
    return [{ type: action, data: event.data, previous: event.previous, at }];
  });
}

/** The command-line tools, run on the server by someone with its shell. */
export const COMMAND_LINE: AuditContext = { actor: { type: "cli", label: "command line" } };
/** The app itself: the admin app's own key, the demo account made at first start. */
export const THE_APP: AuditContext = { actor: { type: "system", label: "the app" } };

function detailsOf(details: unknown, via: AuditContext["via"]): string | null {
  if (via) return stringifyJson({ ...(details as object | undefined), via });
  return details === undefined ? null : stringifyJson(details);
}

function auditRow(context: AuditContext, entry: AuditEntry) {
  const { actor } = context;
  return {
    actorType: actor.type,
    actorId: "id" in actor ? actor.id : null,
    actorLabel: actor.label,
    action: entry.action,
    targetType: entry.target.type,
    targetId: entry.target.id === undefined ? null : String(entry.target.id),
    targetLabel: entry.target.label ?? null,
    details: detailsOf(entry.details, context.via),
    clientAddress: context.clientAddress ?? null,
    requestId: context.requestId ?? null,
  };
}

/**
 * Appends one record of a change, inside the transaction that makes the change: recordAudits' statement, which,
 * being raw, skips Prisma's query interpreter (docs/decisions/024-hot-paths-as-raw-statements.md).
 */
export async function recordAudit(tx: Transaction, context: AuditContext, entry: AuditEntry): Promise<void> {
  await recordAudits(tx, [{ context, entry }], entry.at);
}

/**
 * The one INSERT of recordAudits, for each provider: every record from one JSON parameter (an array of the
 * columns' values, in AUDIT_COLUMNS' order, ids as text), so that its text and its prepared statement are the same
 * whatever the number of records (Prisma's createMany makes a statement of another shape for every number of rows).
 */
const AUDIT_COLUMNS = {
  actor_type: "actorType",
  actor_id: "actorId",
  actor_label: "actorLabel",
  action: "action",
  target_type: "targetType",
  target_id: "targetId",
  target_label: "targetLabel",
  details: "details",
  client_address: "clientAddress",
  request_id: "requestId",
} as const satisfies Record<string, keyof ReturnType<typeof auditRow>>;
const AUDIT_FIELDS = Object.values(AUDIT_COLUMNS);
const AUDIT_COLUMN_NAMES = Object.keys(AUDIT_COLUMNS).join(", ");
/** The columns' values from a JSON array element (`item`), in AUDIT_COLUMNS' order; actor_id as an integer. */
const auditValues = (item: string, integer: (text: string) => string) =>
  AUDIT_FIELDS.map((field, index) =>
    field === "actorId" ? integer(`${item} ->> ${index}`) : `${item} ->> ${index}`,
  ).join(", ");
const INSERT_AUDITS = {
  sqlite: `INSERT INTO audit_events (at, ${AUDIT_COLUMN_NAMES})
    SELECT ?, ${auditValues("value", (text) => `CAST(${text} AS INTEGER)`)} FROM json_each(?) ORDER BY key`,
  postgresql: `INSERT INTO audit_events (at, ${AUDIT_COLUMN_NAMES})
    SELECT CAST($1 AS timestamp(3)), ${auditValues("item", (text) => `(${text})::int`)}
    FROM jsonb_array_elements(CAST($2 AS jsonb)) WITH ORDINALITY AS items (item, position) ORDER BY position`,
};

/**
 * Appends the records of many changes in one statement of a fixed shape (INSERT_AUDITS), inside the transaction that
 * makes them (an import's batch, or recordAudit's one), every one at `at`.
 */
export async function recordAudits(
  tx: Transaction,
  records: { context: AuditContext; entry: AuditEntry }[],
  at = new Date(),
) {
  if (records.length === 0) return;
  const events = eventsOf(records.map(({ entry }) => entry)); // refuses an entry without its event before any write
  const rows = records.map(({ context, entry }) => {
    const row = auditRow(context, entry);
    return AUDIT_FIELDS.map((field) =>
      field === "actorId" && row.actorId !== null ? String(row.actorId) : row[field],
    );
  });
  await tx.$executeRawUnsafe(INSERT_AUDITS[dialect(tx)], at, JSON.stringify(rows));
  recordEvents(tx, events);
}
