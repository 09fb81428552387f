import { staffChangeRoute } from "@/lib/admin/staff-endpoints";
import { setStaffRole } from "@/lib/auth/staff";
import { staffRoleBodySchema } from "@/lib/auth/staff-schema";

export const dynamic = "force-dynamic";

// PUT /admin/api/staff/{staffId}/role — setStaffRole: { role }; 409 `last_admin` for the last enabled admin
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = staffChangeRoute(
  "PUT",
  "setStaffRole",
  (id, { role }, audit) => setStaffRole(id, role, { audit }),
  { schema: staffRoleBodySchema, invalid: "Invalid role" },
);
