import "server-only";
import { adminAppKey } from "@/lib/auth/admin-key";
import { sessionTokenOf } from "@/lib/auth/cookies";
import { isSameOrigin, trustedOrigin } from "@/lib/auth/origin";
import { sessionStaff } from "@/lib/auth/sessions";
import type { SignedInStaff } from "@/lib/auth/staff";
import { ConfigError } from "@/lib/config";
import type { Guard } from "@/lib/http/api-route";
import { Refusal } from "@/lib/refusal";
import { log } from "@/lib/log";
import { IMPORT_LIMIT_BYTES } from "@/lib/pets/import";
import { consumeRateLimit, rateLimitHeaders, rateLimitPolicyHeader, type RateLimitState } from "@/lib/rate-limit";

// How the admin app's endpoints (/admin/api/…) identify their callers: the staff session cookie,
// checked by the endpoint itself (never trusting a proxy or a layout), and for every method but GET an
// Origin equal to the app's own. They never read an Authorization header, and /v1 never reads the
// session cookie.
// Every endpoint for signed-in staff counts the request against the staff member's rate-limit bucket
// within the admin app's key ("staff:<id>", lib/rate-limit.ts): the same bucket /v1 counts what the app
// forwards in, so a staff member has one budget whatever they call, and a forward is counted here once,
// not again by /v1. A request costs one per started 64 KiB of its body (a CSV import of 5 MiB costs 80);
// a body of undeclared length (chunked) costs as much as the largest file an import takes. Sign-in and
// sign-out (the visitor guard) are not counted: sign-in has its own throttle (lib/auth/sign-in-throttle.ts).

const CROSS_ORIGIN_UNCONFIGURED =
  "Refused: this server is reached by a name it cannot trust on its own; set PUBLIC_ORIGIN to the address " +
  "staff use (for example https://store.example) to accept changes from its pages.";

export type StaffCaller = {
  staff: SignedInStaff | undefined;
  sessionToken: string | undefined;
  /** The staff member's rate limit once this request is counted (undefined when rate limiting is off). */
  limits?: RateLimitState;
};
export type SignedInCaller = StaffCaller & { staff: SignedInStaff; sessionToken: string };

/** How many bytes of a request body count as one request against the rate limit. */
export const RATE_LIMIT_BODY_UNIT_BYTES = 64 * 1024;
const LARGEST_BODY_COST = Math.ceil(IMPORT_LIMIT_BYTES / RATE_LIMIT_BODY_UNIT_BYTES);

/** What a request costs against the rate limit: one per started 64 KiB of its body, at least one. */
export function requestCost(request: Request): number {
  const declared = request.headers.get("content-length");
  if (declared === null) return request.headers.has("transfer-encoding") ? LARGEST_BODY_COST : 1;
  const bytes = Number(declared);
  if (!Number.isFinite(bytes) || bytes < 0) return LARGEST_BODY_COST;
  return Math.min(LARGEST_BODY_COST, Math.max(1, Math.ceil(bytes / RATE_LIMIT_BODY_UNIT_BYTES)));
}

/** The id of the admin app's API key, whose buckets count the staff's requests; 503 when it is unusable. */
export async function adminKeyId(requestId: string): Promise<number> {
  try {
    return (await adminAppKey()).id;
  } catch (error) {
    // ADMIN_API_KEY revoked while the app runs: not a bug of this request; say so, and log why.
    if (!(error instanceof ConfigError)) throw error;
    log("error", "admin app API key unusable", { requestId, error: error.message });
    throw new Refusal("admin_key_refused");
  }
}

/** Counts a signed-in staff member's request in their bucket, or refuses it with 429 as /v1 does. */
async function admitStaff(caller: StaffCaller, request: Request, requestId: string): Promise<void> {
  const { staff } = caller;
  if (!staff) return;
  const limits = await consumeRateLimit(await adminKeyId(requestId), `staff:${staff.id}`, requestCost(request));
  caller.limits = limits;
  if (limits && !limits.allowed) {
    throw new Refusal("rate_limited", {
      message: "Too many requests from this staff member; retry after the time in Retry-After.",
      headers: { "Retry-After": String(limits.resetSeconds) },
    });
  }
}

function staffGuard<Caller extends StaffCaller>(required: "nothing" | "session" | "admin"): Guard<Caller> {
  return {
    label: "admin request",
    name: "admin",
    async identify(request) {
      const sessionToken = sessionTokenOf(request);
      const staff = await sessionStaff(sessionToken);
      if (required !== "nothing" && !staff) throw new Refusal("session_required");
      if (required === "admin" && staff?.role !== "admin") throw new Refusal("admin_role_required");
      if (request.method !== "GET" && !isSameOrigin(request)) {
        // Reached by a DNS name with no PUBLIC_ORIGIN: say what the operator must set.
        const unset = trustedOrigin(request) === undefined;
        throw new Refusal("cross_origin", unset ? { message: CROSS_ORIGIN_UNCONFIGURED } : {});
      }
      return { staff, sessionToken } as Caller;
    },
    ...(required === "nothing"
      ? {}
      : {
          admit: admitStaff,
          finish(_request, response, { caller }) {
            const headers = caller?.limits ? rateLimitHeaders(caller.limits) : rateLimitPolicyHeader("per-staff");
            for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
          },
        }),
    logFields: ({ staff }) => (staff ? { staffId: staff.id } : {}),
  };
}

/** Endpoints for a signed-in staff member only (401 without a live session). */
export const signedInGuard = staffGuard<SignedInCaller>("session");
/** Endpoints for a signed-in admin only: API keys, staff accounts, the activity log (403 for other staff). */
export const adminGuard = staffGuard<SignedInCaller>("admin");
/** Endpoints anyone may call, such as sign-in; the session is read when there is one. */
export const visitorGuard = staffGuard<StaffCaller>("nothing");
