import "server-only";
import { schemeOf } from "@/lib/auth/origin";
import { SESSION_COOKIE, SESSION_LIFETIME_MS } from "@/lib/auth/sessions";

// The staff session cookie: how it is read from a request and written to a response.

/** The value of one cookie of the request. */
export function cookieValue(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const separator = part.indexOf("=");
    if (separator > 0 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

/** The session token the request carries, if any. */
export function sessionTokenOf(request: Request): string | undefined {
  return cookieValue(request, SESSION_COOKIE);
}

/**
 * The session cookie: httpOnly (scripts cannot read it), SameSite=Lax (not sent on cross-site
 * subrequests or form posts), Secure when the browser came over HTTPS, and scoped to /admin: neither
 * /v1 nor any other page ever receives it.
 */
export function sessionCookie(request: Request, token: string, maxAgeMs = SESSION_LIFETIME_MS): string {
  const attributes = [
    `${SESSION_COOKIE}=${token}`,
    "Path=/admin",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${Math.floor(maxAgeMs / 1000)}`,
  ];
  if (schemeOf(request) === "https") attributes.push("Secure");
  return attributes.join("; ");
}

export function clearedSessionCookie(request: Request): string {
  return sessionCookie(request, "", 0);
}
