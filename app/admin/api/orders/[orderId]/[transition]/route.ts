import { forwardToV1 } from "@/lib/admin/forward";
import { signedInGuard } from "@/lib/admin/guard";
import { apiRoute } from "@/lib/http/api-route";
import { ORDER_TRANSITIONS } from "@/lib/orders/store";
import { Refusal } from "@/lib/refusal";

// Approving, delivering and cancelling an order, for any signed-in staff member (same-origin only), with the
// If-Match the page read, through /v1 itself.
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(signedInGuard, {
  // POST /admin/api/orders/{orderId}/{approve|deliver|cancel} — approveOrder, deliverOrder, cancelOrder
  POST: {
    operationId: "changeOrder",
    handler: ({ request, requestId, params, caller }) => {
      const transition = params.transition ?? "";
      if (!Object.hasOwn(ORDER_TRANSITIONS, transition)) throw new Refusal("not_found");
      const id = encodeURIComponent(params.orderId ?? "");
      return forwardToV1(request, requestId, caller, `/v1/store/orders/${id}/${transition}`);
    },
  },
});
