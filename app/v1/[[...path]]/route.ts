import { v1NotFoundRoute } from "@/lib/v1/router";

// Every other path under /v1 is a JSON 404, never Next's HTML page.
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1NotFoundRoute();
