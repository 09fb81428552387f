import "server-only";
import { setImmediate as nextTurn } from "node:timers/promises";
import { config } from "@/lib/config";
import { db, transaction, type Database } from "@/lib/db/client";
import { signInThrottleCutoffs } from "@/lib/auth/sign-in-throttle";
import { IDEMPOTENCY_TTL_MS } from "@/lib/idempotency";
import { deleteEventsBefore } from "@/lib/events/store";
import { expireLapsedOrders } from "@/lib/orders/store";
import { foldStatusCountDeltas } from "@/lib/pets/status-counts";
import { RESTORE_WINDOW_MS } from "@/lib/pets/store";
import { photoImages } from "@/lib/photos/storage";
import { oldestRateLimitWindowKept } from "@/lib/rate-limit";

// Deletes the rows nothing needs any more: idempotency records past their 24 hours, rate-limit counters
// of windows long past, expired staff sessions, sign-in counts of ended windows, sign-in locks long
// quiet, activity records older than AUDIT_RETENTION_DAYS when it is set (the append-only trigger
// refuses UPDATE, not DELETE), and events older than EVENT_RETENTION_DAYS; and, on PostgreSQL, folds the pet
// status counts' deltas into their base rows (lib/pets/status-counts.ts), and removes the photos of pets deleted for
// longer than a restore may take. The server runs it at start and every 10 minutes.
//
// Each kind is deleted in batches: one short statement deletes at most `batchSize` rows, chosen by
// primary key through an index on the expiry column where there is one, and commits on its own; the
// next batch follows after a turn of the event loop, until a batch finds fewer rows than it may delete.
// However large the backlog (an instance that was down for a week, say), one run catches up with it,
// and no statement comes near PostgreSQL's 5 s statement timeout, nor holds SQLite's single writer for
// long while requests wait. Raw SQL, because Prisma's deleteMany has no LIMIT; the forms used here
// (a row value IN a subquery with LIMIT) mean the same on SQLite and PostgreSQL.

export const HOUSEKEEPING_BATCH_SIZE = 1000;

/** What one run deleted of one kind, and in how many statements. */
export type Sweep = { rows: number; batches: number };
export type HousekeepingReport = {
  idempotencyRecords: Sweep;
  rateLimitCounters: Sweep;
  staffSessions: Sweep;
  signInThrottles: Sweep;
  signInLocks: Sweep;
  /** No batch at all when AUDIT_RETENTION_DAYS is 0: every record is kept. */
  auditEvents: Sweep;
  /** Deltas folded into the status counts; none on SQLite (0 batches), which keeps its counts directly. */
  petStatusCountDeltas: Sweep;
  /** Placed orders whose hold ended, expired (a batch counted as one). */
  expiredOrders: Sweep;
  /** Events older than EVENT_RETENTION_DAYS, oldest first. */
  events: Sweep;
  /** Webhook deliveries done (succeeded or failed) and made longer than EVENT_RETENTION_DAYS ago. */
  webhookDeliveries: Sweep;
  /** Photos of pets deleted longer ago than a restore may take, with their images. */
  photos: Sweep;
};

/** Runs `deleteBatch` (which deletes at most `batchSize` rows) until a batch deletes fewer. */
async function inBatches(batchSize: number, deleteBatch: () => Promise<number>): Promise<Sweep> {
  const sweep: Sweep = { rows: 0, batches: 0 };
  for (;;) {
    const deleted = await deleteBatch();
    sweep.rows += deleted;
    sweep.batches++;
    if (deleted < batchSize) return sweep;
    await nextTurn(); // requests waiting for the event loop (and, on SQLite, for the connection) go first
  }
}

/**
 * Deletes every expired row, in batches of `batchSize`. The kinds run one after the other, so that on
 * SQLite no two deletions compete for the one connection.
 */
