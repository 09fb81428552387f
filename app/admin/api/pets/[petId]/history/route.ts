import { signedInSurface } from "@/lib/admin/surface";
import { petHistoryHandler } from "@/lib/audit/handlers";
import { edgeRoute } from "@/lib/http/edge";

// One pet's history, for any signed-in staff member: who changed it, when, and how.
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = edgeRoute(signedInSurface, {
  // GET /admin/api/pets/{petId}/history — the pet's records newest first (limit, cursor); the next cursor comes
  // back in X-Next-Cursor
  GET: { operationId: "petHistory", handler: petHistoryHandler },
});
