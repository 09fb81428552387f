import { z } from "zod";
import { int64Schema, positiveInt64Text } from "@/lib/http/int64";
import { listCursorSchema, listLimitSchema } from "@/lib/pets/schema";
import { hasVisibleCharacter, NOT_ONLY_INVISIBLE } from "@/lib/visible-text";

// The order resource's one set of rules, as lib/pets/schema.ts is the pet's: the /v1 handlers validate with these,
// the admin forms too, lib/v1/openapi.ts documents them and the types are inferred from them.

export const orderStatuses = ["placed", "approved", "delivered", "cancelled", "expired"] as const;
export const orderStatusSchema = z.enum(orderStatuses, { error: `must be one of ${orderStatuses.join(", ")}` }).meta({
  id: "OrderStatus",
  description:
    "Where an order is. `placed` holds its pet (pending) until `expiresAt`; `approved` holds it until it is " +
    "delivered or cancelled; `delivered` sold the pet; `cancelled` and `expired` made it available again. " +
    "placed → approved, placed or approved → delivered or cancelled, and placed → expired (the hold ran out) " +
    "are the only moves.",
});
export type OrderStatus = z.infer<typeof orderStatusSchema>;

/** The statuses of an order that holds its pet. */
export const OPEN_ORDER_STATUSES = ["placed", "approved"] as const satisfies readonly OrderStatus[];

export const CUSTOMER_NAME_MAX_LENGTH = 100;
export const CUSTOMER_EMAIL_MAX_LENGTH = 254;

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

export const customerNameSchema = z
  .string({
    error: (issue) => (issue.input === undefined ? "customerName is required" : "customerName must be a string"),
  })
  .trim()
  // Each refinement names its rule (params.rule), which the order form's staff message is keyed on
  // (lib/pets/staff-messages.ts); the message is /v1's.
  .refine((name) => name.length > 0, { message: "customerName must not be empty", params: { rule: "not_blank" } })
  .refine((name) => name.length === 0 || hasVisibleCharacter(name), {
    message: `customerName ${NOT_ONLY_INVISIBLE}`,
    params: { rule: "visible" },
  })
  .refine((name) => [...name].length <= CUSTOMER_NAME_MAX_LENGTH, {
    message: `customerName must be at most ${CUSTOMER_NAME_MAX_LENGTH} characters`,
    params: { rule: "max_characters" },
  })
  .refine((name) => name.isWellFormed() && !CONTROL_CHARACTERS.test(name), {
    message: "customerName must be text without control characters",
    params: { rule: "plain_text" },
  })
  .meta({
    description:
      `Who buys the pet: 1 to ${CUSTOMER_NAME_MAX_LENGTH} characters once spaces around it are trimmed, with a ` +
      "visible character, no control characters.",
    examples: ["Ada Lovelace"],
  });

export const customerEmailSchema = z
  .string({ error: "customerEmail must be a string" })
  .trim()
  .max(CUSTOMER_EMAIL_MAX_LENGTH, `customerEmail must be at most ${CUSTOMER_EMAIL_MAX_LENGTH} characters`)
  .pipe(z.email({ error: "customerEmail must be an email address" }))
  .meta({ description: "The customer's email address, when they gave one.", examples: ["ada@example.com"] });

/** The body of placeOrder. */
export const newOrderSchema = z
  .strictObject(
    {
      petId: int64Schema("petId").meta({ description: "The pet to buy: it must be `available`." }),
      customerName: customerNameSchema,
      customerEmail: customerEmailSchema.optional(),
    },
    { error: (issue) => (issue.code === "unrecognized_keys" ? undefined : "the body must be a JSON object") },
  )
  .meta({ id: "NewOrder", description: "An order to place. Members other than these are refused." });
export type NewOrder = z.infer<typeof newOrderSchema>;

const timestamp = (description: string) => z.iso.datetime().meta({ description });

/** An order as the API returns it. Members without a value are absent, never null. */
export const orderSchema = z
  .object({
    id: int64Schema("id").meta({ description: "Assigned by the service when the order is placed.", examples: [1] }),
    petId: int64Schema("petId").meta({ description: "The pet the order is for.", examples: [1] }),
    petName: z.string().meta({
      description:
        "The pet's name when the order was placed, as a sales record keeps what was sold (a later rename of the " +
        "pet does not change it).",
      examples: ["Biscuit"],
    }),
    status: orderStatusSchema,
    customerName: customerNameSchema,
    customerEmail: customerEmailSchema.optional(),
    placedAt: timestamp("When the order was placed (RFC 3339, UTC)."),
    expiresAt: timestamp(
      "While the order is `placed`: when its hold ends and it expires, unless it is approved, delivered or " +
        "cancelled first. Absent in every other status.",
    ).optional(),
    approvedAt: timestamp("When it was approved, if it was.").optional(),
    deliveredAt: timestamp("When it was delivered, if it was.").optional(),
    cancelledAt: timestamp("When it was cancelled, if it was.").optional(),
    expiredAt: timestamp("When its hold ran out, if it did.").optional(),
  })
  .meta({ id: "Order", description: "A sale of one pet." });
export type Order = z.output<typeof orderSchema>;

export const orderIdSchema = positiveInt64Text("orderId").meta({
  type: "integer",
  format: "int64",
  minimum: 1,
  description: "Identifier of the order.",
});

/** listOrders' orders: `id` oldest first (the default), `-id` newest first. */
export const orderSorts = ["id", "-id"] as const;

export const ORDER_SEARCH_MAX_LENGTH = CUSTOMER_NAME_MAX_LENGTH;

export const listOrdersQuerySchema = z.strictObject(
  {
    limit: listLimitSchema("orders"),
    status: orderStatusSchema.optional().meta({ description: "Only orders with this status." }),
    petId: positiveInt64Text("petId").optional().meta({ description: "Only orders for this pet." }),
    q: z
      .string()
      .refine(
        (q) => q.length > 0 && [...q].length <= ORDER_SEARCH_MAX_LENGTH,
        `q must be 1 to ${ORDER_SEARCH_MAX_LENGTH} characters`,
      )
      .refine((q) => !CONTROL_CHARACTERS.test(q), "q must be text without control characters")
      .optional()
      .meta({
        description:
          `Only orders whose customer name contains this text (1 to ${ORDER_SEARCH_MAX_LENGTH} characters, no ` +
          "wildcards: `%` and `_` are themselves), ignoring case (of ASCII letters on SQLite).",
      }),
    sort: z
      .enum(orderSorts, { error: `sort must be one of ${orderSorts.join(", ")}` })
      .default("id")
      .meta({ description: "`id` (oldest first, the default) or `-id` (newest first)." }),
    cursor: listCursorSchema,
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? undefined : "invalid query") },
);
export type ListOrdersQuery = z.infer<typeof listOrdersQuerySchema>;

const countSchema = z.number().int().min(0);

/** getInventory's answer. */
export const inventorySchema = z.object({ available: countSchema, pending: countSchema, sold: countSchema }).meta({
  id: "Inventory",
  description: "How many pets have each status: exact, from the counts the catalogue keeps, not a scan.",
});
export type Inventory = z.infer<typeof inventorySchema>;

/** What the Orders page shows beside its chips: the orders of each status, exact. */
export const orderCountsSchema = z
  .object({
    total: countSchema,
    byStatus: z.object(
      Object.fromEntries(orderStatuses.map((status) => [status, countSchema])) as Record<
        OrderStatus,
        typeof countSchema
      >,
    ),
  })
  .meta({ id: "OrderCounts", description: "How many orders there are, in all and by status." });
export type OrderCounts = z.infer<typeof orderCountsSchema>;
