import "server-only";
import os from "node:os";
import { THE_APP } from "@/lib/audit/record";
import { config } from "@/lib/config";
import { db, transaction } from "@/lib/db/client";
import { timeText } from "@/lib/events/outbox";
import { eventJson } from "@/lib/events/store";
import { log } from "@/lib/log";
import { sendAttempt, type AttemptResult } from "@/lib/webhooks/send";
import { signatures } from "@/lib/webhooks/sign";
import { setEndpointState, typesOf } from "@/lib/webhooks/store";

// The webhook worker, one per server process (server.ts starts it). Each step:
// 1. Fan-out: for each enabled endpoint, the events after its position become deliveries of the types it takes,
//    and its position moves on, in one transaction (on PostgreSQL under the endpoint's row lock, skipped by another
//    instance holding it): every event after an endpoint's creation gets exactly one delivery.
// 2. Claim: due deliveries are leased in one statement (PostgreSQL: FOR UPDATE SKIP LOCKED), which counts the
//    attempt and moves its next time a lease ahead. Instances on one database never claim the same attempt; a
//    process killed mid-attempt leaves the delivery due again when the lease ends: sent again, never lost.
// 3. Send, then record the outcome only if the lease is still this process's: success, the next attempt on the
//    retry schedule, or failed after the last. A 410 disables the endpoint at once; five days of failures too.

const STEP_MS = 1000;
/** Deliveries being sent at once by one process. */
const MAX_IN_FLIGHT = 16;
/** Events one endpoint's fan-out reads per transaction. */
const FANOUT_BATCH = 500;
/** How long an endpoint may fail every delivery before the worker disables it. */
export const FAILING_DISABLES_AFTER_MS = 5 * 24 * 60 * 60 * 1000;
const USER_AGENT = "AnimalStore-Webhooks/1.0";

