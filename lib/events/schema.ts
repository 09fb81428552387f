import { z } from "zod";
import { categorySchema } from "@/lib/categories/schema";
import { INT64_MAX } from "@/lib/http/int64";
import { orderSchema } from "@/lib/orders/schema";
import { listLimitSchema, petSchema } from "@/lib/pets/schema";

// The events feed's one set of rules (GET /v1/events): the types, an Event as the feed answers it, and the query.
// lib/v1/openapi.ts documents them from here.

export const EVENT_TYPES = [
  "pet.created",
  "pet.updated",
  "pet.deleted",
  "pet.restored",
  "order.placed",
  "order.approved",
  "order.delivered",
  "order.cancelled",
  "order.expired",
  "category.created",
  "category.renamed",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The resource kinds, whose `kind.*` selects every type of one. */
const EVENT_KINDS = [...new Set(EVENT_TYPES.map((type) => type.slice(0, type.indexOf("."))))];

const typeFilterMessage =
  `type must be an event type (${EVENT_TYPES.join(", ")}) or a resource's types ` +
  `(${EVENT_KINDS.map((kind) => `${kind}.*`).join(", ")})`;

/** `type`: one type, or `pet.*`, `order.*`, `category.*`; read as the list of types it selects. */
export const eventTypeFilterSchema = z
  .string()
  .refine(
    (text) => (EVENT_TYPES as readonly string[]).includes(text) || EVENT_KINDS.some((kind) => text === `${kind}.*`),
    typeFilterMessage,
  )
  .transform((text) =>
    text.endsWith(".*") ? EVENT_TYPES.filter((type) => type.startsWith(text.slice(0, -1))) : [text as EventType],
  )
  .meta({
    type: "string",
    description:
      "Only events of this type, or of every type of one resource: `pet.*`, `order.*` or `category.*`. An unknown " +
      "type is a 400.",
    examples: ["order.*", "pet.updated"],
  });

/** `after`: an event id (0 or more); the feed answers the events with greater ids. */
export const eventAfterSchema = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,18})$/, "after must be an event id (an integer, 0 or more)")
  .transform((digits) => BigInt(digits))
  .refine((id) => id <= INT64_MAX, `after must be at most ${INT64_MAX}`)
  .meta({
    type: "integer",
    format: "int64",
    minimum: 0,
    description:
      'Only events with a greater id: the last id a follower saw (the Link rel="next" carries it). Without it, ' +
      "the feed starts at the oldest event kept.",
  });

export const listEventsQuerySchema = z.strictObject(
  {
    after: eventAfterSchema.optional(),
    limit: listLimitSchema("events"),
    type: eventTypeFilterSchema.optional(),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? undefined : "invalid query") },
);
export type ListEventsQuery = z.output<typeof listEventsQuerySchema>;

const eventMembers = (types: readonly EventType[], data: z.ZodType, previous?: z.ZodType) => ({
  id: z.int().meta({ type: "integer", format: "int64", description: "The event's position in the feed." }),
  type: z.enum(types),
  occurredAt: z.iso
    .datetime()
    .meta({ description: "When the change was made (RFC 3339, UTC); ids, not times, give the order." }),
  data,
  ...(previous && { previous }),
});

const previousSchema = z
  .record(z.string(), z.unknown())
  .meta({ description: 'The changed members\' old values (an absent one as null), e.g. `{"status": "available"}`.' });

const petEventSchema = z
  .object(eventMembers(["pet.created", "pet.deleted", "pet.restored"], petSchema))
  .meta({ id: "PetEvent", description: "A pet added, deleted (`data` is its last state) or restored." });
const petUpdatedEventSchema = z
  .object(eventMembers(["pet.updated"], petSchema, previousSchema))
  .meta({ id: "PetUpdatedEvent", description: "A pet changed: `data` as it is now, `previous` what changed." });
const orderPlacedEventSchema = z
  .object(eventMembers(["order.placed"], orderSchema))
  .meta({ id: "OrderPlacedEvent", description: "An order placed (its pet's `pet.updated` follows it)." });
const orderChangedEventSchema = z
  .object(
    eventMembers(
      ["order.approved", "order.delivered", "order.cancelled", "order.expired"],
      orderSchema,
      previousSchema,
    ),
  )
  .meta({ id: "OrderChangedEvent", description: "An order moved: `data` as it is now, `previous` what changed." });
const categoryCreatedEventSchema = z
  .object(eventMembers(["category.created"], categorySchema))
  .meta({ id: "CategoryCreatedEvent", description: "A category named." });
const categoryRenamedEventSchema = z
  .object(eventMembers(["category.renamed"], categorySchema, previousSchema))
  .meta({ id: "CategoryRenamedEvent", description: "A category renamed: `previous` has its old name." });

/** The event schemas of each kind: the Event union's members, and the OpenAPI document's components. */
export const eventVariantSchemas = [
  petEventSchema,
  petUpdatedEventSchema,
  orderPlacedEventSchema,
  orderChangedEventSchema,
  categoryCreatedEventSchema,
  categoryRenamedEventSchema,
] as const;

/** An Event as the feed answers it: one schema per resource, told apart by `type`. */
export const eventSchema = z.union(eventVariantSchemas).meta({
  id: "Event",
  description:
    "One committed change to a pet, an order or a category. `data` is the resource after the change exactly as " +
    "its /v1 read shows it; `previous` (on changes) holds the changed members' old values.",
});
