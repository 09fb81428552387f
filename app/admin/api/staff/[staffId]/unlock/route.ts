import { staffChangeRoute } from "@/lib/admin/staff-endpoints";
import { unlockStaff } from "@/lib/auth/staff";

export const dynamic = "force-dynamic";

// POST /admin/api/staff/{staffId}/unlock — unlockStaff: clears every count that can refuse the account and answers
// what it cleared (409 `staff_unchanged` when there is nothing to clear)
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = staffChangeRoute(
  "POST",
  "unlockStaff",
  (id, _body, audit) => unlockStaff(id, { audit }),
);
