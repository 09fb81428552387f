import { signedInSurface } from "@/lib/admin/surface";
import { edgeRoute } from "@/lib/http/edge";
import { dryRunImportHandler } from "@/lib/pets/import-handlers";

// The CSV import's dry run, for any signed-in staff member (same-origin only, as every change).
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = edgeRoute(signedInSurface, {
  // POST /admin/api/pets/imports — the file as the body; answers what applying it would do
  POST: { operationId: "dryRunImport", handler: dryRunImportHandler },
});
