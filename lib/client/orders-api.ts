import { z } from "zod";
import { petHistoryRecordSchema, type PetHistoryRecord } from "@/lib/audit/activity-schema";
import { callFor } from "@/lib/client/admin-api";
import { smallIntegerSchema } from "@/lib/http/int64";
import { stringifyJson } from "@/lib/http/json";
import { orderSchema, orderStatuses, type NewOrder, type Order, type OrderStatus } from "@/lib/orders/schema";

// The browser's side of the order endpoints (app/admin/api/orders/…). Every order query sits under ORDERS_KEY, so
// that one invalidation after a change refetches the Orders page, its counts, an open order and a pet's hold.

export const ORDERS_KEY = ["orders"] as const;

export type { Order, OrderStatus };

export type OrderPage = { orders: Order[]; nextCursor?: string };

/** An order with the ETag of the state it was read in: what a change sends back as If-Match. */
export type VersionedOrder = { order: Order; etag: string };

const orderCountsAnswerSchema = z.object({
  total: smallIntegerSchema,
  byStatus: z.object(
    Object.fromEntries(orderStatuses.map((status) => [status, smallIntegerSchema])) as Record<
      OrderStatus,
      typeof smallIntegerSchema
    >,
  ),
});
export type OrderCounts = z.output<typeof orderCountsAnswerSchema>;

/** One page of orders; `query` is listOrders' query string. */
export async function fetchOrderPage(query: URLSearchParams): Promise<OrderPage> {
  const { body, headers } = await callFor(z.array(orderSchema), `/admin/api/orders?${query}`);
  return { orders: body, nextCursor: headers.get("x-next-cursor") ?? undefined };
}

export async function fetchOrderCounts(): Promise<OrderCounts> {
  return (await callFor(orderCountsAnswerSchema, "/admin/api/orders/counts")).body;
}

export async function fetchOrder(id: string): Promise<VersionedOrder> {
  const { body, headers } = await callFor(orderSchema, `/admin/api/orders/${encodeURIComponent(id)}`);
  return { order: body, etag: headers.get("etag") ?? "" };
}

/** The order holding a pet, if one does: a pet has at most one open order, and it is its newest. */
export async function fetchOpenOrderOf(petId: string): Promise<Order | null> {
  const query = new URLSearchParams({ petId, sort: "-id", limit: "1" });
  const [newest] = (await fetchOrderPage(query)).orders;
  return newest && (newest.status === "placed" || newest.status === "approved") ? newest : null;
}

/** A counter sale: the order placed for an available pet. */
export async function placeOrder(input: NewOrder): Promise<VersionedOrder> {
  const { body, headers } = await callFor(orderSchema, "/admin/api/orders", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: stringifyJson(input),
  });
  return { order: body, etag: headers.get("etag") ?? "" };
}

export type OrderTransition = "approve" | "deliver" | "cancel";

/** Approves, delivers or cancels the order, only while it is as read (If-Match: a 412 otherwise). */
export async function changeOrder(id: string, transition: OrderTransition, etag: string): Promise<VersionedOrder> {
  const { body, headers } = await callFor(orderSchema, `/admin/api/orders/${encodeURIComponent(id)}/${transition}`, {
    method: "POST",
    headers: etag ? { "If-Match": etag } : {},
  });
  return { order: body, etag: headers.get("etag") ?? "" };
}

/** An order's records, newest first: its timeline. */
export async function fetchOrderHistory(id: string): Promise<PetHistoryRecord[]> {
  return (await callFor(z.array(petHistoryRecordSchema), `/admin/api/orders/${encodeURIComponent(id)}/history`)).body;
}

/** Which moves an order's status allows, as the API allows them. */
export function movesOf(status: OrderStatus): OrderTransition[] {
  if (status === "placed") return ["approve", "deliver", "cancel"];
  if (status === "approved") return ["deliver", "cancel"];
  return [];
}
