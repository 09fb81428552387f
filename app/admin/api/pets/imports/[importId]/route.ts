import { signedInGuard } from "@/lib/admin/guard";
import { apiRoute } from "@/lib/http/api-route";
import { applyImportHandler, importProgressHandler } from "@/lib/pets/import-handlers";

// Applying a CSV import, for any signed-in staff member: idempotent, so PUT.
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(signedInGuard, {
  // PUT /admin/api/pets/imports/{importId} — the same file again; creates the valid rows not yet created
  PUT: { operationId: "applyImport", handler: applyImportHandler },
  // GET /admin/api/pets/imports/{importId} — its rows done so far, which the import page shows while applying
  GET: { operationId: "importProgress", handler: importProgressHandler },
});
