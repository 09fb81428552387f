import { readiness } from "@/lib/health";

export const dynamic = "force-dynamic";

// GET /readyz — the database answers and the process is not shutting down.
export async function GET() {
  const { ready, reason } = await readiness();
  return Response.json(ready ? { status: "ready" } : { status: "unavailable", reason }, {
    status: ready ? 200 : 503,
    headers: { "Cache-Control": "no-store" },
  });
}
