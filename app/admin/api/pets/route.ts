import { forwardToV1 } from "@/lib/admin/forward";
import { signedInGuard } from "@/lib/admin/guard";
import { apiRoute } from "@/lib/http/api-route";

// The catalogue page's data, for a signed-in staff member only, through the /v1 contract itself.
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(signedInGuard, {
  // GET /admin/api/pets — listPets (status, q, limit, cursor as /v1 takes them); the next cursor comes back in
  // X-Next-Cursor
  GET: {
    operationId: "listPets",
    handler: ({ request, requestId, url, caller }) => forwardToV1(request, requestId, caller, `/v1/pets${url.search}`),
  },
  // POST /admin/api/pets — createPet, from the add-pet form (same-origin only)
  POST: {
    operationId: "createPet",
    handler: ({ request, requestId, caller }) => forwardToV1(request, requestId, caller, "/v1/pets"),
  },
});
