import { adminSurface } from "@/lib/admin/surface";
import { exportHandler } from "@/lib/audit/handlers";
import { edgeRoute } from "@/lib/http/edge";

// The activity log as a CSV download, for admins only (403 for other staff).
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = edgeRoute(adminSurface, {
  // GET /admin/api/activity/export — the records the filters (actor, action, pet) select, as CSV, streamed
  GET: { operationId: "exportActivity", handler: exportHandler },
});
