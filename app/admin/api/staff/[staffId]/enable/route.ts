import { staffChangeRoute } from "@/lib/admin/staff-endpoints";
import { enableStaff } from "@/lib/auth/staff";

export const dynamic = "force-dynamic";

// POST /admin/api/staff/{staffId}/enable — enableStaff: it may sign in again (409 `staff_unchanged` if enabled)
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = staffChangeRoute(
  "POST",
  "enableStaff",
  (id, _body, audit) => enableStaff(id, { audit }),
);
