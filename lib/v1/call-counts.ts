import "server-only";
import { db } from "@/lib/db/client";
import { log } from "@/lib/log";

// How often each API key calls the deprecated getPet, per UTC day, so that the keys page and the key tool can
// say who still calls it before its sunset. Counting costs a request no database write (the same care as "last
// used" in lib/auth/api-keys.ts): calls are added up in memory per (key, day) with the time of the last one,
// and every FLUSH_INTERVAL_MS, and at graceful shutdown (server.ts), each (key, day) is written with one upsert
// that ADDS to the stored count, so any number of instances sharing a database add up. A crash loses at most
// the calls of its last interval.
// The tally is kept on globalThis: server.ts's fast path for /v1 and Next's bundles of the route files are
// separate module graphs of one process, and they must share one tally and one timer.

export const FLUSH_INTERVAL_MS = 10_000;
/** The operations counted: getPet alone, the deprecated one. */
export type CountedOperation = "getPet";
const DAY_MS = 24 * 60 * 60 * 1000;
/** The days the keys page sums up: today (UTC) and the 29 before it. */
export const CALL_COUNT_DAYS = 30;

type Tally = { apiKeyId: number; operation: CountedOperation; day: string; count: number; lastAt: number };
type Counter = { pending: Map<string, Tally>; timer?: NodeJS.Timeout; flushing?: Promise<void> };

const holder = globalThis as typeof globalThis & { __animalStoreCallCounts?: Counter };

function counter(): Counter {
  holder.__animalStoreCallCounts ??= { pending: new Map() };
  return holder.__animalStoreCallCounts;
}

/** The UTC day of an instant, as the table stores it: "YYYY-MM-DD". The last day made is kept: every call asks. */
let lastDay = { from: 0, to: 0, day: "" };
export function utcDay(at: number): string {
  if (at >= lastDay.from && at < lastDay.to) return lastDay.day;
  const from = at - (((at % DAY_MS) + DAY_MS) % DAY_MS);
  lastDay = { from, to: from + DAY_MS, day: new Date(at).toISOString().slice(0, 10) };
  return lastDay.day;
}

function add(pending: Map<string, Tally>, tally: Tally): void {
  const id = `${tally.apiKeyId} ${tally.operation} ${tally.day}`;
  const known = pending.get(id);
  if (!known) pending.set(id, { ...tally });
  else {
    known.count += tally.count;
    known.lastAt = Math.max(known.lastAt, tally.lastAt);
  }
}

/** Counts one call of the operation by this key, in memory; the next flush writes it. */
export function countCall(apiKeyId: number, operation: CountedOperation, at = Date.now()): void {
  const state = counter();
  add(state.pending, { apiKeyId, operation, day: utcDay(at), count: 1, lastAt: at });
  state.timer ??= setInterval(() => {
    flushCallCounts().catch((error: unknown) => log("warn", "call counts not written", { error: String(error) }));
  }, FLUSH_INTERVAL_MS).unref(); // never what keeps a process alive
}

/** Adds one (key, operation, day)'s calls to its stored row: a count added, never overwritten. */
async function addToStored({ apiKeyId, operation, day, count, lastAt }: Tally): Promise<void> {
  await db().$executeRaw`
    INSERT INTO api_key_daily_calls (api_key_id, operation, day, count, last_at)
    VALUES (${apiKeyId}, ${operation}, ${day}, ${count}, ${new Date(lastAt)})
    ON CONFLICT (api_key_id, operation, day) DO UPDATE SET
      count = api_key_daily_calls.count + excluded.count,
      last_at = CASE WHEN excluded.last_at > api_key_daily_calls.last_at
        THEN excluded.last_at ELSE api_key_daily_calls.last_at END`;
}

/**
 * Writes the calls counted so far, one upsert per (key, operation, day). Calls counted meanwhile wait for the
 * next flush; when the database is away, what was not written is kept for the next one.
 */
export async function flushCallCounts(): Promise<void> {
  const state = counter();
  while (state.flushing) await state.flushing; // one flush at a time: each adds what it took, once
  if (state.pending.size === 0) return;
  const taken = [...state.pending.values()];
  state.pending.clear();
  const flushing = (async () => {
    for (const [index, tally] of taken.entries()) {
      try {
        await addToStored(tally);
      } catch (error) {
        for (const unwritten of taken.slice(index)) add(state.pending, unwritten);
        throw error;
      }
    }
  })();
  state.flushing = flushing.then(
    () => undefined,
    () => undefined,
  );
  try {
    await flushing;
  } finally {
    state.flushing = undefined;
  }
}

export type CallSummary = { last30Days: number; lastCallAt: Date | null };

/**
 * Each key's getPet calls as written so far: the count over the last 30 UTC days (today included) and the time
 * of its last call ever; keys never counted get 0 and null. Calls of the last flush interval are not in yet.
 */
export async function getPetCalls(keyIds: number[], now = new Date()): Promise<Map<number, CallSummary>> {
  const since = utcDay(now.getTime() - (CALL_COUNT_DAYS - 1) * DAY_MS);
  const where = { apiKeyId: { in: keyIds }, operation: "getPet" };
  const [recent, latest] = await Promise.all([
    db().apiKeyDailyCalls.groupBy({
      by: ["apiKeyId"],
      where: { ...where, day: { gte: since } },
      _sum: { count: true },
    }),
    db().apiKeyDailyCalls.groupBy({ by: ["apiKeyId"], where, _max: { lastAt: true } }),
  ]);
  const summaries = new Map<number, CallSummary>(keyIds.map((id) => [id, { last30Days: 0, lastCallAt: null }]));
  for (const row of recent) summaries.get(row.apiKeyId)!.last30Days = Number(row._sum.count ?? 0);
  for (const row of latest) summaries.get(row.apiKeyId)!.lastCallAt = row._max.lastAt;
  return summaries;
}