export async function runHousekeeping({
  database = db(),
  batchSize = HOUSEKEEPING_BATCH_SIZE,
  now = new Date(),
  auditRetentionDays = config().AUDIT_RETENTION_DAYS,
  eventRetentionDays = config().EVENT_RETENTION_DAYS,
}: {
  database?: Database;
  batchSize?: number;
  now?: Date;
  auditRetentionDays?: number;
  eventRetentionDays?: number;
} = {}): Promise<HousekeepingReport> {
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize ${batchSize} is not a count`);

  const recordsCreatedBefore = new Date(now.getTime() - IDEMPOTENCY_TTL_MS);
  const idempotencyRecords = await inBatches(
    batchSize,
    () => database.$executeRaw`
      DELETE FROM "idempotency_records" WHERE ("api_key_id", "key") IN (
        SELECT "api_key_id", "key" FROM "idempotency_records" WHERE "created_at" < ${recordsCreatedBefore}
        LIMIT ${batchSize})`,
  );

  // Should a counter's primary key ever grow beyond (api_key_id, window_start), a batch still deletes only
  // expired counters: whatever shares an old window with a chosen row is as old.
  const windowsBefore = oldestRateLimitWindowKept(now.getTime());
  const rateLimitCounters = await inBatches(
    batchSize,
    () => database.$executeRaw`
      DELETE FROM "rate_limit_counters" WHERE ("api_key_id", "window_start") IN (
        SELECT "api_key_id", "window_start" FROM "rate_limit_counters" WHERE "window_start" < ${windowsBefore}
        LIMIT ${batchSize})`,
  );

  // A session is over from its expiresAt on (lib/auth/sessions.ts).
  const staffSessions = await inBatches(
    batchSize,
    () => database.$executeRaw`
      DELETE FROM "staff_sessions" WHERE "id" IN (
        SELECT "id" FROM "staff_sessions" WHERE "expires_at" <= ${now} LIMIT ${batchSize})`,
  );

  // Sign-in limits (lib/auth/sign-in-throttle.ts): counts of ended windows; a pair's failures once quiet
  // for a day, and an address the staff member signed in from once unused for KNOWN_ADDRESS_DAYS.
  const { windowsBefore: signInWindowsBefore, quietBefore, knownBefore } = signInThrottleCutoffs(now);
  const signInThrottles = await inBatches(
    batchSize,
    () => database.$executeRaw`
      DELETE FROM "sign_in_throttles" WHERE ("bucket", "window_start") IN (
        SELECT "bucket", "window_start" FROM "sign_in_throttles" WHERE "window_start" < ${signInWindowsBefore}
        LIMIT ${batchSize})`,
  );
  const signInLocks = await inBatches(
    batchSize,
    () => database.$executeRaw`
      DELETE FROM "sign_in_locks" WHERE ("email", "address") IN (
        SELECT "email", "address" FROM "sign_in_locks"
        WHERE ("signed_in_at" IS NULL AND "updated_at" < ${quietBefore}) OR "updated_at" < ${knownBefore}
        LIMIT ${batchSize})`,
  );

  // Activity records past their retention, oldest first through the index on "at"; none while it is 0.
  const recordedBefore = new Date(now.getTime() - auditRetentionDays * 24 * 60 * 60_000);
  const auditEvents =
    auditRetentionDays > 0
      ? await inBatches(
          batchSize,
          () => database.$executeRaw`
            DELETE FROM "audit_events" WHERE "id" IN (
              SELECT "id" FROM "audit_events" WHERE "at" < ${recordedBefore} LIMIT ${batchSize})`,
        )
      : { rows: 0, batches: 0 };

  const petStatusCountDeltas = await foldStatusCountDeltas(database, batchSize);

  // Placed orders past their hold: expired, their pets available again (lib/orders/store.ts; requests do it too).
  const expiredOrders = { rows: await expireLapsedOrders(now, database), batches: 1 };

  // Events past their retention (after the expiries, whose events are new), oldest first (lib/events/store.ts).
  const eventsBefore = new Date(now.getTime() - eventRetentionDays * 24 * 60 * 60_000);
  const events = await deleteEventsBefore(eventsBefore, batchSize, database);

  // Webhook deliveries are kept as long as their events, for the Webhooks page; a pending one stays until it ends.
  const webhookDeliveries = await inBatches(
    batchSize,
    () => database.$executeRaw`
      DELETE FROM "webhook_deliveries" WHERE "id" IN (
        SELECT "id" FROM "webhook_deliveries" WHERE "state" <> 'pending' AND "created_at" < ${eventsBefore}
        LIMIT ${batchSize})`,
  );

  const photos = await sweepPhotos(database, now, Math.min(batchSize, PHOTO_BATCH_SIZE));

  return {
    idempotencyRecords,
    rateLimitCounters,
    staffSessions,
    signInThrottles,
    signInLocks,
    auditEvents,
    petStatusCountDeltas,
    expiredOrders,
    events,
    webhookDeliveries,
    photos,
  };
}

/** Photos per statement: each holds a few images of up to megabytes, so far fewer than other rows. */
const PHOTO_BATCH_SIZE = 50;

/**
 * The photos of deleted pets (lib/photos/store.ts): marked when first found without their pet, unmarked if the pet
 * came back (a restore), and deleted with their images at a later run once marked longer than a restore may take.
 * Pet ids are never given again, so a photo without its pet past RESTORE_WINDOW_MS never has one again.
 */
async function sweepPhotos(database: Database, now: Date, batchSize: number): Promise<Sweep> {
  await inBatches(
    batchSize,
    () => database.$executeRaw`
      UPDATE "photos" SET "pet_deleted_at" = NULL WHERE "id" IN (
        SELECT "id" FROM "photos" WHERE "pet_deleted_at" IS NOT NULL
        AND EXISTS (SELECT 1 FROM "pets" WHERE "pets"."id" = "photos"."pet_id") LIMIT ${batchSize})`,
  );
  await inBatches(
    batchSize,
    () => database.$executeRaw`
      UPDATE "photos" SET "pet_deleted_at" = ${now} WHERE "id" IN (
        SELECT "id" FROM "photos" WHERE "pet_deleted_at" IS NULL
        AND NOT EXISTS (SELECT 1 FROM "pets" WHERE "pets"."id" = "photos"."pet_id") LIMIT ${batchSize})`,
  );
  const markedBefore = new Date(now.getTime() - RESTORE_WINDOW_MS);
  return inBatches(batchSize, async () => {
    const doomed = await database.photo.findMany({
      where: { petDeletedAt: { lt: markedBefore } },
      select: { id: true, petId: true },
      take: batchSize,
    });
    const ids = doomed.map((photo) => photo.id);
    if (ids.length === 0) return 0;
    await transaction(
      async (tx) => {
        await photoImages().remove(tx, ids);
        await tx.photo.deleteMany({ where: { id: { in: ids } } });
      },
      undefined,
      database,
    );
    return ids.length;
  });
}
