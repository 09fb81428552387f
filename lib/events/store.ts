import "server-only";
import { setImmediate as nextTurn } from "node:timers/promises";
import { db, type Database } from "@/lib/db/client";
import type { EventType } from "@/lib/events/schema";

// Reading the outbox (lib/events/outbox.ts writes it): the feed's pages, and housekeeping's deletion of old events.

/** An event as stored: `data` and `previous` are JSON text, written by the outbox. */
export type StoredEvent = { id: bigint; type: string; occurredAt: Date; data: string; previous: string | null };

/**
 * The events after `after` in id order, at most `limit`, of the given types if any: the primary key's range, or
 * the (type, id) index when filtered.
 */
export async function listEvents(
  { after, limit, types }: { after: bigint; limit: number; types?: EventType[] },
  database: Database = db(),
): Promise<StoredEvent[]> {
  return database.event.findMany({
    where: { id: { gt: after }, ...(types && { type: { in: types } }) },
    orderBy: { id: "asc" },
    take: limit,
    select: { id: true, type: true, occurredAt: true, data: true, previous: true },
  });
}

/** An event as the feed's JSON: its data and previous are the outbox's JSON text, put in as they are. */
export function eventJson(event: StoredEvent): string {
  const previous = event.previous === null ? "" : `,"previous":${event.previous}`;
  return (
    `{"id":${event.id},"type":${JSON.stringify(event.type)},"occurredAt":"${event.occurredAt.toISOString()}",` +
    `"data":${event.data}${previous}}`
  );
}

/**
 * Deletes the events that occurred before `before`, oldest first, at most `batchSize` a statement, each batch
 * committed alone with a turn of the event loop between; returns how many rows and statements. The oldest are the
 * lowest ids, so a batch walks the primary key and stops at the first event kept.
 */
export async function deleteEventsBefore(
  before: Date,
  batchSize: number,
  database: Database = db(),
): Promise<{ rows: number; batches: number }> {
  const sweep = { rows: 0, batches: 0 };
  for (;;) {
    const oldest = await database.event.findMany({
      orderBy: { id: "asc" },
      take: batchSize,
      select: { id: true, occurredAt: true },
    });
    // A prefix: the demo's made-up history can put an older time behind a newer one, which waits for it.
    const kept = oldest.findIndex((event) => event.occurredAt >= before);
    const due = kept === -1 ? oldest : oldest.slice(0, kept);
    const last = due.at(-1);
    const deleted = last ? (await database.event.deleteMany({ where: { id: { lte: last.id } } })).count : 0;
    sweep.rows += deleted;
    sweep.batches++;
    if (kept !== -1 || due.length < batchSize) return sweep;
    await nextTurn();
  }
}
