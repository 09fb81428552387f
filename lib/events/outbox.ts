import "server-only";
import { dialect, type Transaction } from "@/lib/db/client";
import { stringifyJson } from "@/lib/http/json";
import { EVENT_TYPES, type EventType } from "@/lib/events/schema";

// The outbox: every change to a pet, an order or a category writes one event row in the transaction that makes it
// (the feed, /v1/events, reads them). Its writes are held until the transaction's work is done and written last,
// just before the commit (transaction() in lib/db/client.ts calls flushEvents), for the follower's sake:
//
// A follower asks for the events after the last id it saw, so an event must never become visible below an id
// already served. On PostgreSQL a sequence value taken early can commit late, so the rows are inserted under one
// transaction-level advisory lock, held to the commit: ids are taken in commit order, and a transaction that takes
// one waits until every earlier taker has committed or rolled back (docs/decisions/015). Taking the lock last keeps
// that wait to the insert and the commit, and means no transaction waits for a row while holding it, so the lock
// adds no deadlock. SQLite has one writer at a time: its ids are in commit order already.

/** The advisory lock's key: "events" in ASCII. */
export const EVENTS_LOCK = 0x6576656e7473n;

/** One event as written: what the change made the resource (its /v1 read), and the changed members' old values. */
export type EventRecord = { type: EventType; data: unknown; previous?: Record<string, unknown>; at?: Date };

type PendingWrite = (tx: Transaction) => Promise<unknown>;

/** The writes each open transaction() holds, in the order they were asked for. */
const pending = new WeakMap<Transaction, PendingWrite[]>();

/** Marks `tx` as one that takes event writes; transaction() calls it when it starts one. */
export function openOutbox(tx: Transaction): void {
  pending.set(tx, []);
}

function queueOf(tx: Transaction): PendingWrite[] {
  const queue = pending.get(tx);
  // A programming error, not a request's: an event written outside transaction() would never be flushed.
  if (!queue) throw new Error("events are written in a transaction begun by transaction() (lib/db/client.ts)");
  return queue;
}

/** A time as Prisma writes it in each database (PostgreSQL's timestamp(3) takes it too, ignoring the offset). */
export function timeText(at: Date): string {
  return at.toISOString().replace("Z", "+00:00");
}

/** The one INSERT of recordEvents, for each provider: every row from one JSON parameter, in the array's order. */
const INSERT_EVENTS = {
  sqlite: `INSERT INTO events (type, occurred_at, data, previous)
    SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3 FROM json_each(?) ORDER BY key`,
  postgresql: `INSERT INTO events (type, occurred_at, data, previous)
    SELECT item ->> 0, CAST(item ->> 1 AS timestamp(3)), item ->> 2, item ->> 3
    FROM jsonb_array_elements(CAST($1 AS jsonb)) WITH ORDINALITY AS items (item, position) ORDER BY position`,
};

/** Queues events of `tx`'s changes, written at its end in the order given. */
export function recordEvents(tx: Transaction, events: EventRecord[]): void {
  if (events.length === 0) return;
  const now = new Date();
  const rows = events.map(({ type, data, previous, at }) => [
    type,
    timeText(at ?? now),
    stringifyJson(data),
    previous === undefined ? null : stringifyJson(previous),
  ]);
  queueOf(tx).push((tx) => tx.$executeRawUnsafe(INSERT_EVENTS[dialect(tx)], JSON.stringify(rows)));
}

/**
 * Queues an INSERT … SELECT of events made in SQL (a bulk change's, one per row of a table), written at `tx`'s end
 * like the rest. `sql` is the statement for this database; `parameters` its values.
 */
export function recordEventsInSql(tx: Transaction, sql: string, parameters: unknown[] = []): void {
  queueOf(tx).push((tx) => tx.$executeRawUnsafe(sql, ...parameters));
}

/** Writes `tx`'s queued events, under the events lock on PostgreSQL; the last statements before its commit. */
export async function flushEvents(tx: Transaction): Promise<void> {
  const queue = pending.get(tx);
  pending.delete(tx);
  if (!queue?.length) return;
  if (dialect(tx) === "postgresql") await tx.$executeRawUnsafe("SELECT pg_advisory_xact_lock($1)", EVENTS_LOCK);
  for (const write of queue) await write(tx);
}

/** Whether an audit action is also an event's type (every change to a pet, an order or a category). */
export function isEventType(action: string): action is EventType {
  return (EVENT_TYPES as readonly string[]).includes(action);
}

/**
 * The members whose values differ between two states of a resource, each as it was (an absent one as null): an
 * update event's `previous`.
 */
export function previousValues(before: object, after: object): Record<string, unknown> {
  const was = before as Record<string, unknown>;
  const is = after as Record<string, unknown>;
  const previous: Record<string, unknown> = {};
  for (const member of new Set([...Object.keys(was), ...Object.keys(is)]))
    if (was[member] !== is[member]) previous[member] = was[member] ?? null;
  return previous;
}
