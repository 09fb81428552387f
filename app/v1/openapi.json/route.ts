import { v1Route } from "@/lib/v1/router";

// The OpenAPI document, generated from the route table (lib/v1/routes.ts); readable without a key.
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route("/v1/openapi.json");
