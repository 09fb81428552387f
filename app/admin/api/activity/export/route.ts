import { adminGuard } from "@/lib/admin/guard";
import { exportHandler } from "@/lib/audit/handlers";
import { apiRoute } from "@/lib/http/api-route";

// The activity log as a CSV download, for admins only (403 for other staff).
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(adminGuard, {
  // GET /admin/api/activity/export — the records the filters (actor, action, pet) select, as CSV, streamed
  GET: { operationId: "exportActivity", handler: exportHandler },
});
