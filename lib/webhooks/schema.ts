import { z } from "zod";
import { EVENT_TYPES, eventTypeFilterSchema, type EventType } from "@/lib/events/schema";
import { positiveInt64Text } from "@/lib/http/int64";

// What the Webhooks page and the CLI send and are shown. Shared by the browser and the server: no secrets here
// beyond the types of the views that carry one.

/** The most endpoints one store may have: the worker reads each one's new events every second. */
export const MAX_ENDPOINTS = 50;

/** An endpoint's event types: a list of types or `kind.*` selections, none (or absent) for every type. */
export const endpointEventTypesSchema = z
  .array(eventTypeFilterSchema)
  .max(EVENT_TYPES.length + 3, { error: "eventTypes lists too many types" })
  .transform((selections) => {
    const chosen = new Set(selections.flat());
    return EVENT_TYPES.filter((type) => chosen.has(type));
  });

export const newEndpointSchema = z.strictObject({
  url: z.string({ error: "url must be a string" }).trim().min(1, { error: "url is required" }).max(2048, {
    error: "url must be at most 2048 characters",
  }),
  eventTypes: endpointEventTypesSchema.optional(),
});
export type NewEndpoint = z.input<typeof newEndpointSchema>;

export const endpointStateSchema = z.strictObject({
  state: z.enum(["enabled", "disabled"], { error: 'state must be "enabled" or "disabled"' }),
});

/** An endpoint or delivery id in a path. */
export const endpointIdSchema = z.coerce.number().int().min(1).max(2_147_483_647);
export const deliveryIdSchema = positiveInt64Text("deliveryId");

export type EndpointView = {
  id: number;
  url: string;
  /** The types it receives; empty for every type. */
  eventTypes: EventType[];
  state: "enabled" | "disabled";
  disabledAt: string | null;
  disabledReason: string | null;
  failingSince: string | null;
  /** Until when the secret before the last rotation still signs too. */
  previousSecretUntil: string | null;
  createdAt: string;
  createdBy: string | null;
};

export type DeliveryView = {
  id: string;
  eventId: string | null;
  eventType: string;
  messageId: string;
  state: "pending" | "succeeded" | "failed";
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  lastDurationMs: number | null;
  lastResponse: string | null;
  createdAt: string;
};
