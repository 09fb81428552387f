import { forwardToV1 } from "@/lib/admin/forward";
import { signedInGuard } from "@/lib/admin/guard";
import { apiRoute } from "@/lib/http/api-route";

// The Orders page's status chips, for a signed-in staff member, through /v1 itself.
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(signedInGuard, {
  // GET /admin/api/orders/counts — countOrders
  GET: {
    operationId: "countOrders",
    handler: ({ request, requestId, url, caller }) =>
      forwardToV1(request, requestId, caller, `/v1/store/orders/counts${url.search}`),
  },
});
