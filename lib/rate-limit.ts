import { config } from "@/lib/config";
import { db } from "@/lib/db/client";

// Per-API-key rate limits in fixed windows, counted in the database so every instance sees them.
// Far from the limit an instance counts in memory and adds its count to the shared row every 200 ms;
// within the last tenth of the quota (or 20 requests) every request is counted in the database at
// once, so the limit itself is exact however many instances share the load.

export type RateLimitState = { limit: number; remaining: number; resetSeconds: number; windowSeconds: number; allowed: boolean };

type Window = { start: number; synced: number; pending: number };

const FLUSH_INTERVAL_MS = 200;
const windows = new Map<number, Window>();
let flushTimer: NodeJS.Timeout | undefined;

function policy() {
  const { RATE_LIMIT_REQUESTS: limit, RATE_LIMIT_WINDOW_SECONDS: windowSeconds } = config();
  return { limit, windowSeconds, margin: Math.max(20, Math.ceil(limit / 10)) };
}

/** Adds `count` requests to the shared counter of a key's window; returns the new total. */
async function addToCounter(apiKeyId: number, windowStart: number, count: number): Promise<number> {
  const rows = await db().$queryRaw<{ count: number | bigint }[]>`
    INSERT INTO rate_limit_counters (api_key_id, window_start, count) VALUES (${apiKeyId}, ${BigInt(windowStart)}, ${count})
    ON CONFLICT (api_key_id, window_start) DO UPDATE SET count = rate_limit_counters.count + excluded.count
    RETURNING count`;
  return Number(rows[0].count);
}

async function flush(): Promise<void> {
  for (const [apiKeyId, window] of windows) {
    if (window.pending === 0) continue;
    const pending = window.pending;
    window.pending = 0;
    try {
      window.synced = await addToCounter(apiKeyId, window.start, pending);
    } catch {
      window.pending += pending; // the database is away: keep the count and try again next time
    }
  }
}

/** Counts one request of a key; `allowed` is false when the key has used up its window. */
export async function consumeRateLimit(apiKeyId: number): Promise<RateLimitState | undefined> {
  const { limit, windowSeconds, margin } = policy();
  if (limit === 0) return undefined; // rate limiting is switched off
  const now = Date.now() / 1000;
  const start = Math.floor(now / windowSeconds) * windowSeconds;
  let window = windows.get(apiKeyId);
  if (!window || window.start !== start) {
    window = { start, synced: 0, pending: 0 };
    windows.set(apiKeyId, window);
  }
  const resetSeconds = Math.max(1, Math.ceil(start + windowSeconds - now));
  const state = (used: number, allowed: boolean): RateLimitState => ({ limit, remaining: Math.max(0, limit - used), resetSeconds, windowSeconds, allowed });

  if (window.synced + window.pending >= limit) return state(limit, false);
  if (limit - (window.synced + window.pending) > margin) {
    window.pending++;
    flushTimer ??= setInterval(() => void flush(), FLUSH_INTERVAL_MS).unref();
    return state(window.synced + window.pending, true);
  }
  const pending = window.pending;
  window.pending = 0;
  window.synced = await addToCounter(apiKeyId, start, pending + 1);
  return state(window.synced, window.synced <= limit);
}

/** Drops counters of windows long past; called now and then by the server. */
export async function deleteOldRateLimitCounters(): Promise<void> {
  const { windowSeconds } = policy();
  await db().rateLimitCounter.deleteMany({ where: { windowStart: { lt: BigInt(Math.floor(Date.now() / 1000) - 2 * windowSeconds) } } });
}

/** The IETF RateLimit and RateLimit-Policy fields (draft-ietf-httpapi-ratelimit-headers) for a state. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return { ...rateLimitPolicyHeader(), RateLimit: `"per-key";r=${state.remaining};t=${state.resetSeconds}` };
}

/** The policy alone, for answers given before a key is known (401s, the OpenAPI document). */
export function rateLimitPolicyHeader(): Record<string, string> {
  const { limit, windowSeconds } = policy();
  return limit === 0 ? {} : { "RateLimit-Policy": `"per-key";q=${limit};w=${windowSeconds}` };
}
