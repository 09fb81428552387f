import "server-only";
import { recordAudit, type AuditContext } from "@/lib/audit/record";
import { db, transaction, type Transaction } from "@/lib/db/client";
import { EVENT_TYPES, type EventType } from "@/lib/events/schema";
import { Refusal } from "@/lib/refusal";
import { checkEndpointUrl, UnsafeUrl } from "@/lib/webhooks/address";
import {
  MAX_ENDPOINTS,
  newEndpointSchema,
  type DeliveryView,
  type EndpointView,
  type NewEndpoint,
} from "@/lib/webhooks/schema";
import { newSecret } from "@/lib/webhooks/sign";

// Webhook endpoints and their deliveries, as admins manage them (the Webhooks page, `npm run webhook`). Every change
// to an endpoint is audited in its own transaction. The worker (lib/webhooks/worker.ts) sends the deliveries.

/** How long the secret before a rotation still signs, so receivers can move to the new one. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** How many of an endpoint's latest deliveries the Webhooks page shows. */
export const RECENT_DELIVERIES = 50;

type EndpointRow = {
  id: number;
  url: string;
  eventTypes: string | null;
  state: string;
  disabledAt: Date | null;
  disabledReason: string | null;
  failingSince: Date | null;
  previousSecretUntil: Date | null;
  createdAt: Date;
  createdBy: string | null;
};

const endpointColumns = {
  id: true,
  url: true,
  eventTypes: true,
  state: true,
  disabledAt: true,
  disabledReason: true,
  failingSince: true,
  previousSecretUntil: true,
  createdAt: true,
  createdBy: true,
} as const;

const iso = (value: Date | null) => value?.toISOString() ?? null;

/** The types an endpoint's column lists; empty for every type. */
export function typesOf(column: string | null): EventType[] {
  if (!column) return [];
  const listed = new Set(column.split(","));
  return EVENT_TYPES.filter((type) => listed.has(type));
}

export function endpointView(row: EndpointRow): EndpointView {
  return {
    id: row.id,
    url: row.url,
    eventTypes: typesOf(row.eventTypes),
    state: row.state === "disabled" ? "disabled" : "enabled",
    disabledAt: iso(row.disabledAt),
    disabledReason: row.disabledReason,
    failingSince: iso(row.failingSince),
    previousSecretUntil:
      row.previousSecretUntil && row.previousSecretUntil > new Date() ? iso(row.previousSecretUntil) : null,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
  };
}

/** The newest event's id, where a new (or re-enabled) endpoint starts: it is sent what happens from now on. */
async function newestEventId(tx: Transaction): Promise<bigint> {
  return (await tx.event.findFirst({ orderBy: { id: "desc" }, select: { id: true } }))?.id ?? 0n;
}

function notFound(id: number): Refusal {
  return new Refusal("not_found", { message: `No webhook endpoint has id ${id}.` });
}

/** Adds an endpoint; its secret is in the answer, and can be read again by an admin. */
export async function createEndpoint(
  input: NewEndpoint,
  context: AuditContext,
): Promise<{ endpoint: EndpointView; secret: string }> {
  const parsed = newEndpointSchema.safeParse(input);
  if (!parsed.success)
    throw new Refusal("invalid_body", { message: `Invalid endpoint: ${parsed.error.issues[0].message}.` });
  let url: URL;
  try {
    url = await checkEndpointUrl(parsed.data.url);
  } catch (error) {
    if (!(error instanceof UnsafeUrl)) throw error;
    throw new Refusal("webhook_url_refused", { message: error.message });
  }
  const types = parsed.data.eventTypes ?? [];
  const secret = newSecret();
  const row = await transaction(async (tx) => {
    if ((await tx.webhookEndpoint.count()) >= MAX_ENDPOINTS) throw new Refusal("webhook_endpoints_full");
    const created = await tx.webhookEndpoint.create({
      data: {
        url: url.href,
        eventTypes: types.length === 0 || types.length === EVENT_TYPES.length ? null : types.join(","),
        secret,
        lastEventId: await newestEventId(tx),
        createdBy: context.actor.label,
      },
      select: endpointColumns,
    });
    await recordAudit(tx, context, {
      action: "webhook.created",
      target: { type: "webhook", id: created.id, label: created.url },
      details: { eventTypes: typesOf(created.eventTypes) },
    });
    return created;
  });
  return { endpoint: endpointView(row), secret };
}

