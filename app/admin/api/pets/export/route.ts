import { forwardToV1 } from "@/lib/admin/forward";
import { signedInGuard } from "@/lib/admin/guard";
import { apiRoute } from "@/lib/http/api-route";

// The catalogue's "Export CSV": the current view as a download, for any signed-in staff member, through /v1's
// exportPets itself (the same validation, order and rate limit, counted against the staff member).
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(signedInGuard, {
  // GET /admin/api/pets/export — exportPets (status, q, sort as /v1 takes them), streamed through
  GET: {
    operationId: "exportPets",
    handler: ({ request, requestId, url, caller }) =>
      forwardToV1(request, requestId, caller, `/v1/pets/export${url.search}`),
  },
});