/** This process's name on its leases. */
const OWNER = `${os.hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;

type Claimed = {
  id: bigint;
  endpointId: number;
  eventId: bigint | null;
  messageId: string;
  payload: string | null;
  attempts: number;
};

/** Turns one endpoint's new events into deliveries; returns how many events it read. */
async function fanOutEndpoint(endpointId: number): Promise<number> {
  const { provider } = config().database;
  return transaction(async (tx) => {
    if (provider === "postgresql") {
      const locked = await tx.$queryRawUnsafe<unknown[]>(
        "SELECT id FROM webhook_endpoints WHERE id = $1 AND state = 'enabled' FOR UPDATE SKIP LOCKED",
        endpointId,
      );
      if (locked.length === 0) return 0; // another instance is at it, or it was disabled or deleted meanwhile
    }
    const endpoint = await tx.webhookEndpoint.findUnique({
      where: { id: endpointId },
      select: { state: true, lastEventId: true, eventTypes: true },
    });
    if (endpoint?.state !== "enabled") return 0;
    const events = await tx.event.findMany({
      where: { id: { gt: endpoint.lastEventId } },
      orderBy: { id: "asc" },
      take: FANOUT_BATCH,
      select: { id: true, type: true },
    });
    if (events.length === 0) return 0;
    const types = typesOf(endpoint.eventTypes);
    const first = new Date(Date.now() + config().WEBHOOK_RETRY_SCHEDULE[0] * 1000);
    const wanted = events.filter((event) => types.length === 0 || (types as string[]).includes(event.type));
    if (wanted.length)
      await tx.webhookDelivery.createMany({
        data: wanted.map((event) => ({
          endpointId,
          eventId: event.id,
          eventType: event.type,
          messageId: `evt_${event.id}`,
          nextAttemptAt: first,
        })),
      });
    await tx.webhookEndpoint.update({ where: { id: endpointId }, data: { lastEventId: events.at(-1)!.id } });
    return events.length;
  });
}

// Ordered by next_attempt_at alone, the index's order after its state: PostgreSQL can stop after LIMIT rows instead
// of sorting every due one (a backlog of thousands), and ties need no order.
const CLAIM = {
  sqlite: `UPDATE webhook_deliveries
    SET attempts = attempts + 1, lease_owner = ?, next_attempt_at = ?, last_attempt_at = ?
    WHERE id IN (
      SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE d.state = 'pending' AND d.next_attempt_at <= ? AND e.state = 'enabled'
      ORDER BY d.next_attempt_at LIMIT ?)
    RETURNING id, endpoint_id, event_id, message_id, payload, attempts`,
  postgresql: `WITH due AS (
      SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE d.state = 'pending' AND d.next_attempt_at <= CAST($4 AS timestamp(3)) AND e.state = 'enabled'
      ORDER BY d.next_attempt_at LIMIT $5
      FOR UPDATE OF d SKIP LOCKED)
    UPDATE webhook_deliveries SET attempts = attempts + 1, lease_owner = $1,
      next_attempt_at = CAST($2 AS timestamp(3)), last_attempt_at = CAST($3 AS timestamp(3))
    FROM due WHERE webhook_deliveries.id = due.id
    RETURNING webhook_deliveries.id, endpoint_id, event_id, message_id, payload, attempts`,
};

type ClaimRow = {
  id: bigint | number;
  endpoint_id: bigint | number;
  event_id: bigint | number | null;
  message_id: string;
  payload: string | null;
  attempts: bigint | number;
};

/** Leases up to `limit` due deliveries to this process. */
async function claimDue(limit: number): Promise<Claimed[]> {
  const { database, WEBHOOK_LEASE_SECONDS } = config();
  const now = new Date();
  const leaseEnd = timeText(new Date(now.getTime() + WEBHOOK_LEASE_SECONDS * 1000));
  const rows = await db().$queryRawUnsafe<ClaimRow[]>(
    CLAIM[database.provider],
    OWNER,
    leaseEnd,
    timeText(now),
    timeText(now),
    limit,
  );
  return rows.map((row) => ({
    id: BigInt(row.id),
    endpointId: Number(row.endpoint_id),
    eventId: row.event_id === null ? null : BigInt(row.event_id),
    messageId: row.message_id,
    payload: row.payload,
    attempts: Number(row.attempts),
  }));
}

/** What the attempt's record says of why it failed. */
function failureText(result: AttemptResult): string | null {
  if (result.ok) return null;
  if (result.status !== undefined) return `answered ${result.status}`;
  return result.error ?? "failed";
}

/**
 * How many claims past the schedule's last attempt a delivery may take: only a claim whose outcome could not be
 * recorded (the process died, the database was away) leaves one pending; past these it is failed, not sent again.
 */
const CLAIMS_BEYOND_SCHEDULE = 3;

/** Sends one claimed delivery and records how it went. */
async function deliver(claimed: Claimed): Promise<void> {
  if (claimed.attempts > config().WEBHOOK_RETRY_SCHEDULE.length + CLAIMS_BEYOND_SCHEDULE) {
    const error = "given up: its attempts' outcomes could not be recorded";
    return record(claimed, { ok: false, error, durationMs: 0 }, true);
  }
  const endpoint = await db().webhookEndpoint.findUnique({
    where: { id: claimed.endpointId },
    select: { url: true, secret: true, previousSecret: true, previousSecretUntil: true },
  });
  if (!endpoint) return; // deleted, with its deliveries
  let body = claimed.payload;
  if (body === null && claimed.eventId !== null) {
    const event = await db().event.findUnique({ where: { id: claimed.eventId } });
    if (event) body = eventJson(event);
  }
  const result: AttemptResult =
    body === null
      ? { ok: false, error: "the event is no longer kept (EVENT_RETENTION_DAYS)", durationMs: 0 }
      : await send(endpoint, claimed.messageId, body);
  await record(claimed, result, body === null);
}

async function send(
  endpoint: { url: string; secret: string; previousSecret: string | null; previousSecretUntil: Date | null },
  messageId: string,
  body: string,
): Promise<AttemptResult> {
  const secrets = [endpoint.secret];
  if (endpoint.previousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > new Date())
    secrets.push(endpoint.previousSecret);
  const timestamp = Math.floor(Date.now() / 1000);
  return sendAttempt(
    new URL(endpoint.url),
    {
      "user-agent": USER_AGENT,
      "webhook-id": messageId,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signatures(secrets, messageId, timestamp, body),
    },
    body,
  );
}

/** Records an attempt's outcome, if this process still holds the delivery's lease. */
async function record(claimed: Claimed, result: AttemptResult, final: boolean): Promise<void> {
  const schedule = config().WEBHOOK_RETRY_SCHEDULE;
  const now = new Date();
  const gone = result.status === 410;
  const retry = !result.ok && !gone && !final && claimed.attempts < schedule.length;
  const disable = await transaction(async (tx) => {
    const { count } = await tx.webhookDelivery.updateMany({
      where: { id: claimed.id, leaseOwner: OWNER, attempts: claimed.attempts, state: "pending" },
      data: {
        state: result.ok ? "succeeded" : retry ? "pending" : "failed",
        nextAttemptAt: retry ? new Date(now.getTime() + schedule[claimed.attempts] * 1000) : null,
        leaseOwner: null,
        lastStatus: result.status ?? null,
        lastError: failureText(result),
        lastDurationMs: result.durationMs,
        lastResponse: result.response ?? null,
      },
    });
    if (count === 0) return undefined; // the lease ran out and another attempt took over: that one records
    if (claimed.eventId === null) return undefined; // a test message says nothing of the endpoint's health
    if (result.ok) {
      await tx.webhookEndpoint.updateMany({
        where: { id: claimed.endpointId, failingSince: { not: null } },
        data: { failingSince: null },
      });
      return undefined;
    }
    if (gone) return `The endpoint answered 410 Gone on ${now.toISOString()}: it asked for no more deliveries.`;
    const endpoint = await tx.webhookEndpoint.findUnique({
      where: { id: claimed.endpointId },
      select: { failingSince: true },
    });
    if (!endpoint) return undefined;
    if (!endpoint.failingSince) {
      await tx.webhookEndpoint.update({ where: { id: claimed.endpointId }, data: { failingSince: now } });
      return undefined;
    }
    if (now.getTime() - endpoint.failingSince.getTime() < FAILING_DISABLES_AFTER_MS) return undefined;
    return (
      `Every delivery failed from ${endpoint.failingSince.toISOString()} to ${now.toISOString()} (five days; the ` +
      `last ${failureText(result)}).`
    );
  });
  if (disable) {
    await setEndpointState(claimed.endpointId, "disabled", THE_APP, disable);
    log("warn", "webhook endpoint disabled", { endpointId: claimed.endpointId, reason: disable });
  }
}

type Worker = {
  timer?: NodeJS.Timeout;
  /** The step running, if any. */
  stepping?: Promise<void>;
  /** A step was asked for while one ran: the next follows at once instead of after STEP_MS. */
  again: boolean;
  stopped: boolean;
  inFlight: Set<Promise<void>>;
};

const worker: Worker = { again: false, stopped: true, inFlight: new Set() };

/** One step: fan out every enabled endpoint's new events, claim what is due, start sending it. */
async function step(): Promise<boolean> {
  const endpoints = await db().webhookEndpoint.findMany({
    where: { state: "enabled" },
    select: { id: true, lastEventId: true },
  });
  if (endpoints.length === 0) return false;
  // Only the endpoints behind the newest event open a transaction: an idle store costs two reads a step.
  const newest = (await db().event.findFirst({ orderBy: { id: "desc" }, select: { id: true } }))?.id ?? 0n;
  let more = false;
  for (const { id, lastEventId } of endpoints)
    if (lastEventId < newest && (await fanOutEndpoint(id)) === FANOUT_BATCH) more = true;
  const room = MAX_IN_FLIGHT - worker.inFlight.size;
  if (room <= 0 || worker.stopped) return more; // stopping: nothing new is claimed
  const claimed = await claimDue(room);
  const full = claimed.length === room; // more may be due: each finished delivery makes room for the next
  for (const delivery of claimed) {
    const sending: Promise<void> = deliver(delivery)
      .catch((error: unknown) => log("warn", "webhook delivery not recorded", { error: String(error) }))
      .finally(() => {
        worker.inFlight.delete(sending);
        if (full) schedule(0);
      });
    worker.inFlight.add(sending);
  }
  return more;
}

function schedule(ms: number): void {
  if (worker.stopped) return;
  if (worker.stepping && ms === 0) {
    worker.again = true; // the running step's end schedules the next at once
    return;
  }
  clearTimeout(worker.timer);
  worker.timer = setTimeout(tick, ms);
}

function tick(): void {
  if (worker.stepping) return;
  worker.again = false;
  worker.stepping = step().then(
    (more) => {
      worker.stepping = undefined;
      schedule(more || worker.again ? 0 : STEP_MS);
    },
    (error: unknown) => {
      worker.stepping = undefined;
      log("warn", "webhook worker step failed", { error: String(error) }); // the database is away: next step
      schedule(STEP_MS);
    },
  );
}

/** Starts this process's worker (server.ts; the tests that run one in-process). */
export function startWebhookWorker(): void {
  if (!worker.stopped) return;
  worker.stopped = false;
  schedule(0);
}

/** Stops claiming, and waits for the deliveries being sent (their leases cover them if the process ends first). */
export async function stopWebhookWorker(): Promise<void> {
  worker.stopped = true;
  clearTimeout(worker.timer);
  await worker.stepping; // a step under way claims nothing more once stopped, but may have claimed already
  await Promise.all(worker.inFlight);
}
