import { adminGuard } from "@/lib/admin/guard";
import { keyListing, keyView, staffAuditContext } from "@/lib/admin/keys";
import { newKeySchema } from "@/lib/auth/api-key-schema";
import { createApiKey } from "@/lib/auth/api-keys";
import { readJsonBody } from "@/lib/http/body";
import { apiRoute, json } from "@/lib/http/api-route";
import { parseOrThrow } from "@/lib/http/validation";

// The API keys page's data, for admins only (403 for other staff, 401 without a session).
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(adminGuard, {
  // GET /admin/api/keys — listKeys: every key with its getPet calls, never a secret
  GET: { operationId: "listKeys", handler: async () => json({ keys: await keyListing() }) },
  // POST /admin/api/keys — createKey ({name}): 201 with the key itself, this once (same-origin only)
  POST: {
    operationId: "createKey",
    handler: async ({ request, requestId, caller }) => {
      const body = await readJsonBody(request);
      const { name } = parseOrThrow(newKeySchema, body.json, "invalid_body", "Invalid key");
      const { info, key } = await createApiKey(name, staffAuditContext(caller.staff, request, requestId));
      return json({ ...keyView(info), key }, { status: 201, headers: { Location: `/admin/api/keys/${info.id}` } });
    },
  },
});
