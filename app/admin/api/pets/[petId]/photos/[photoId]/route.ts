import { forwardToV1 } from "@/lib/admin/forward";
import { signedInGuard, type SignedInCaller } from "@/lib/admin/guard";
import { apiRoute, type HandlerContext } from "@/lib/http/api-route";

// One photo, for a signed-in staff member, through /v1 itself: its image (what the admin app's <img> shows), its
// text alternative, its deletion.
export const dynamic = "force-dynamic";

const toV1 = ({ request, requestId, params, caller, url }: HandlerContext<SignedInCaller>) => {
  const photo = `${encodeURIComponent(params.petId ?? "")}/photos/${encodeURIComponent(params.photoId ?? "")}`;
  return forwardToV1(request, requestId, caller, `/v1/pets/${photo}${url.search}`);
};

/**
 * The image, kept by the browser for good (its bytes never change) but by no shared cache: it is a signed-in
 * staff member's answer, unlike /v1's, which a CDN in front of API clients may keep.
 */
async function image(context: HandlerContext<SignedInCaller>): Promise<Response> {
  const answer = await toV1(context);
  if (answer.status === 200 || answer.status === 304)
    answer.headers.set("Cache-Control", "private, max-age=31536000, immutable");
  return answer;
}

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(signedInGuard, {
  // GET /admin/api/pets/{petId}/photos/{photoId}?size= — getPetPhoto
  GET: { operationId: "getPetPhoto", handler: image },
  // PATCH /admin/api/pets/{petId}/photos/{photoId} — updatePetPhoto (same-origin only)
  PATCH: { operationId: "updatePetPhoto", handler: toV1 },
  // DELETE /admin/api/pets/{petId}/photos/{photoId} — deletePetPhoto (same-origin only)
  DELETE: { operationId: "deletePetPhoto", handler: toV1 },
});
