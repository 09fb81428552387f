import { forwardToV1 } from "@/lib/admin/forward";
import { signedInGuard, type SignedInCaller } from "@/lib/admin/guard";
import { apiRoute, type HandlerContext } from "@/lib/http/api-route";
import { readPet } from "@/lib/pets/handlers";

// One pet, for a signed-in staff member only. Changes go through the /v1 contract itself; the read does not
// use /v1's getPet, which is deprecated and goes away on its sunset date, but the same read through the data
// layer, so the admin app keeps working after it.
export const dynamic = "force-dynamic";

const toV1 = ({ request, requestId, params, caller }: HandlerContext<SignedInCaller>) =>
  forwardToV1(request, requestId, caller, `/v1/pets/${encodeURIComponent(params.petId ?? "")}`);

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(signedInGuard, {
  // GET /admin/api/pets/{petId} — the pet and its ETag (304 on a matching If-None-Match)
  GET: { operationId: "getPet", handler: readPet },
  // PATCH /admin/api/pets/{petId} — updatePet, with the If-Match the page read (same-origin only)
  PATCH: { operationId: "updatePet", handler: toV1 },
  // DELETE /admin/api/pets/{petId} — deletePet, with the If-Match the page read (same-origin only)
  DELETE: { operationId: "deletePet", handler: toV1 },
});
