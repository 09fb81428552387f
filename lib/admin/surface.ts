import "server-only";
import { sessionTokenOf } from "@/lib/auth/cookies";
import { isSameOrigin, trustedOrigin } from "@/lib/auth/origin";
import { sessionStaff } from "@/lib/auth/sessions";
import type { SignedInStaff } from "@/lib/auth/staff";
import type { Surface } from "@/lib/http/edge";
import { ApiError } from "@/lib/http/errors";

// How the admin app's endpoints (/admin/api/…) identify their callers: the staff session cookie,
// checked by the endpoint itself (never trusting a proxy or a layout), and for every method but GET an
// Origin equal to the app's own. They never read an Authorization header, and /v1 never reads the
// session cookie.

const CROSS_ORIGIN_UNCONFIGURED =
  "Refused: this server is reached by a name it cannot trust on its own; set PUBLIC_ORIGIN to the address " +
  "staff use (for example https://store.example) to accept changes from its pages.";

export type StaffCaller = { staff: SignedInStaff | undefined; sessionToken: string | undefined };
export type SignedInCaller = { staff: SignedInStaff; sessionToken: string };

function staffSurface<Caller extends StaffCaller>(required: "nothing" | "session" | "admin"): Surface<Caller> {
  return {
    label: "admin request",
    name: "admin",
    async identify(request) {
      const sessionToken = sessionTokenOf(request);
      const staff = await sessionStaff(sessionToken);
      if (required !== "nothing" && !staff) throw new ApiError("session_required");
      if (required === "admin" && staff?.role !== "admin") throw new ApiError("admin_role_required");
      if (request.method !== "GET" && !isSameOrigin(request)) {
        // Reached by a DNS name with no PUBLIC_ORIGIN: say what the operator must set.
        const unset = trustedOrigin(request) === undefined;
        throw new ApiError("cross_origin", unset ? { message: CROSS_ORIGIN_UNCONFIGURED } : {});
      }
      return { staff, sessionToken } as Caller;
    },
    logFields: ({ staff }) => (staff ? { staffId: staff.id } : {}),
  };
}

/** Endpoints for a signed-in staff member only (401 without a live session). */
export const signedInSurface = staffSurface<SignedInCaller>("session");
/** Endpoints for a signed-in admin only: API keys, staff accounts, the activity log (403 for other staff). */
export const adminSurface = staffSurface<SignedInCaller>("admin");
/** Endpoints anyone may call, such as sign-in; the session is read when there is one. */
export const visitorSurface = staffSurface<StaffCaller>("nothing");
