import "server-only";
import { respond } from "@/lib/http/response";
import { readJsonBody } from "@/lib/http/body";
import { expectedOf, preconditionsOf, versionTag } from "@/lib/http/conditional";
import { json, jsonText, type Handler } from "@/lib/http/api-route";
import { stringifyJson } from "@/lib/http/json";
import { noQueryParameters, parseOrThrow, pathParam } from "@/lib/http/validation";
import { idempotency } from "@/lib/idempotency";
import { nextPageLink } from "@/lib/pets/cursor";
import { afterOf, queryOf } from "@/lib/pets/handlers";
import { listOrdersQuerySchema, newOrderSchema, orderIdSchema, type Order } from "@/lib/orders/schema";
import {
  changeOrder,
  forgetNextLapse,
  settleExpiredHolds,
  countOrders,
  findOrder,
  inventory,
  listOrders,
  noSuchOrder,
  placeOrder,
  type OrderTransition,
  type VersionedOrder,
} from "@/lib/orders/store";
import { auditContextOf, type ApiClient } from "@/lib/v1/guard";

// The store's operations of /v1 (under /v1/store): each parses its input, calls the orders store, shapes the
// answer, as lib/pets/handlers.ts does for pets.

/** Whether one of these orders is shown placed past its hold: one that ended between the guard's check and the read. */
function lapsed(orders: Order[]): boolean {
  const now = Date.now();
  return orders.some((order) => order.expiresAt !== undefined && Date.parse(order.expiresAt) <= now);
}

/** Expires what has lapsed by now, whatever this instance believed. */
async function settleNow(): Promise<void> {
  forgetNextLapse();
  await settleExpiredHolds();
}

/** An order's strong ETag, made as a pet's: its id and the count of its changes. */
export function orderEtag({ order, version }: VersionedOrder): string {
  return versionTag(order.id, version);
}

function orderAnswer(found: VersionedOrder): Response {
  return jsonText(stringifyJson(found.order), { headers: { ETag: orderEtag(found) } });
}

// POST /v1/store/orders — placeOrder
export const placeOrderHandler: Handler<ApiClient> = async ({ request, requestId, caller }) => {
  const once = idempotency(request, caller.apiKey.id, caller.actingStaff?.id);
  const body = await readJsonBody(request);
  const input = parseOrThrow(newOrderSchema, body.json, "invalid_body", "Invalid order");
  return once.run(body.text, async (tx) => {
    const placed = await placeOrder(input, auditContextOf(caller, requestId), tx);
    const { id } = placed.order;
    return {
      status: 201,
      body: stringifyJson(placed.order),
      location: `/v1/store/orders/${id}`,
      etag: orderEtag(placed),
    };
  });
};

// GET /v1/store/orders — listOrders
export const listOrdersHandler: Handler<ApiClient> = async ({ url }) => {
  const query = parseOrThrow(listOrdersQuerySchema, queryOf(url), "invalid_query", "Invalid query");
  const { limit, status, petId, q, sort } = query;
  // The cursors are listPets' id-order ones, checked as listPets checks them.
  const after = query.cursor === undefined ? undefined : afterOf(query.cursor, sort).id;
  let page = await listOrders({ limit, status, petId, q, sort, after });
  if (lapsed(page.orders)) {
    await settleNow();
    page = await listOrders({ limit, status, petId, q, sort, after });
  }
  const last = page.orders.at(-1);
  const kept = {
    limit: String(limit),
    status,
    petId: petId?.toString(),
    q,
    sort: url.searchParams.has("sort") ? sort : undefined,
  };
  const headers: Record<string, string> =
    page.more && last ? { Link: nextPageLink(url.pathname, kept, { sort, id: last.id }) } : {};
  return jsonText(stringifyJson(page.orders), { headers });
};

// GET /v1/store/orders/counts — countOrders
export const countOrdersHandler: Handler<ApiClient> = async ({ url }) => {
  parseOrThrow(noQueryParameters, queryOf(url), "invalid_query", "Invalid query");
  return json(await countOrders());
};

// GET /v1/store/orders/{orderId} — getOrder; 304 with If-None-Match naming its current ETag, as getPet.
export const getOrderHandler: Handler<ApiClient> = async ({ request, params }) => {
  const id = pathParam(params, "orderId", orderIdSchema);
  const { ifNoneMatch } = preconditionsOf(request, id, { lenient: true });
  let found = await findOrder(id);
  if (found && lapsed([found.order])) {
    await settleNow();
    found = await findOrder(id);
  }
  if (!found) throw noSuchOrder(id);
  if (ifNoneMatch === "*" || ifNoneMatch?.includes(found.version))
    return respond(null, { status: 304, headers: { ETag: orderEtag(found) } });
  return orderAnswer(found);
};

/** POST /v1/store/orders/{orderId}/approve, /deliver and /cancel: the order as it is after. */
function transitionHandler(transition: OrderTransition): Handler<ApiClient> {
  return async ({ request, requestId, params, caller }) => {
    const id = pathParam(params, "orderId", orderIdSchema);
    return orderAnswer(await changeOrder(id, transition, expectedOf(request, id), auditContextOf(caller, requestId)));
  };
}
export const approveOrderHandler = transitionHandler("approve");
export const deliverOrderHandler = transitionHandler("deliver");
export const cancelOrderHandler = transitionHandler("cancel");

// GET /v1/store/inventory — getInventory
export const getInventoryHandler: Handler<ApiClient> = async ({ url }) => {
  parseOrThrow(noQueryParameters, queryOf(url), "invalid_query", "Invalid query");
  return json(await inventory());
};
