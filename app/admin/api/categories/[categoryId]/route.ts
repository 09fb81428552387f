import { categoryIdSchema } from "@/lib/admin/categories";
import { adminAudit } from "@/lib/admin/staff-endpoints";
import { adminGuard } from "@/lib/admin/guard";
import { categoryRenameSchema } from "@/lib/categories/schema";
import { renameCategory } from "@/lib/categories/store";
import { readJsonBody } from "@/lib/http/body";
import { apiRoute, json } from "@/lib/http/api-route";
import { parseOrThrow, pathParam } from "@/lib/http/validation";

// Renaming a category, for admins only. Deleting one is not offered (see docs/staff.md).
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(adminGuard, {
  // PATCH /admin/api/categories/{categoryId} — renameCategory: {name} → {category, renamed}; renamed is false when
  // the name was already exactly that (nothing recorded); 409 `category_name_taken` (same-origin only)
  PATCH: {
    operationId: "renameCategory",
    handler: async (context) => {
      const id = pathParam(context.params, "categoryId", categoryIdSchema, (raw) => `No category has the id "${raw}".`);
      const body = (await readJsonBody(context.request)).json;
      const { name } = parseOrThrow(categoryRenameSchema, body, "invalid_body", "Invalid category");
      const { category, changed } = await renameCategory(id, name, adminAudit(context));
      return json({ category, renamed: changed });
    },
  },
});
