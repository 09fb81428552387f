import { adminGuard } from "@/lib/admin/guard";
import { apiRoute, json } from "@/lib/http/api-route";
import { pathParam } from "@/lib/http/validation";
import { deliveryIdSchema, endpointIdSchema } from "@/lib/webhooks/schema";
import { resendDelivery } from "@/lib/webhooks/store";

// Resending one delivery, for admins only.
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(adminGuard, {
  // POST /admin/api/webhooks/{endpointId}/deliveries/{deliveryId}/resend — resendWebhookDelivery: 201 with a new
  // delivery of the same message (the same webhook-id), sent within a second (same-origin only)
  POST: {
    operationId: "resendWebhookDelivery",
    handler: async ({ params }) => {
      const endpointId = pathParam(params, "endpointId", endpointIdSchema);
      const deliveryId = pathParam(params, "deliveryId", deliveryIdSchema);
      return json({ delivery: await resendDelivery(endpointId, deliveryId) }, { status: 201 });
    },
  },
});
