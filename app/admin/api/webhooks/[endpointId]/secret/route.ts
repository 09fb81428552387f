import { adminGuard } from "@/lib/admin/guard";
import { staffAuditContext } from "@/lib/admin/keys";
import { apiRoute, json } from "@/lib/http/api-route";
import { pathParam } from "@/lib/http/validation";
import { endpointIdSchema } from "@/lib/webhooks/schema";
import { endpointSecret, rotateSecret } from "@/lib/webhooks/store";

// An endpoint's signing secret, for admins only: read to configure the receiver, rotated when it leaked.
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(adminGuard, {
  // GET /admin/api/webhooks/{endpointId}/secret — getWebhookSecret: {secret}, never cached
  GET: {
    operationId: "getWebhookSecret",
    handler: async ({ params }) =>
      json(
        { secret: await endpointSecret(pathParam(params, "endpointId", endpointIdSchema)) },
        { headers: { "Cache-Control": "no-store" } },
      ),
  },
  // POST /admin/api/webhooks/{endpointId}/secret — rotateWebhookSecret: {endpoint, secret}; the old secret also
  // signs for 24 hours (same-origin only)
  POST: {
    operationId: "rotateWebhookSecret",
    handler: async ({ request, requestId, params, caller }) =>
      json(
        await rotateSecret(
          pathParam(params, "endpointId", endpointIdSchema),
          staffAuditContext(caller.staff, request, requestId),
        ),
        { headers: { "Cache-Control": "no-store" } },
      ),
  },
});
