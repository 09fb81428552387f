import { adminGuard } from "@/lib/admin/guard";
import { staffAuditContext } from "@/lib/admin/keys";
import { readJsonBody } from "@/lib/http/body";
import { apiRoute, json } from "@/lib/http/api-route";
import { parseOrThrow } from "@/lib/http/validation";
import { newEndpointSchema } from "@/lib/webhooks/schema";
import { createEndpoint, listEndpoints } from "@/lib/webhooks/store";

// The Webhooks page's endpoints, for admins only (403 for other staff, 401 without a session).
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(adminGuard, {
  // GET /admin/api/webhooks — listWebhooks: every endpoint, never a secret
  GET: { operationId: "listWebhooks", handler: async () => json({ endpoints: await listEndpoints() }) },
  // POST /admin/api/webhooks — createWebhook ({url, eventTypes?}): 201 with the endpoint and its secret; 400
  // webhook_url_refused for a URL that is not http(s) or reaches a non-public address (same-origin only)
  POST: {
    operationId: "createWebhook",
    handler: async ({ request, requestId, caller }) => {
      const body = await readJsonBody(request);
      const input = parseOrThrow(newEndpointSchema, body.json, "invalid_body", "Invalid endpoint");
      const created = await createEndpoint(input, staffAuditContext(caller.staff, request, requestId));
      return json(created, { status: 201, headers: { Location: `/admin/api/webhooks/${created.endpoint.id}` } });
    },
  },
});
