import { apiRoute, json } from "@/lib/api/route";
import { openApiDocument } from "@/lib/openapi";

export const dynamic = "force-dynamic";

// GET /v1/openapi.json — the API's description, readable without a key.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(
  { GET: async () => json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } }) },
  { public: true },
);
