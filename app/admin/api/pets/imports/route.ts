import { signedInGuard } from "@/lib/admin/guard";
import { apiRoute } from "@/lib/http/api-route";
import { dryRunImportHandler } from "@/lib/pets/import-handlers";

// The CSV import's dry run, for any signed-in staff member (same-origin only, as every change).
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(signedInGuard, {
  // POST /admin/api/pets/imports — the file as the body; answers what applying it would do
  POST: { operationId: "dryRunImport", handler: dryRunImportHandler },
});
