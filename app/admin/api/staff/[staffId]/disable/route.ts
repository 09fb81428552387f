import { staffChangeRoute } from "@/lib/admin/staff-endpoints";
import { disableStaff } from "@/lib/auth/staff";

export const dynamic = "force-dynamic";

// POST /admin/api/staff/{staffId}/disable — disableStaff: ends its sessions; 409 `last_admin` for the last enabled
// admin, 409 `staff_unchanged` when it is disabled already
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = staffChangeRoute(
  "POST",
  "disableStaff",
  (id, _body, audit) => disableStaff(id, { audit }),
);
