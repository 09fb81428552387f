import { signedInGuard } from "@/lib/admin/guard";
import { notFoundRoute } from "@/lib/http/api-route";

// Every path under /admin/api that no endpoint has: the JSON 404 Error body, whatever the method or the session.
// Without it the admin app's page catch-all (app/admin/[...missing]) would answer these as a page, and a page is
// where Next decodes Server Function calls (docs/decisions/003-no-server-functions.md): only route handlers live here.
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = notFoundRoute(signedInGuard);
