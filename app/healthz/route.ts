export const dynamic = "force-dynamic";

// GET /healthz — the process is up and answering.
export function GET() {
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}
