import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { call, callFor } from "@/lib/client/admin-api";
import { EVENT_TYPES } from "@/lib/events/schema";
import { smallIntegerSchema } from "@/lib/http/int64";
import { stringifyJson } from "@/lib/http/json";
import type { DeliveryView, EndpointView, NewEndpoint } from "@/lib/webhooks/schema";

// The browser's side of the Webhooks page's endpoints (app/admin/api/webhooks/…), for admins. The answers are read
// with schemas of the views lib/webhooks/schema.ts types; a refusal throws the AdminRequestError of
// lib/client/admin-api.ts. The endpoints and their deliveries are read again every 2 s while the page is open, so
// what the worker does (a test event's result, an endpoint it disabled) shows without a reload.

const isoOrNull = z.string().nullable();

const endpointSchema = z.object({
  id: smallIntegerSchema,
  url: z.string(),
  eventTypes: z.array(z.enum(EVENT_TYPES)),
  state: z.enum(["enabled", "disabled"]),
  disabledAt: isoOrNull,
  disabledReason: z.string().nullable(),
  failingSince: isoOrNull,
  previousSecretUntil: isoOrNull,
  createdAt: z.string(),
  createdBy: z.string().nullable(),
}) satisfies z.ZodType<EndpointView, unknown>;

const deliverySchema = z.object({
  id: z.string(),
  eventId: z.string().nullable(),
  eventType: z.string(),
  messageId: z.string(),
  state: z.enum(["pending", "succeeded", "failed"]),
  attempts: smallIntegerSchema,
  nextAttemptAt: isoOrNull,
  lastAttemptAt: isoOrNull,
  lastStatus: smallIntegerSchema.nullable(),
  lastError: z.string().nullable(),
  lastDurationMs: smallIntegerSchema.nullable(),
  lastResponse: z.string().nullable(),
  createdAt: z.string(),
}) satisfies z.ZodType<DeliveryView, unknown>;

const withSecretSchema = z.object({ endpoint: endpointSchema, secret: z.string() });
const deliveryAnswerSchema = z.object({ delivery: deliverySchema });

export type EndpointWithSecret = z.output<typeof withSecretSchema>;
export type { DeliveryView, EndpointView };

export const WEBHOOKS_KEY = ["admin", "webhooks"] as const;
export const deliveriesKey = (endpointId: number) => [...WEBHOOKS_KEY, endpointId, "deliveries"] as const;

/** Read again this often, until a read fails (a 401 would reopen the sign-in dialog every time). */
const poll = (query: { state: { status: string } }) => (query.state.status === "error" ? false : 2000);

const sendJson = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json" },
  body: stringifyJson(body),
});

/** Every endpoint, oldest first; never a secret. */
export async function fetchEndpoints(): Promise<EndpointView[]> {
  return (await callFor(z.object({ endpoints: z.array(endpointSchema) }), "/admin/api/webhooks")).body.endpoints;
}

/** Adds an endpoint; the answer holds its signing secret. */
export async function createEndpoint(input: NewEndpoint): Promise<EndpointWithSecret> {
  return (await callFor(withSecretSchema, "/admin/api/webhooks", sendJson("POST", input))).body;
}

/** Enables or disables an endpoint; `changed` is false when it was so already. */
export async function setEndpointState(
  id: number,
  state: EndpointView["state"],
): Promise<{ endpoint: EndpointView; changed: boolean }> {
  const answer = z.object({ endpoint: endpointSchema, changed: z.boolean() });
  return (await callFor(answer, `/admin/api/webhooks/${id}`, sendJson("PATCH", { state }))).body;
}

export async function deleteEndpoint(id: number): Promise<void> {
  await call(`/admin/api/webhooks/${id}`, { method: "DELETE" });
}

export async function fetchSecret(id: number): Promise<string> {
  return (await callFor(z.object({ secret: z.string() }), `/admin/api/webhooks/${id}/secret`)).body.secret;
}

/** A new secret; the old one also signs until `endpoint.previousSecretUntil`. */
export async function rotateSecret(id: number): Promise<EndpointWithSecret> {
  return (await callFor(withSecretSchema, `/admin/api/webhooks/${id}/secret`, { method: "POST" })).body;
}

/** The endpoint's latest 50 deliveries, newest first. */
export async function fetchDeliveries(id: number): Promise<DeliveryView[]> {
  const answer = z.object({ deliveries: z.array(deliverySchema) });
  return (await callFor(answer, `/admin/api/webhooks/${id}/deliveries`)).body.deliveries;
}

/** Queues a test message (type webhook.test) to the endpoint, sent within about a second. */
export async function sendTestEvent(id: number): Promise<DeliveryView> {
  return (await callFor(deliveryAnswerSchema, `/admin/api/webhooks/${id}/deliveries`, { method: "POST" })).body
    .delivery;
}

/** Sends a delivery's message again, as a new delivery with the same webhook-id. */
export async function resendDelivery(id: number, deliveryId: string): Promise<DeliveryView> {
  const path = `/admin/api/webhooks/${id}/deliveries/${deliveryId}/resend`;
  return (await callFor(deliveryAnswerSchema, path, { method: "POST" })).body.delivery;
}

export function useEndpoints() {
  return useQuery({ queryKey: WEBHOOKS_KEY, queryFn: fetchEndpoints, refetchInterval: poll });
}

export function useDeliveries(endpointId: number) {
  return useQuery({
    queryKey: deliveriesKey(endpointId),
    queryFn: () => fetchDeliveries(endpointId),
    refetchInterval: poll,
  });
}
