import { signedInGuard } from "@/lib/admin/guard";
import { petHistoryHandler } from "@/lib/audit/handlers";
import { apiRoute } from "@/lib/http/api-route";

// One pet's history, for any signed-in staff member: who changed it, when, and how.
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(signedInGuard, {
  // GET /admin/api/pets/{petId}/history — the pet's records newest first (limit, cursor); the next cursor comes
  // back in X-Next-Cursor
  GET: { operationId: "petHistory", handler: petHistoryHandler },
});
