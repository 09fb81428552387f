import { adminGuard } from "@/lib/admin/guard";
import { activityHandler } from "@/lib/audit/handlers";
import { apiRoute } from "@/lib/http/api-route";

// The activity log, for admins only (403 for other staff).
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(adminGuard, {
  // GET /admin/api/activity — records newest first (limit, cursor, actor, action, pet); the next cursor comes
  // back in X-Next-Cursor
  GET: { operationId: "listActivity", handler: activityHandler },
});
