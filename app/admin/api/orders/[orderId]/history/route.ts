import { signedInGuard } from "@/lib/admin/guard";
import { orderHistoryHandler } from "@/lib/audit/handlers";
import { apiRoute } from "@/lib/http/api-route";

// One order's timeline, for any signed-in staff member: who placed, approved, delivered or cancelled it, and when.
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(signedInGuard, {
  // GET /admin/api/orders/{orderId}/history — the order's records newest first (limit, cursor)
  GET: { operationId: "orderHistory", handler: orderHistoryHandler },
});
