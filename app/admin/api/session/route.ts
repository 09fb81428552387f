import { sessionRoute } from "@/lib/admin/session-route";

// Sign-in and sign-out (lib/admin/session-route.ts); the custom server answers them without Next.
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = sessionRoute;
