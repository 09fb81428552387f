import { v1Route } from "@/lib/v1/router";

// getOrder, declared in the route table (lib/v1/routes.ts).
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route("/v1/store/orders/{orderId}");
