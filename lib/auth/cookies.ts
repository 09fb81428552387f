import "server-only";
import { SESSION_COOKIE, SESSION_LIFETIME_MS } from "@/lib/auth/sessions";
import { requestScheme } from "@/lib/http/forwarded";

// The staff session cookie: how it is read from a request and written to a response.

/** The value of one cookie of the request. */
export function cookieValue(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const separator = part.indexOf("=");
    if (separator > 0 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

/**
 * The session cookie's name: under HTTPS the `__Host-` prefix, which browsers only accept from a secure
 * origin, for the whole host (Path=/, no Domain), so no sibling subdomain or plain-HTTP page can set it.
 */
export function sessionCookieName(scheme: "http" | "https"): string {
  return scheme === "https" ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;
}

/** The session token the request carries, if any. */
export function sessionTokenOf(request: Request): string | undefined {
  return cookieValue(request, sessionCookieName(requestScheme(request)));
}

/**
 * The session cookie: httpOnly (scripts cannot read it) and SameSite=Lax (not sent on cross-site
 * subrequests or form posts). Over plain HTTP (development on this machine) it is scoped to /admin.
 * Under HTTPS it is Secure with the `__Host-` prefix, which requires Path=/: /v1 then receives it too,
 * and never reads it.
 */
export function sessionCookie(request: Request, token: string, maxAgeMs = SESSION_LIFETIME_MS): string {
  const secure = requestScheme(request) === "https";
  const attributes = [
    `${sessionCookieName(secure ? "https" : "http")}=${token}`,
    secure ? "Path=/" : "Path=/admin",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${Math.floor(maxAgeMs / 1000)}`,
  ];
  if (secure) attributes.push("Secure");
  return attributes.join("; ");
}

export function clearedSessionCookie(request: Request): string {
  return sessionCookie(request, "", 0);
}
