import { signedInGuard } from "@/lib/admin/guard";
import { apiRoute } from "@/lib/http/api-route";
import { badRowsHandler } from "@/lib/pets/import-handlers";

// A CSV import's bad rows as a CSV download, for any signed-in staff member.
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(signedInGuard, {
  // POST /admin/api/pets/imports/bad-rows — the file as the body; its invalid rows with an error column
  POST: { operationId: "importBadRows", handler: badRowsHandler },
});
