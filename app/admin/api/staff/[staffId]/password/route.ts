import { staffChangeRoute } from "@/lib/admin/staff-endpoints";
import { resetStaffPassword } from "@/lib/auth/staff";
import { staffPasswordBodySchema } from "@/lib/auth/staff-schema";

export const dynamic = "force-dynamic";

// PUT /admin/api/staff/{staffId}/password — resetStaffPassword: { password }; ends the account's sessions
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = staffChangeRoute(
  "PUT",
  "resetStaffPassword",
  (id, { password }, audit) => resetStaffPassword(id, password, { audit }),
  { schema: staffPasswordBodySchema, invalid: "Invalid password" },
);
