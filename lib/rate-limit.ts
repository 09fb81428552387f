import "server-only";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";

// Per-API-key rate limits in fixed windows, counted in the database so every instance sees them. A key
// may hold several buckets, one per subject: its client's (""), and within the admin app's key one per
// staff member ("staff:<id>"), so that no staff member can use up another's quota. A request costs one,
// or more when it is worth several (a CSV import, by its size: lib/admin/guard.ts).
// Far from the limit an instance counts in memory and adds its count to the shared row every 200 ms;
// within the last tenth of the quota (or the last 20 requests) every request is counted in the
// database at once, and only if its whole cost fits: a refused request adds nothing, so an import too
// large for what is left does not use up the rest. On one instance the limit is exact. Across instances
// each one learns the others' in-memory counts at its next sync, so a burst spread over N instances can
// pass the quota by what the others admitted in their last 200 ms far from it — never by more than
// their share of that margin.

export type RateLimitState = {
  /** The policy's name in the RateLimit fields: "per-key", or "per-staff" for a staff member's bucket. */
  policy: string;
  limit: number;
  remaining: number;
  resetSeconds: number;
  windowSeconds: number;
  allowed: boolean;
};

// synced: the shared count as last read; pending: admitted here, not yet added to the row; inflight:
// being added right now. Every decision counts all three.
type Window = { apiKeyId: number; subject: string; start: number; synced: number; pending: number; inflight: number };

const FLUSH_INTERVAL_MS = 200;
const windows = new Map<string, Window>(); // by bucket: `${apiKeyId}/${subject}`
let flushTimer: NodeJS.Timeout | undefined;

function policy() {
  const { RATE_LIMIT_REQUESTS: limit, RATE_LIMIT_WINDOW_SECONDS: windowSeconds } = config();
  return { limit, windowSeconds, margin: Math.max(20, Math.ceil(limit / 10)) };
}

/** The largest count a counter's column holds (INTEGER): a ceiling that every total stays within. */
const NO_CEILING = 2 ** 31 - 1;

/**
 * Adds `count` requests to the shared counter of a bucket's window and returns the new total, only when the total
 * stays within `ceiling` (else adds nothing and returns undefined).
 */
async function addToCounter(
  { apiKeyId, subject, start }: Window,
  count: number,
  ceiling = NO_CEILING,
): Promise<number | undefined> {
  const rows = await db().$queryRaw<{ count: number | bigint }[]>`
    INSERT INTO rate_limit_counters (api_key_id, subject, window_start, count)
    VALUES (${apiKeyId}, ${subject}, ${BigInt(start)}, ${count})
    ON CONFLICT (api_key_id, subject, window_start) DO UPDATE SET count = rate_limit_counters.count + excluded.count
    WHERE rate_limit_counters.count + excluded.count <= ${ceiling}
    RETURNING count`;
  return rows.length === 0 ? undefined : Number(rows[0].count);
}

/** The shared counter of a bucket's window as it stands. */
async function readCounter({ apiKeyId, subject, start }: Window): Promise<number> {
  const rows = await db().$queryRaw<{ count: number | bigint }[]>`
    SELECT count FROM rate_limit_counters
    WHERE api_key_id = ${apiKeyId} AND subject = ${subject} AND window_start = ${BigInt(start)}`;
  return rows.length === 0 ? 0 : Number(rows[0].count);
}

/** Adds a window's pending count to the shared row and learns the total, counting it as inflight meanwhile. */
async function sync(window: Window): Promise<number> {
  const adding = window.pending;
  window.pending = 0;
  window.inflight += adding;
  try {
    const total = (await addToCounter(window, adding))!;
    window.synced = Math.max(window.synced, total);
    return total;
  } catch (error) {
    window.pending += adding; // the database is away: keep this instance's count for next time
    throw error;
  } finally {
    window.inflight -= adding;
  }
}

/**
 * Counts a request of `cost` in the shared row at once, after this instance's pending count, if the total then
 * stays within `limit`: the total it learnt, and whether the request was counted.
 */
async function syncAndAdmit(
  window: Window,
  cost: number,
  limit: number,
): Promise<{ total: number; admitted: boolean }> {
  if (window.pending > 0) await sync(window);
  window.inflight += cost;
  try {
    const total = await addToCounter(window, cost, limit);
    if (total !== undefined) {
      window.synced = Math.max(window.synced, total);
      return { total, admitted: true };
    }
  } finally {
    window.inflight -= cost;
  }
  const total = await readCounter(window);
  window.synced = Math.max(window.synced, total);
  return { total, admitted: false };
}

async function flush(): Promise<void> {
  for (const window of windows.values()) {
    if (window.pending > 0) await sync(window).catch(() => {});
  }
}

/**
 * Counts a request of a key's bucket (`subject`: "" for the key's client, "staff:<id>" for a staff member
 * behind the admin app's key) as `cost` requests; `allowed` is false when the bucket's window has not that many
 * left, and then nothing is counted.
 */
export async function consumeRateLimit(apiKeyId: number, subject = "", cost = 1): Promise<RateLimitState | undefined> {
  const { limit, windowSeconds, margin } = policy();
  if (limit === 0) return undefined; // rate limiting is switched off
  const now = Date.now() / 1000;
  const start = Math.floor(now / windowSeconds) * windowSeconds;
  const bucket = `${apiKeyId}/${subject}`;
  let window = windows.get(bucket);
  if (window?.start !== start) {
    window = { apiKeyId, subject, start, synced: 0, pending: 0, inflight: 0 };
    windows.set(bucket, window);
  }
  const resetSeconds = Math.max(1, Math.ceil(start + windowSeconds - now));
  const state = (used: number, allowed: boolean): RateLimitState => ({
    policy: subject.startsWith("staff:") ? "per-staff" : "per-key",
    limit,
    remaining: Math.max(0, limit - used),
    resetSeconds,
    windowSeconds,
    allowed,
  });

  const known = () => window.synced + window.pending + window.inflight;
  // A request costing more than the whole quota costs the whole quota: it fits a fresh window, never more.
  cost = Math.min(cost, limit);
  // The shared row already says so. What is left is told with this process's counts not yet written to it, as an
  // admitted request's is (it said 32 left after one that said 31, when those were still pending).
  if (window.synced + cost > limit) return state(known(), false);
  if (limit - known() - cost >= margin) {
    window.pending += cost;
    flushTimer ??= setInterval(() => void flush(), FLUSH_INTERVAL_MS).unref();
    return state(known(), true);
  }
  // Near the quota: this request is counted in the shared row before it is let through, and only if the row's
  // new total, which includes it, is still within the quota.
  const { total, admitted } = await syncAndAdmit(window, cost, limit);
  return state(total, admitted);
}

/** The window_start before which counters are long past, for housekeeping (lib/housekeeping.ts) to delete. */
export function oldestRateLimitWindowKept(now = Date.now()): bigint {
  const { windowSeconds } = policy();
  return BigInt(Math.floor(now / 1000) - 2 * windowSeconds);
}

/** The IETF RateLimit and RateLimit-Policy fields (draft-ietf-httpapi-ratelimit-headers) for a state. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    ...rateLimitPolicyHeader(state.policy),
    RateLimit: `"${state.policy}";r=${state.remaining};t=${state.resetSeconds}`,
  };
}

/** The policy alone, for answers given before a key is known (401s, the OpenAPI document). */
export function rateLimitPolicyHeader(name = "per-key"): Record<string, string> {
  const { limit, windowSeconds } = policy();
  return limit === 0 ? {} : { "RateLimit-Policy": `"${name}";q=${limit};w=${windowSeconds}` };
}
