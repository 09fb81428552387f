// GET /v1/pets — a constant 20-item page in the API's JSON shape: Next's own per-request cost, no data work.
const body = JSON.stringify(
  Array.from({ length: 20 }, (_, index) => ({
    id: index + 1,
    name: `Pet ${index + 1}`,
    categoryId: 1 + ((index + 1) % 6),
    status: index % 4 < 2 ? "available" : index % 4 === 2 ? "pending" : "sold",
  })),
);

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  return new Response(body, { headers: { "Content-Type": "application/json", "Cache-Control": "no-store" } });
}
