import "server-only";
import net from "node:net";
import { config } from "@/lib/config";
import { requestHost, requestScheme } from "@/lib/http/forwarded";

// Which Origin the admin app's writes must come from. With PUBLIC_ORIGIN set, exactly that one. Without
// it (development on this machine), the origin the browser addressed, but only when its host is
// `localhost` or an IP address: a DNS name can be pointed at this server by anyone (DNS rebinding), so
// it is never taken from the request itself.

/** The origin admin writes must carry, or undefined when none can be trusted without PUBLIC_ORIGIN. */
export function trustedOrigin(request: Request): string | undefined {
  const publicOrigin = config().PUBLIC_ORIGIN;
  if (publicOrigin) return publicOrigin;
  const host = requestHost(request);
  if (!URL.canParse(`http://${host}`)) return undefined; // a Host no browser could have sent
  const hostname = new URL(`http://${host}`).hostname.replace(/^\[|\]$/g, "");
  if (hostname !== "localhost" && net.isIP(hostname) === 0) return undefined;
  return `${requestScheme(request)}://${host}`;
}

/**
 * Whether a request comes from the app's own pages. Cross-site writes: SameSite=Lax already keeps the
 * cookie off them; this check refuses them on its own too, including from a sibling site that SameSite
 * counts as the same site. A missing or `null` Origin is refused.
 */
export function isSameOrigin(request: Request): boolean {
  const origin = trustedOrigin(request);
  return origin !== undefined && request.headers.get("origin") === origin;
}
