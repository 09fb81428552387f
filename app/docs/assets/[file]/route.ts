import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

// Serves Swagger UI's prebuilt files from the swagger-ui-dist package for the /docs page.
const files: Record<string, string> = {
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui.css": "text/css; charset=utf-8",
};

export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  const type = files[file];
  if (!type) return new Response("Not found", { status: 404 });
  const dir = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  return new Response(await fs.readFile(path.join(dir, file)), {
    headers: { "Content-Type": type, "Cache-Control": "public, max-age=86400" },
  });
}