/** Every endpoint, oldest first. */
export async function listEndpoints(): Promise<EndpointView[]> {
  const rows = await db().webhookEndpoint.findMany({ orderBy: { id: "asc" }, select: endpointColumns });
  return rows.map(endpointView);
}

export async function getEndpoint(id: number): Promise<EndpointView> {
  const row = await db().webhookEndpoint.findUnique({ where: { id }, select: endpointColumns });
  if (!row) throw notFound(id);
  return endpointView(row);
}

/**
 * Enables or disables an endpoint, with why when the worker disables it (a 410, five days of failures). Enabling
 * starts it at the newest event: what happened while it was off is in the feed, not sent. Its pending deliveries
 * wait while it is disabled and go on when it is enabled. Returns whether anything changed.
 */
export async function setEndpointState(
  id: number,
  state: "enabled" | "disabled",
  context: AuditContext,
  reason?: string,
): Promise<{ endpoint: EndpointView; changed: boolean }> {
  return transaction(async (tx) => {
    const before = await tx.webhookEndpoint.findUnique({ where: { id }, select: endpointColumns });
    if (!before) throw notFound(id);
    if (before.state === state) return { endpoint: endpointView(before), changed: false };
    const after = await tx.webhookEndpoint.update({
      where: { id },
      data:
        state === "disabled"
          ? { state, disabledAt: new Date(), disabledReason: reason ?? `Disabled by ${context.actor.label}.` }
          : { state, disabledAt: null, disabledReason: null, failingSince: null, lastEventId: await newestEventId(tx) },
      select: endpointColumns,
    });
    // Its pending deliveries are parked (no next attempt) while it is disabled, so that the worker's claim never
    // walks them, and due again at once when it is enabled.
    await tx.webhookDelivery.updateMany({
      where: { endpointId: id, state: "pending", ...(state === "enabled" && { nextAttemptAt: null }) },
      data: { nextAttemptAt: state === "disabled" ? null : new Date() },
    });
    await recordAudit(tx, context, {
      action: state === "disabled" ? "webhook.disabled" : "webhook.enabled",
      target: { type: "webhook", id, label: after.url },
      ...(reason && { details: { reason } }),
    });
    return { endpoint: endpointView(after), changed: true };
  });
}

/** Deletes an endpoint and its deliveries; false when there was none. */
export async function deleteEndpoint(id: number, context: AuditContext): Promise<boolean> {
  return transaction(async (tx) => {
    const before = await tx.webhookEndpoint.findUnique({ where: { id }, select: { url: true } });
    if (!before) return false;
    await tx.webhookDelivery.deleteMany({ where: { endpointId: id } }); // the foreign key cascades too, where enforced
    await tx.webhookEndpoint.delete({ where: { id } });
    await recordAudit(tx, context, { action: "webhook.deleted", target: { type: "webhook", id, label: before.url } });
    return true;
  });
}

/** Gives an endpoint a new secret; the old one signs too for ROTATION_OVERLAP_MS. Returns the new one. */
export async function rotateSecret(
  id: number,
  context: AuditContext,
): Promise<{ endpoint: EndpointView; secret: string }> {
  const secret = newSecret();
  return transaction(async (tx) => {
    const before = await tx.webhookEndpoint.findUnique({ where: { id }, select: { secret: true } });
    if (!before) throw notFound(id);
    const after = await tx.webhookEndpoint.update({
      where: { id },
      data: { secret, previousSecret: before.secret, previousSecretUntil: new Date(Date.now() + ROTATION_OVERLAP_MS) },
      select: endpointColumns,
    });
    await recordAudit(tx, context, {
      action: "webhook.secret_rotated",
      target: { type: "webhook", id, label: after.url },
    });
    return { endpoint: endpointView(after), secret };
  });
}

