// npm run fuzz -- [--runs N] [--database sqlite|postgresql] [--seed S]
// A larger property-based run of scripts/harness/fuzz.ts against a fresh production server; prints how
// many requests it tried, the answers by status, and the first counterexample if any.
import { parseArgs } from "node:util";
import fc from "fast-check";
import { createKeyWithTool, createTestDatabase, runScript, startServer } from "@/scripts/harness/servers";
import {
  openApiChecker,
  requestArbitrary,
  sendAndCheck,
  type FuzzStats,
  type OpenApiDocument,
} from "@/scripts/harness/fuzz";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "5000" },
    database: { type: "string", default: "sqlite" },
    seed: { type: "string" },
  },
});
const provider = values.database === "postgresql" ? "postgresql" : "sqlite";
const database = await createTestDatabase(provider);
let server: Awaited<ReturnType<typeof startServer>> | undefined;
let failed = false;
const stats: FuzzStats = { requests: 0, byStatus: {} };
const started = Date.now();
try {
  await runScript("db-migrate.ts", ["--create"], database.url);
  const key = await createKeyWithTool(database.url);
  // reach the handlers, not the limiter
  server = await startServer("custom", database.url, { RATE_LIMIT_REQUESTS: "1000000" });
  const baseUrl = server.baseUrl;
  const check = openApiChecker((await (await fetch(`${baseUrl}/v1/openapi.json`)).json()) as OpenApiDocument);
  const result = await fc.check(
    fc.asyncProperty(
      requestArbitrary(key),
      async (request) => (await sendAndCheck(baseUrl, request, check, stats)) === undefined,
    ),
    { numRuns: Number(values.runs), seed: values.seed === undefined ? undefined : Number(values.seed) },
  );
  const alive =
    (await fetch(`${baseUrl}/healthz`)).status === 200 &&
    (await fetch(`${baseUrl}/v1/pets`, { headers: { Authorization: `Bearer ${key}` } })).status === 200;
  failed = result.failed || !alive;
  const fiveHundreds = Object.entries(stats.byStatus)
    .filter(([status]) => Number(status) >= 500)
    .reduce((sum, [, count]) => sum + count, 0);
  console.log(
    `fuzz on ${provider}: ${stats.requests} requests in ${((Date.now() - started) / 1000).toFixed(1)} s; ` +
      `5xx: ${fiveHundreds}; server alive after: ${alive}`,
  );
  console.log(`answers by status: ${JSON.stringify(stats.byStatus)}`);
  if (result.failed)
    console.log(
      `counterexample (seed ${result.seed}, path ${result.counterexamplePath}):\n` +
        JSON.stringify(result.counterexample, null, 2),
    );
} finally {
  await server?.stop();
  await database.drop();
}
process.exit(failed ? 1 : 0);
