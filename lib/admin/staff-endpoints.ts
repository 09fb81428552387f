import "server-only";
import type { AuditContext } from "@/lib/audit/record";
import { adminSurface, type SignedInCaller } from "@/lib/admin/surface";
import type { StaffJson } from "@/lib/auth/staff-schema";
import { StaffError, type StaffChange, type StaffInfo, type StaffListing } from "@/lib/auth/staff";
import { readJsonBody } from "@/lib/http/body";
import { edgeRoute, json, type EdgeContext, type EdgeRoute } from "@/lib/http/edge";
import { ApiError } from "@/lib/http/errors";
import { clientAddress } from "@/lib/http/forwarded";
import { parseOrThrow } from "@/lib/http/validation";
import type { z } from "zod";

// What the Staff page's endpoints (app/admin/api/staff/…) share: who the audit trail names (the signed-in
// admin, from the client's address, with the request id), the account in the path, the JSON of an account,
// and how a refused change is answered.

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

export function adminAudit({ request, requestId, caller }: EdgeContext<SignedInCaller>): AuditContext {
  return {
    actor: { type: "staff", id: caller.staff.id, label: caller.staff.email },
    clientAddress: clientAddress(request),
    requestId,
  };
}

/** The account id in the path: a positive integer, else 404 (no account can have it). */
export function staffIdOf({ params }: EdgeContext<SignedInCaller>): number {
  const raw = params.staffId ?? "";
  const id = /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id > 2 ** 31 - 1)
    throw new ApiError("not_found", { message: `No staff account has the id "${raw}".` });
  return id;
}

/**
 * Runs a change, answering its refusals with the catalogue's codes. An unlock answers what it cleared too:
 * `cleared` (ClearedSignInCounts).
 */
export async function staffChange(work: () => Promise<StaffChange<{ cleared?: object }>>): Promise<Response> {
  let change: StaffChange<{ cleared?: object }>;
  try {
    change = await work();
  } catch (error) {
    throw staffApiError(error);
  }
  if (!change.changed)
    throw new ApiError("staff_unchanged", {
      message: `Nothing changed: ${change.staff.email} is ${change.already}.`,
    });
  return json({ ...staffJson(change.staff), ...(change.cleared ? { cleared: change.cleared } : {}) });
}

export function staffApiError(error: unknown): unknown {
  if (!(error instanceof StaffError)) return error;
  switch (error.kind) {
    case "not_found":
      return new ApiError("not_found", { message: error.message });
    case "exists":
      return new ApiError("staff_exists", { message: error.message });
    case "last_admin":
      return new ApiError("last_admin", { message: error.message });
    default:
      return new ApiError("invalid_body", { message: `Invalid staff account: ${error.message}.` });
  }
}

/**
 * The route of one change to the account in the path (`/admin/api/staff/{staffId}/…`), admins only: the body,
 * when the change takes one, validated by `body` and refused as `invalid`; the change recorded as the signed-in
 * admin's; its refusals answered by staffChange.
 */
export function staffChangeRoute<Body = undefined>(
  method: "POST" | "PUT",
  operationId: string,
  change: (id: number, body: Body, audit: AuditContext) => Promise<StaffChange<{ cleared?: object }>>,
  body?: { schema: z.ZodType<Body>; invalid: string },
): EdgeRoute {
  return edgeRoute(adminSurface, {
    [method]: {
      operationId,
      handler: async (context: EdgeContext<SignedInCaller>) => {
        const id = staffIdOf(context);
        const input = body
          ? parseOrThrow(body.schema, (await readJsonBody(context.request)).json, "invalid_body", body.invalid)
          : (undefined as Body);
        return staffChange(() => change(id, input, adminAudit(context)));
      },
    },
  });
}
