import { adminAudit } from "@/lib/admin/staff-endpoints";
import { signedInGuard } from "@/lib/admin/guard";
import { apiRoute } from "@/lib/http/api-route";
import { restorePetAnswer } from "@/lib/pets/handlers";

// Undoing a deletion in the admin app, for a signed-in staff member (same-origin only, like every admin change).
// Not part of /v1: the deletion there is final for API clients; this brings a pet back from its pet.deleted
// record within a minute (lib/pets/store.ts restorePet).
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(signedInGuard, {
  // POST /admin/api/pets/{petId}/restore — restorePet: the pet as it was before its deletion, and its ETag
  POST: { operationId: "restorePet", handler: (context) => restorePetAnswer(context.params, adminAudit(context)) },
});
