import { adminSurface } from "@/lib/admin/surface";
import { adminAudit, staffChange, staffIdOf } from "@/lib/admin/staff-endpoints";
import { enableStaff } from "@/lib/auth/staff";
import { edgeRoute } from "@/lib/http/edge";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = edgeRoute(adminSurface, {
  // POST /admin/api/staff/{staffId}/enable — enableStaff: it may sign in again (409 `staff_unchanged` if enabled)
  POST: {
    operationId: "enableStaff",
    handler: async (context) => {
      const id = staffIdOf(context);
      return staffChange(() => enableStaff(id, { audit: adminAudit(context) }));
    },
  },
});