/** An endpoint's secret, for an admin to configure the receiver. */
export async function endpointSecret(id: number): Promise<string> {
  const row = await db().webhookEndpoint.findUnique({ where: { id }, select: { secret: true } });
  if (!row) throw notFound(id);
  return row.secret;
}

type DeliveryRow = {
  id: bigint;
  eventId: bigint | null;
  eventType: string;
  messageId: string;
  state: string;
  attempts: number;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  lastDurationMs: number | null;
  lastResponse: string | null;
  createdAt: Date;
};

const deliveryColumns = {
  id: true,
  eventId: true,
  eventType: true,
  messageId: true,
  state: true,
  attempts: true,
  nextAttemptAt: true,
  lastAttemptAt: true,
  lastStatus: true,
  lastError: true,
  lastDurationMs: true,
  lastResponse: true,
  createdAt: true,
} as const;

export function deliveryView(row: DeliveryRow): DeliveryView {
  return {
    id: String(row.id),
    eventId: row.eventId === null ? null : String(row.eventId),
    eventType: row.eventType,
    messageId: row.messageId,
    state: row.state === "succeeded" || row.state === "failed" ? row.state : "pending",
    attempts: row.attempts,
    nextAttemptAt: row.state === "pending" ? iso(row.nextAttemptAt) : null,
    lastAttemptAt: iso(row.lastAttemptAt),
    lastStatus: row.lastStatus,
    lastError: row.lastError,
    lastDurationMs: row.lastDurationMs,
    lastResponse: row.lastResponse,
    createdAt: row.createdAt.toISOString(),
  };
}

/** An endpoint's latest deliveries, newest first. */
export async function listDeliveries(endpointId: number, limit = RECENT_DELIVERIES): Promise<DeliveryView[]> {
  await getEndpoint(endpointId);
  const rows = await db().webhookDelivery.findMany({
    where: { endpointId },
    orderBy: { id: "desc" },
    take: limit,
    select: deliveryColumns,
  });
  return rows.map(deliveryView);
}

/** A new delivery's first time: now, or none (parked) while its endpoint is disabled. */
const dueUnlessParked = (state: EndpointView["state"]) => (state === "enabled" ? new Date() : null);

/** Sends a delivery's message again, as a new delivery with the same webhook-id (receivers see one message). */
export async function resendDelivery(endpointId: number, deliveryId: bigint): Promise<DeliveryView> {
  const original = await db().webhookDelivery.findFirst({
    where: { id: deliveryId, endpointId },
    select: { eventId: true, eventType: true, messageId: true, payload: true },
  });
  if (!original)
    throw new Refusal("not_found", { message: `Webhook endpoint ${endpointId} has no delivery ${deliveryId}.` });
  const { state } = await getEndpoint(endpointId);
  const row = await db().webhookDelivery.create({
    data: { endpointId, ...original, nextAttemptAt: dueUnlessParked(state) },
    select: deliveryColumns,
  });
  return deliveryView(row);
}

/** Queues a test message (type webhook.test, not an event of the feed) to an endpoint, sent like any delivery. */
export async function sendTestMessage(endpointId: number): Promise<DeliveryView> {
  const { state } = await getEndpoint(endpointId);
  const messageId = `msg_test_${crypto.randomUUID()}`;
  const payload = JSON.stringify({
    type: "webhook.test",
    occurredAt: new Date().toISOString(),
    data: { endpointId, message: "A test message from the Animal Store: this endpoint is reached." },
  });
  const row = await db().webhookDelivery.create({
    data: { endpointId, eventType: "webhook.test", messageId, payload, nextAttemptAt: dueUnlessParked(state) },
    select: deliveryColumns,
  });
  return deliveryView(row);
}
