import { forwardToV1 } from "@/lib/admin/forward";
import { signedInGuard, type SignedInCaller } from "@/lib/admin/guard";
import { apiRoute, type HandlerContext } from "@/lib/http/api-route";

// A pet's photos, for a signed-in staff member, through /v1 itself. An upload's body (up to 10 MiB) is streamed on
// to uploadPetPhoto, which enforces the limit as it reads: proxy.ts does not match this path, so Next does not read
// the body first, and the session is checked before any of it is.
export const dynamic = "force-dynamic";

const toV1 = ({ request, requestId, params, caller }: HandlerContext<SignedInCaller>) =>
  forwardToV1(request, requestId, caller, `/v1/pets/${encodeURIComponent(params.petId ?? "")}/photos`);

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(signedInGuard, {
  // GET /admin/api/pets/{petId}/photos — listPetPhotos
  GET: { operationId: "listPetPhotos", handler: toV1 },
  // POST /admin/api/pets/{petId}/photos — uploadPetPhoto (same-origin only)
  POST: { operationId: "uploadPetPhoto", handler: toV1 },
  // PATCH /admin/api/pets/{petId}/photos — orderPetPhotos (same-origin only)
  PATCH: { operationId: "orderPetPhotos", handler: toV1 },
});
