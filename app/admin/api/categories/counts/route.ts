import { signedInGuard } from "@/lib/admin/guard";
import { listCategoriesWithCounts } from "@/lib/categories/store";
import { apiRoute, json } from "@/lib/http/api-route";

// The Categories page's list, for every signed-in staff member.
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(signedInGuard, {
  // GET /admin/api/categories/counts — countCategories: [{id, name, pets}]: the named categories by name, then the
  // ids pets carry without a name (name null), by id
  GET: { operationId: "countCategories", handler: async () => json(await listCategoriesWithCounts()) },
});
