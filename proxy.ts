import { NextResponse, type NextRequest } from "next/server";
import { errorBody } from "@/lib/http/errors";
import { Refusal } from "@/lib/refusal";
import { requestScheme, STRICT_TRANSPORT_SECURITY } from "@/lib/http/forwarded";

// Security headers for every page Next renders: a Content-Security-Policy with a fresh nonce per
// request (Next puts it on its own scripts; scripts those load are trusted through 'strict-dynamic'),
// no framing by other sites, no MIME sniffing, no referrer sent off-site. This is only headers: every
// page and endpoint still checks the staff session itself. /v1 is not matched: it serves JSON only. Nor are the
// CSV import's endpoints (JSON and CSV only) and a pet's photo list (JSON, and a photo's upload): Next reads a
// matched request's whole body before its route runs, and an import's 5 MiB or a photo's 10 MiB must reach a route
// that has checked the session first (lib/pets/import-handlers.ts, app/admin/api/pets/[petId]/photos).

function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    // Swagger UI and React set style attributes; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Where something other than a page is served: route handlers, which never run a Server Function. */
const ENDPOINT_PATH = /^\/(?:v1|admin\/api)(?:\/|$)/;
const FORM_TYPES = ["multipart/form-data", "application/x-www-form-urlencoded"];

/**
 * A request Next would take for a React Server Function (Server Action), as its own test reads one
 * (`getServerActionRequestMetadata`): a `Next-Action` header, or a form posted to a page. The app defines none,
 * so none is ever let through to the code in Next that decodes one (docs/decisions/003-no-server-functions.md).
 */
function isServerFunctionRequest(request: NextRequest): boolean {
  if (request.headers.has("next-action")) return true;
  if (request.method !== "POST" || ENDPOINT_PATH.test(request.nextUrl.pathname)) return false;
  const type = request.headers.get("content-type")?.trim().toLowerCase() ?? "";
  return FORM_TYPES.some((form) => type.startsWith(form));
}

export function proxy(request: NextRequest) {
  if (isServerFunctionRequest(request)) {
    const error = new Refusal("method_not_allowed", {
      message: `${request.method} is not supported on ${request.nextUrl.pathname}: this app has no Server Functions.`,
    });
    return NextResponse.json(errorBody(error), {
      status: error.status,
      headers: {
        Allow: "GET, HEAD",
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
        "X-Request-Id": crypto.randomUUID(),
      },
    });
  }
  // A prefetch renders nothing it runs: it needs no policy (and no nonce). It is matched all the same, so that
  // a prefetch header cannot carry a Server Function request past the check above.
  if (request.headers.has("next-router-prefetch")) return NextResponse.next();
  const nonce = btoa(crypto.randomUUID());
  const policy = contentSecurityPolicy(nonce);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("Content-Security-Policy", policy); // Next reads the nonce from here
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  response.headers.set("X-Frame-Options", "DENY");
  response.headers.set("X-Content-Type-Options", "nosniff");
  response.headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  response.headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  if (requestScheme(request) === "https") {
    response.headers.set("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY);
  }
  return response;
}

export const config = {
  matcher: [
    {
      // Each exclusion is the exact path it names (or, for /v1 and Next's assets, the folder): a path that only
      // begins with one (/healthzx, /admin/api/pets/imports/x/y) is a page, Next's 404, and must be guarded.
      // Next reads the matcher statically: one string literal, not a sum of them.
      source:
        // eslint-disable-next-line max-len
        "/((?!v1(?:/|$)|admin/api/pets/imports(?:/[^/]+)?$|admin/api/pets/[^/]+/photos$|_next/static/|_next/image$|favicon\\.ico$|healthz$|readyz$).*)",
    },
  ],
};
