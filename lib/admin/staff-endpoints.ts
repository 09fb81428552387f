import "server-only";
import type { AuditContext } from "@/lib/audit/record";
import { adminGuard, type SignedInCaller } from "@/lib/admin/guard";
import type { StaffJson } from "@/lib/auth/staff-schema";
import { type StaffChange, type StaffInfo, type StaffListing } from "@/lib/auth/staff";
import { readJsonBody } from "@/lib/http/body";
import { apiRoute, json, type HandlerContext, type ApiRoute } from "@/lib/http/api-route";
import { Refusal } from "@/lib/refusal";
import { clientAddress } from "@/lib/http/forwarded";
import { parseOrThrow, pathParam } from "@/lib/http/validation";
import { z } from "zod";

// What the Staff page's endpoints (app/admin/api/staff/…) share: who the audit trail names (the signed-in
// admin, from the client's address, with the request id), the account in the path, the JSON of an account,
// and the answer to a change.

/** The JSON of an account: its schema is staffJsonSchema, which the Staff page reads answers with. */
export type { StaffJson };

export function staffJson(staff: StaffInfo | StaffListing): StaffJson {
  return {
    id: staff.id,
    email: staff.email,
    role: staff.role,
    createdAt: staff.createdAt.toISOString(),
    disabledAt: staff.disabledAt?.toISOString() ?? null,
    failedSignIns: staff.failedSignIns,
    ...("lockedAddresses" in staff ? { lockedAddresses: staff.lockedAddresses } : {}),
  };
}

export function adminAudit({ request, requestId, caller }: HandlerContext<SignedInCaller>): AuditContext {
  return {
    actor: { type: "staff", id: caller.staff.id, label: caller.staff.email },
    clientAddress: clientAddress(request),
    requestId,
  };
}

/** The account id in the path: a positive int32; anything else no account can have. */
const staffIdSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/)
  .transform(Number)
  .refine((id) => id <= 2 ** 31 - 1);

/**
 * Runs a change: the account as it is now, or 409 `staff_unchanged` when it was already so. An unlock answers what
 * it cleared too: `cleared` (ClearedSignInCounts).
 */
export async function staffChange(work: () => Promise<StaffChange<{ cleared?: object }>>): Promise<Response> {
  const change = await work();
  if (!change.changed)
    throw new Refusal("staff_unchanged", {
      message: `Nothing changed: ${change.staff.email} is ${change.already}.`,
    });
  return json({ ...staffJson(change.staff), ...(change.cleared ? { cleared: change.cleared } : {}) });
}

/**
 * The route of one change to the account in the path (`/admin/api/staff/{staffId}/…`), admins only: the body,
 * when the change takes one, validated by `body` and refused as `invalid`; the change recorded as the signed-in
 * admin's; answered by staffChange.
 */
export function staffChangeRoute<Body = undefined>(
  method: "POST" | "PUT",
  operationId: string,
  change: (id: number, body: Body, audit: AuditContext) => Promise<StaffChange<{ cleared?: object }>>,
  body?: { schema: z.ZodType<Body>; invalid: string },
): ApiRoute {
  return apiRoute(adminGuard, {
    [method]: {
      operationId,
      handler: async (context: HandlerContext<SignedInCaller>) => {
        const id = pathParam(
          context.params,
          "staffId",
          staffIdSchema,
          (raw) => `No staff account has the id "${raw}".`,
        );
        const input = body
          ? parseOrThrow(body.schema, (await readJsonBody(context.request)).json, "invalid_body", body.invalid)
          : (undefined as Body);
        return staffChange(() => change(id, input, adminAudit(context)));
      },
    },
  });
}
