import { adminGuard } from "@/lib/admin/guard";
import { apiRoute, json } from "@/lib/http/api-route";
import { pathParam } from "@/lib/http/validation";
import { endpointIdSchema } from "@/lib/webhooks/schema";
import { listDeliveries, sendTestMessage } from "@/lib/webhooks/store";

// An endpoint's deliveries, for admins only.
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(adminGuard, {
  // GET /admin/api/webhooks/{endpointId}/deliveries — listWebhookDeliveries: the latest 50, newest first
  GET: {
    operationId: "listWebhookDeliveries",
    handler: async ({ params }) =>
      json({ deliveries: await listDeliveries(pathParam(params, "endpointId", endpointIdSchema)) }),
  },
  // POST /admin/api/webhooks/{endpointId}/deliveries — sendWebhookTest: 201 with a new delivery of a
  // webhook.test message, sent within a second (same-origin only)
  POST: {
    operationId: "sendWebhookTest",
    handler: async ({ params }) =>
      json({ delivery: await sendTestMessage(pathParam(params, "endpointId", endpointIdSchema)) }, { status: 201 }),
  },
});
