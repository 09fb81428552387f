import "server-only";
import { setImmediate as nextTurn } from "node:timers/promises";
import { config } from "@/lib/config";
import { db, providerOf, type Database, type Transaction } from "@/lib/db/client";
import { log } from "@/lib/log";

// The exact number of pets of each status, as the 0009_pet_sort_orders migrations keep it. On SQLite, triggers
// update four rows of pet_status_counts. On PostgreSQL, where writers run at once, four counter rows would make
// each writer wait for the commit of the last one that changed a pet of the same status, so the triggers append
// a delta per statement and status instead (rows only ever inserted: no writer waits for another), and a count is
// its base row plus the sum of its deltas. Folding moves deltas into the base, bounded batch by bounded batch.
//
// Why a reader never counts a delta twice nor misses one: the read is one statement, so under READ COMMITTED it
// sees one snapshot of both tables; a fold is one statement too (one transaction), which deletes a batch of
// deltas and adds their sum to the base, so any snapshot sees either the deltas or the base holding them, never
// both, never neither. Deltas of writers not yet committed are in no fold's snapshot, so they are not folded.
// Two folds at once may pick the same deltas: the second waits for the first's row locks, then finds them gone
// and skips them (DELETE … RETURNING returns only the rows this statement deleted), and its update of a base row
// waits for the first's and then adds to the committed count.

/** Deltas one fold statement moves at most: a short statement, however large the backlog. */
export const FOLD_BATCH_SIZE = 1000;
/** Deltas a reader may find before it starts a fold in the background (housekeeping runs every 10 minutes). */
export const FOLD_WHEN_DELTAS = 10_000;

/**
 * PostgreSQL's read of the counts: each base plus the sum of its deltas (and how many deltas), in one statement.
 * Exported for the tests, which compare it with a recount of the pets in the same statement.
 */
export const POSTGRES_STATUS_COUNTS = `
  SELECT "counts"."status", CAST("counts"."count" + coalesce("sums"."delta", 0) AS TEXT) AS "count",
         CAST(coalesce("sums"."deltas", 0) AS TEXT) AS "deltas"
  FROM "pet_status_counts" AS "counts" LEFT JOIN (
    SELECT "status", sum("delta") AS "delta", count(*) AS "deltas" FROM "pet_status_count_deltas" GROUP BY "status"
  ) AS "sums" ON "sums"."status" = "counts"."status"`;

export type StatusCountRow = { status: string; count: number };

/**
 * The four counts, read in one statement (one snapshot) on PostgreSQL. A reader that finds many deltas (a busy
 * writer since housekeeping last ran) starts a fold, so the next reads sum few again.
 */
export async function readStatusCounts(tx: Transaction = db()): Promise<StatusCountRow[]> {
  if (config().database.provider === "sqlite") {
    const rows = await tx.petStatusCount.findMany({ select: { status: true, count: true } });
    return rows.map(({ status, count }) => ({ status, count: Number(count) }));
  }
  const rows: { status: string; count: string; deltas: string }[] = await tx.$queryRawUnsafe(POSTGRES_STATUS_COUNTS);
  const deltas = rows.reduce((sum, row) => sum + Number(row.deltas), 0);
  if (deltas >= FOLD_WHEN_DELTAS) foldSoon();
  return rows.map(({ status, count }) => ({ status, count: Number(count) }));
}

/** Folds at most `batchSize` of the oldest deltas into the base counts, in one statement; how many it folded. */
async function foldBatch(database: Database, batchSize: number): Promise<number> {
  const folded: { deltas: string }[] = await database.$queryRaw`
    WITH "folded" AS (
      DELETE FROM "pet_status_count_deltas" WHERE "id" IN (
        SELECT "id" FROM "pet_status_count_deltas" ORDER BY "id" LIMIT ${batchSize})
      RETURNING "status", "delta"
    ), "sums" AS (
      SELECT "status", sum("delta") AS "delta", count(*) AS "deltas" FROM "folded" GROUP BY "status"
    ), "updated" AS (
      UPDATE "pet_status_counts" AS "counts" SET "count" = "counts"."count" + "sums"."delta"
      FROM "sums" WHERE "counts"."status" = "sums"."status"
    )
    SELECT CAST(coalesce(sum("deltas"), 0) AS TEXT) AS "deltas" FROM "sums"`;
  return Number(folded[0].deltas);
}

/**
 * Folds every delta committed so far into the base counts, `batchSize` at a time, each batch its own short
 * statement; stops at a batch that folds fewer. Nothing to do on SQLite: `{ rows: 0, batches: 0 }`.
 */
export async function foldStatusCountDeltas(
  database: Database = db(),
  batchSize = FOLD_BATCH_SIZE,
): Promise<{ rows: number; batches: number }> {
  const sweep = { rows: 0, batches: 0 };
  if (providerOf(database) === "sqlite") return sweep;
  for (;;) {
    const folded = await foldBatch(database, batchSize);
    sweep.rows += folded;
    sweep.batches++;
    if (folded < batchSize) return sweep;
    await nextTurn(); // requests waiting for the event loop go first
  }
}

let folding = false;

/** Starts a fold of the process's database in the background, unless one of this process is running. */
function foldSoon(): void {
  if (folding) return;
  folding = true;
  foldStatusCountDeltas()
    .catch((error) => log("warn", "folding status count deltas failed", { error: String(error) }))
    .finally(() => {
      folding = false;
    });
}
