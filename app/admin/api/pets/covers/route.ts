import { signedInGuard } from "@/lib/admin/guard";
import { apiRoute, json } from "@/lib/http/api-route";
import { parseOrThrow } from "@/lib/http/validation";
import { queryOf } from "@/lib/pets/handlers";
import { coversQuerySchema } from "@/lib/photos/schema";
import { coversOf } from "@/lib/photos/store";

// The cover photo of each pet of a catalogue page, in one read: the table's thumbnails. Admin app only (/v1 clients
// list a pet's photos); at most a page's 100 pets.
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(signedInGuard, {
  // GET /admin/api/pets/covers?ids=1,2,3 — each pet's cover, for those that have one
  GET: {
    operationId: "listPetCovers",
    handler: async ({ url }) => {
      const { ids } = parseOrThrow(coversQuerySchema, queryOf(url), "invalid_query", "Invalid query");
      return json(await coversOf(ids));
    },
  },
});
