import { adminRoute } from "@/lib/admin/route";
import { forwardToV1 } from "@/lib/admin/v1-forward";

// The catalogue page's data, for a signed-in staff member only, through the /v1 contract itself.
export const dynamic = "force-dynamic";

// GET /admin/api/pets — listPets (status, limit, cursor as /v1 takes them); the next cursor comes back in X-Next-Cursor
export const GET = adminRoute(({ request, requestId }) => forwardToV1(request, requestId, `/v1/pets${new URL(request.url).search}`), { session: "required" });

// POST /admin/api/pets — createPet, from the add-pet form (same-origin only)
export const POST = adminRoute(({ request, requestId }) => forwardToV1(request, requestId, "/v1/pets"), { session: "required" });
