import { forwardToV1 } from "@/lib/admin/forward";
import { signedInGuard } from "@/lib/admin/guard";
import { apiRoute } from "@/lib/http/api-route";

// The Orders page's data and a counter sale from a pet's panel, for any signed-in staff member, through /v1 itself.
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(signedInGuard, {
  // GET /admin/api/orders — listOrders (status, petId, q, sort, limit, cursor as /v1 takes them); the next cursor
  // comes back in X-Next-Cursor
  GET: {
    operationId: "listOrders",
    handler: ({ request, requestId, url, caller }) =>
      forwardToV1(request, requestId, caller, `/v1/store/orders${url.search}`),
  },
  // POST /admin/api/orders — placeOrder (same-origin only)
  POST: {
    operationId: "placeOrder",
    handler: ({ request, requestId, caller }) => forwardToV1(request, requestId, caller, "/v1/store/orders"),
  },
});
