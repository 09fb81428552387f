import fs from "node:fs/promises";
import path from "node:path";

// Serves Swagger UI's prebuilt script from the swagger-ui-dist package for the /docs page (its stylesheet is
// bundled into the page's own, app/docs/docs.css). The package
// is read from node_modules at run time (the app always runs from the project folder), not bundled.
// A Map, not an object literal: a lookup must never find what every object inherits (`constructor`).
const files = new Map([["swagger-ui-bundle.js", "text/javascript; charset=utf-8"]]);

export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  const type = files.get(file);
  if (!type) return new Response("Not found", { status: 404 });
  const body = await fs.readFile(path.join(process.cwd(), "node_modules", "swagger-ui-dist", file));
  return new Response(body, { headers: { "Content-Type": type, "Cache-Control": "public, max-age=86400" } });
}
