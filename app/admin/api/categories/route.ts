import { requireAdminCaller } from "@/lib/admin/categories";
import { adminAudit } from "@/lib/admin/staff-endpoints";
import { signedInGuard } from "@/lib/admin/guard";
import { newCategorySchema } from "@/lib/categories/schema";
import { createCategory, listCategories } from "@/lib/categories/store";
import { readJsonBody } from "@/lib/http/body";
import { apiRoute, json } from "@/lib/http/api-route";
import { parseOrThrow } from "@/lib/http/validation";

// The category names: every signed-in staff member reads them (the catalogue, the pet forms); admins add them (403
// `admin_role_required` for other staff, 401 without a session).
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(signedInGuard, {
  // GET /admin/api/categories — listCategories: [{id, name}] sorted by name, as GET /v1/categories answers
  GET: { operationId: "listCategories", handler: async () => json(await listCategories()) },
  // POST /admin/api/categories — createCategory: {name, id?} → 201 and the category; 409 `category_name_taken`,
  // `category_named` (admins only, same-origin only)
  POST: {
    operationId: "createCategory",
    handler: async (context) => {
      requireAdminCaller(context.caller);
      const body = (await readJsonBody(context.request)).json;
      const input = parseOrThrow(newCategorySchema, body, "invalid_body", "Invalid category");
      return json(await createCategory(input, adminAudit(context)), { status: 201 });
    },
  },
});
