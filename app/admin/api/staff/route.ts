import { adminGuard } from "@/lib/admin/guard";
import { adminAudit, staffJson } from "@/lib/admin/staff-endpoints";
import { createStaff, listStaff } from "@/lib/auth/staff";
import { newStaffSchema } from "@/lib/auth/staff-schema";
import { readJsonBody } from "@/lib/http/body";
import { apiRoute, json } from "@/lib/http/api-route";
import { parseOrThrow } from "@/lib/http/validation";

// The staff accounts, for admins only (403 `admin_role_required` for other staff, 401 without a session).
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(adminGuard, {
  // GET /admin/api/staff — listStaff: every account, oldest first, with the addresses locked out of it now
  GET: {
    operationId: "listStaff",
    handler: async () => json((await listStaff()).map(staffJson)),
  },
  // POST /admin/api/staff — createStaff: { email, role, password } → 201 and the account (same-origin only)
  POST: {
    operationId: "createStaff",
    handler: async (context) => {
      const body = (await readJsonBody(context.request)).json;
      const { email, role, password } = parseOrThrow(newStaffSchema, body, "invalid_body", "Invalid staff account");
      const staff = await createStaff(email, password, { role, audit: adminAudit(context) });
      return json(staffJson(staff), { status: 201 });
    },
  },
});
