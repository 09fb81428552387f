import { adminSurface } from "@/lib/admin/surface";
import { adminAudit, staffChange, staffIdOf } from "@/lib/admin/staff-endpoints";
import { resetStaffPassword } from "@/lib/auth/staff";
import { staffPasswordBodySchema } from "@/lib/auth/staff-schema";
import { readJsonBody } from "@/lib/http/body";
import { edgeRoute } from "@/lib/http/edge";
import { parseOrThrow } from "@/lib/http/validation";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = edgeRoute(adminSurface, {
  // PUT /admin/api/staff/{staffId}/password — resetStaffPassword: { password }; ends the account's sessions
  PUT: {
    operationId: "resetStaffPassword",
    handler: async (context) => {
      const id = staffIdOf(context);
      const body = (await readJsonBody(context.request)).json;
      const { password } = parseOrThrow(staffPasswordBodySchema, body, "invalid_body", "Invalid password");
      return staffChange(() => resetStaffPassword(id, password, { audit: adminAudit(context) }));
    },
  },
});
