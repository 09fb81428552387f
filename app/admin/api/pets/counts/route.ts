import { forwardToV1 } from "@/lib/admin/forward";
import { signedInGuard } from "@/lib/admin/guard";
import { apiRoute } from "@/lib/http/api-route";

// The catalogue's counts (status chips, "12 sold pets"), for a signed-in staff member, through /v1 itself.
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(signedInGuard, {
  // GET /admin/api/pets/counts — countPets (q as /v1 takes it)
  GET: {
    operationId: "countPets",
    handler: ({ request, requestId, url, caller }) =>
      forwardToV1(request, requestId, caller, `/v1/pets/counts${url.search}`),
  },
});
