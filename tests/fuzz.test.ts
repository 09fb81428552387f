import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import fc from "fast-check";
import {
  createMigratedDatabase,
  testProviders,
  startServer,
  type RunningServer,
  type TestDatabase,
} from "@/scripts/harness/servers";
import { createKey } from "@/scripts/harness/fixtures";
import { openApiChecker, requestArbitrary, sendAndCheck, type FuzzStats } from "@/scripts/harness/fuzz";

// A bounded property-based run against the real server on each database; `npm run fuzz` runs more.
const RUNS = Number(process.env.FUZZ_RUNS ?? 600);

const providers = await testProviders();

for (const provider of providers) {
  describe(`fuzzing /v1 on ${provider}`, () => {
    let database: TestDatabase;
    let server: RunningServer;
    let key: string;

    before(async () => {
      database = await createMigratedDatabase(provider);
      key = await createKey(database.url);
      // The quota is raised so the generated requests reach the handlers rather than the limiter.
      server = await startServer("custom", database.url, { RATE_LIMIT_REQUESTS: "1000000" });
    });

    after(async () => {
      await server?.stop();
      await database?.drop();
    });

    test(`${RUNS} generated requests get documented answers, never a 5xx, and the server stays up`, async () => {
      const document = await (await fetch(`${server.baseUrl}/v1/openapi.json`)).json();
      const check = openApiChecker(document);
      const stats: FuzzStats = { requests: 0, byStatus: {} };
      await fc.assert(
        fc.asyncProperty(requestArbitrary(key), async (request) => {
          const problem = await sendAndCheck(server.baseUrl, request, check, stats);
          assert.equal(problem, undefined, problem);
        }),
        { numRuns: RUNS, seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined },
      );
      assert.equal((await fetch(`${server.baseUrl}/healthz`)).status, 200, "still serving");
      assert.equal(
        (await fetch(`${server.baseUrl}/v1/pets`, { headers: { Authorization: `Bearer ${key}` } })).status,
        200,
        "still answering",
      );
      assert.ok(
        (stats.byStatus[201] ?? 0) > 0 && (stats.byStatus[400] ?? 0) > 0 && (stats.byStatus[401] ?? 0) > 0,
        JSON.stringify(stats.byStatus),
      );
      console.log(`fuzz ${provider}: ${stats.requests} requests, by status ${JSON.stringify(stats.byStatus)}`);
    });
  });
}
