import "server-only";
import { adminErrorCodes, type AdminErrorCode } from "@/lib/api/error-codes";
import { ApiError, type FieldError } from "@/lib/api/errors";
import { json, requestIdOf, toApiError } from "@/lib/api/route";
import { log } from "@/lib/log";
import type { SignedInStaff } from "@/lib/staff/accounts";
import { SESSION_COOKIE, SESSION_LIFETIME_MS, sessionStaff } from "@/lib/staff/sessions";

// The one wrapper that owns the admin app's HTTP edge (/admin/api/…), as lib/api/route.ts owns /v1's.
// It assigns the request id, checks the staff session itself (never trusting a proxy or a layout),
// refuses writes whose Origin is not the app's own, and answers every failure with the Error body.
// It never reads an Authorization header, and /v1 never reads the session cookie.

export class AdminError extends Error {
  readonly code: AdminErrorCode;
  readonly status: number;
  constructor(code: AdminErrorCode, message?: string) {
    super(message ?? adminErrorCodes[code].message);
    this.code = code;
    this.status = adminErrorCodes[code].status;
  }
}

export type AdminContext = { request: Request; requestId: string; staff: SignedInStaff | undefined; sessionToken: string | undefined };
type AdminHandler = (context: AdminContext) => Promise<Response>;

/** The value of one cookie of the request. */
export function cookieValue(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const separator = part.indexOf("=");
    if (separator > 0 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

function firstForwarded(request: Request, header: string): string | undefined {
  return request.headers.get(header)?.split(",")[0].trim() || undefined;
}

/** The scheme the browser used: the request's own, or what a TLS-terminating proxy says it was. */
function schemeOf(request: Request): string {
  return (firstForwarded(request, "x-forwarded-proto") ?? new URL(request.url).protocol.replace(/:$/, "")).toLowerCase();
}

/** The origin the browser addressed: scheme and Host (or the proxy's X-Forwarded-Host). */
export function ownOrigin(request: Request): string {
  const host = firstForwarded(request, "x-forwarded-host") ?? request.headers.get("host") ?? new URL(request.url).host;
  return `${schemeOf(request)}://${host.toLowerCase()}`;
}

/**
 * The session cookie: httpOnly (scripts cannot read it), SameSite=Lax (not sent on cross-site
 * subrequests or form posts), Secure when the browser came over HTTPS, and scoped to /admin: neither
 * /v1 nor any other page ever receives it.
 */
export function sessionCookie(request: Request, token: string, maxAgeMs = SESSION_LIFETIME_MS): string {
  const attributes = [`${SESSION_COOKIE}=${token}`, "Path=/admin", "HttpOnly", "SameSite=Lax", `Max-Age=${Math.floor(maxAgeMs / 1000)}`];
  if (schemeOf(request) === "https") attributes.push("Secure");
  return attributes.join("; ");
}

export function clearedSessionCookie(request: Request): string {
  return sessionCookie(request, "", 0);
}

function errorBody(code: string, status: number, message: string, errors?: FieldError[]) {
  return errors ? { code, message, status, errors } : { code, message, status };
}

/**
 * Route functions for one /admin/api path. `session: "required"` answers 401 without a live session;
 * every method but GET must carry an Origin equal to the app's own, else 403.
 */
export function adminRoute(handler: AdminHandler, options: { session: "required" | "optional" }): (request: Request) => Promise<Response> {
  return async (request) => {
    const requestId = requestIdOf(request);
    const path = new URL(request.url).pathname;
    let response: Response;
    try {
      const sessionToken = cookieValue(request, SESSION_COOKIE);
      const staff = await sessionStaff(sessionToken);
      if (options.session === "required" && !staff) throw new AdminError("session_required");
      // Cross-site writes: SameSite=Lax already keeps the cookie off them; the Origin check refuses
      // them on its own too, including from a sibling site that SameSite counts as the same site.
      if (request.method !== "GET" && request.headers.get("origin") !== ownOrigin(request)) throw new AdminError("cross_origin");
      response = await handler({ request, requestId, staff, sessionToken });
    } catch (thrown) {
      // The admin app's own refusals, or the /v1 catalogue's mapping of everything else.
      const error = thrown instanceof AdminError ? thrown : toApiError(thrown);
      const errors = error instanceof ApiError ? error.errors : undefined;
      const headers = error instanceof ApiError ? error.headers : {};
      response = json(errorBody(error.code, error.status, error.message, errors), { status: error.status, headers });
      const fields = { requestId, method: request.method, path, status: error.status, code: error.code };
      if (error.status >= 500) log("error", "admin request failed", { ...fields, error: thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown) });
      else log("warn", "admin request refused", fields);
    }
    response.headers.set("X-Request-Id", requestId);
    response.headers.set("Cache-Control", "no-store");
    return response;
  };
}
