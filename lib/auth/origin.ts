import "server-only";

// Where the browser says it is: the scheme and origin it addressed, as the admin app checks a write's
// Origin against them and decides whether the session cookie is Secure.

function firstForwarded(request: Request, header: string): string | undefined {
  return request.headers.get(header)?.split(",")[0].trim() || undefined;
}

/** The scheme the browser used: the request's own, or what a TLS-terminating proxy says it was. */
export function schemeOf(request: Request): string {
  return (
    firstForwarded(request, "x-forwarded-proto") ?? new URL(request.url).protocol.replace(/:$/, "")
  ).toLowerCase();
}

/** The origin the browser addressed: scheme and Host (or the proxy's X-Forwarded-Host). */
export function ownOrigin(request: Request): string {
  const host = firstForwarded(request, "x-forwarded-host") ?? request.headers.get("host") ?? new URL(request.url).host;
  return `${schemeOf(request)}://${host.toLowerCase()}`;
}

/**
 * Whether a request comes from the app's own pages. Cross-site writes: SameSite=Lax already keeps the
 * cookie off them; this check refuses them on its own too, including from a sibling site that SameSite
 * counts as the same site. A missing or `null` Origin is refused.
 */
export function isSameOrigin(request: Request): boolean {
  return request.headers.get("origin") === ownOrigin(request);
}
