import { NextResponse, type NextRequest } from "next/server";
import { requestScheme, STRICT_TRANSPORT_SECURITY } from "@/lib/http/forwarded";

// Security headers for every page Next renders: a Content-Security-Policy with a fresh nonce per
// request (Next puts it on its own scripts; scripts those load are trusted through 'strict-dynamic'),
// no framing by other sites, no MIME sniffing, no referrer sent off-site. This is only headers: every
// page and endpoint still checks the staff session itself. /v1 is not matched: it serves JSON only. Nor are the
// CSV import's endpoints (JSON and CSV only): Next reads a matched request's whole body before its route runs,
// and an import's 5 MiB must reach a route that has checked the session first (lib/pets/import-handlers.ts).

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

export function proxy(request: NextRequest) {
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
      source: "/((?!v1(?:/|$)|admin/api/pets/imports(?:/|$)|_next/static|_next/image|favicon.ico|healthz|readyz).*)",
      missing: [{ type: "header", key: "next-router-prefetch" }],
    },
  ],
};
