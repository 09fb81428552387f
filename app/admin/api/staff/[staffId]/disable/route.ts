import { adminSurface } from "@/lib/admin/surface";
import { adminAudit, staffChange, staffIdOf } from "@/lib/admin/staff-endpoints";
import { disableStaff } from "@/lib/auth/staff";
import { edgeRoute } from "@/lib/http/edge";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = edgeRoute(adminSurface, {
  // POST /admin/api/staff/{staffId}/disable — disableStaff: ends its sessions; 409 `last_admin` for the last
  // enabled admin, 409 `staff_unchanged` when it is disabled already
  POST: {
    operationId: "disableStaff",
    handler: async (context) => {
      const id = staffIdOf(context);
      return staffChange(() => disableStaff(id, { audit: adminAudit(context) }));
    },
  },
});
