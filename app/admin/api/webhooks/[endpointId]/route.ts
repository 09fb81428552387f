import { adminGuard } from "@/lib/admin/guard";
import { staffAuditContext } from "@/lib/admin/keys";
import { readJsonBody } from "@/lib/http/body";
import { apiRoute, json } from "@/lib/http/api-route";
import { parseOrThrow, pathParam } from "@/lib/http/validation";
import { Refusal } from "@/lib/refusal";
import { endpointIdSchema, endpointStateSchema } from "@/lib/webhooks/schema";
import { deleteEndpoint, getEndpoint, setEndpointState } from "@/lib/webhooks/store";

// One webhook endpoint, for admins only.
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(adminGuard, {
  // GET /admin/api/webhooks/{endpointId} — getWebhook
  GET: {
    operationId: "getWebhook",
    handler: async ({ params }) =>
      json({ endpoint: await getEndpoint(pathParam(params, "endpointId", endpointIdSchema)) }),
  },
  // PATCH /admin/api/webhooks/{endpointId} — setWebhookState ({state: "enabled" | "disabled"}): {endpoint, changed}
  PATCH: {
    operationId: "setWebhookState",
    handler: async ({ request, requestId, params, caller }) => {
      const id = pathParam(params, "endpointId", endpointIdSchema);
      const body = await readJsonBody(request);
      const { state } = parseOrThrow(endpointStateSchema, body.json, "invalid_body", "Invalid state");
      return json(await setEndpointState(id, state, staffAuditContext(caller.staff, request, requestId)));
    },
  },
  // DELETE /admin/api/webhooks/{endpointId} — deleteWebhook: 204, the endpoint and its deliveries gone
  DELETE: {
    operationId: "deleteWebhook",
    handler: async ({ request, requestId, params, caller }) => {
      const id = pathParam(params, "endpointId", endpointIdSchema);
      if (!(await deleteEndpoint(id, staffAuditContext(caller.staff, request, requestId))))
        throw new Refusal("not_found", { message: `No webhook endpoint has id ${id}.` });
      return new Response(null, { status: 204 });
    },
  },
});
