import { adminSurface } from "@/lib/admin/surface";
import { adminAudit, staffChange, staffIdOf } from "@/lib/admin/staff-endpoints";
import { unlockStaff } from "@/lib/auth/staff";
import { edgeRoute } from "@/lib/http/edge";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = edgeRoute(adminSurface, {
  // POST /admin/api/staff/{staffId}/unlock — unlockStaff: clears its failed sign-ins and every address's lock
  // (409 `staff_unchanged` when there is nothing to clear)
  POST: {
    operationId: "unlockStaff",
    handler: async (context) => {
      const id = staffIdOf(context);
      return staffChange(() => unlockStaff(id, { audit: adminAudit(context) }));
    },
  },
});
