import "server-only";
import { config } from "@/lib/config";

// CORS for /v1: browsers on the configured origins (CORS_ORIGINS) may call the API with a bearer key.
// No cookies are involved, so credentials are never allowed.

export const EXPOSED_HEADERS =
  "Link, X-Request-Id, Deprecation, Sunset, RateLimit, RateLimit-Policy, Retry-After, Location, ETag, Accept-Patch, " +
  "Content-Disposition";
const ALLOWED_HEADERS = "Authorization, Content-Type, Idempotency-Key, X-Request-Id, If-Match, If-None-Match";

function allowedOrigin(request: Request): string | undefined {
  const origin = request.headers.get("origin");
  if (!origin) return undefined;
  const origins = config().CORS_ORIGINS;
  if (origins.includes("*")) return "*";
  return origins.includes(origin) ? origin : undefined;
}

/** Adds the CORS headers a response to this request should carry; a preflight also gets the allowed methods. */
export function applyCors(request: Request, response: Response, allow: string): void {
  const origin = allowedOrigin(request);
  if (origin !== "*") response.headers.append("Vary", "Origin");
  if (!origin) return;
  response.headers.set("Access-Control-Allow-Origin", origin);
  if (request.method === "OPTIONS" && request.headers.has("access-control-request-method")) {
    response.headers.set("Access-Control-Allow-Methods", allow);
    response.headers.set("Access-Control-Allow-Headers", ALLOWED_HEADERS);
    response.headers.set("Access-Control-Max-Age", "600");
  } else {
    response.headers.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
  }
}
