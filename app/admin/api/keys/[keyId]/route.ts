import { adminGuard } from "@/lib/admin/guard";
import { keyViewWithCalls, staffAuditContext } from "@/lib/admin/keys";
import { keyIdSchema } from "@/lib/auth/api-key-schema";
import { revokeApiKey } from "@/lib/auth/api-keys";
import { apiRoute, json } from "@/lib/http/api-route";
import { Refusal } from "@/lib/refusal";
import { pathParam } from "@/lib/http/validation";

// Revoking one key, for admins only. A second revocation is a 200 saying it was revoked already, with nothing
// changed or recorded; the admin app's own live key is refused (409 admin_app_key: see docs/staff.md).
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(adminGuard, {
  // DELETE /admin/api/keys/{keyId} — revokeKey: {key, alreadyRevoked} (same-origin only)
  DELETE: {
    operationId: "revokeKey",
    handler: async ({ request, requestId, params, caller }) => {
      const keyId = pathParam(params, "keyId", keyIdSchema);
      const revocation = await revokeApiKey(keyId, staffAuditContext(caller.staff, request, requestId), {
        sparingAdminAppKey: true,
      });
      if (!revocation) throw new Refusal("not_found", { message: `No API key has id ${keyId}.` });
      return json({
        key: await keyViewWithCalls(revocation.key),
        alreadyRevoked: revocation.outcome === "already_revoked",
      });
    },
  },
});
