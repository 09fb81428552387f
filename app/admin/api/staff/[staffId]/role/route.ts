import { adminSurface } from "@/lib/admin/surface";
import { adminAudit, staffChange, staffIdOf } from "@/lib/admin/staff-endpoints";
import { setStaffRole } from "@/lib/auth/staff";
import { staffRoleBodySchema } from "@/lib/auth/staff-schema";
import { readJsonBody } from "@/lib/http/body";
import { edgeRoute } from "@/lib/http/edge";
import { parseOrThrow } from "@/lib/http/validation";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = edgeRoute(adminSurface, {
  // PUT /admin/api/staff/{staffId}/role — setStaffRole: { role }; 409 `last_admin` for the last enabled admin
  PUT: {
    operationId: "setStaffRole",
    handler: async (context) => {
      const id = staffIdOf(context);
      const body = (await readJsonBody(context.request)).json;
      const { role } = parseOrThrow(staffRoleBodySchema, body, "invalid_body", "Invalid role");
      return staffChange(() => setStaffRole(id, role, { audit: adminAudit(context) }));
    },
  },
});
