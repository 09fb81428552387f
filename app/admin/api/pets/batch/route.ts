import { forwardToV1 } from "@/lib/admin/forward";
import { signedInGuard } from "@/lib/admin/guard";
import { apiRoute } from "@/lib/http/api-route";

// The catalogue's bulk actions, for a signed-in staff member only (same-origin, like every admin change), through
// /v1's batchPets: each pet's record names the staff member.
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(signedInGuard, {
  // POST /admin/api/pets/batch — batchPets
  POST: {
    operationId: "batchPets",
    handler: ({ request, requestId, caller }) => forwardToV1(request, requestId, caller, "/v1/pets/batch"),
  },
});
