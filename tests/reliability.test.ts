import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { postgresAvailable } from "@/scripts/harness/servers";
import { privatePostgresAvailable } from "@/scripts/harness/private-postgres";
import { crashScenario, outageScenario, twoInstancesScenario } from "@/scripts/harness/scenarios";

// The fault scenarios of docs/reliability.md in their CI-sized runs; scripts/reliability.ts runs larger ones.

const postgres = await postgresAvailable();

describe("reliability", () => {
  for (const provider of ["sqlite", "postgresql"] as const) {
    test(
      `SIGKILL during concurrent creates loses nothing answered and duplicates nothing retried (${provider})`,
      { skip: provider === "postgresql" && !postgres },
      async () => {
        const figures = await crashScenario(provider, { crashes: 2, writers: 8 });
        console.log(`crash ${provider}: ${JSON.stringify(figures)}`);
        assert.ok(figures.acknowledged > 20, "enough writes to mean something");
        assert.equal(figures.lost, 0);
        assert.equal(figures.duplicates, 0);
        assert.equal(figures.invalidRows, 0);
        assert.equal(figures.rows, figures.acknowledged);
        if (provider === "sqlite") assert.equal(figures.integrity, "ok");
      },
    );
  }

  test(
    "a PostgreSQL outage gives fast 503s, /readyz fails, and the app recovers by itself",
    { skip: !privatePostgresAvailable() && !process.env.CI },
    async () => {
      const figures = await outageScenario({ outageMs: 3000, concurrency: 6 });
      console.log(`outage: ${JSON.stringify(figures)}`);
      assert.ok(figures.requestsDuringOutage > 10);
      assert.equal(figures.otherFailures, 0, "every failure is a well-formed 503");
      assert.ok(figures.slowestDuringOutageMs < 5000, `slowest ${figures.slowestDuringOutageMs} ms`);
      assert.match(figures.readyDuringOutage, /503/);
      assert.doesNotMatch(figures.readyDuringOutage, /200/);
      assert.ok(figures.recoveryMs >= 0 && figures.recoveryMs < 10_000, `recovered after ${figures.recoveryMs} ms`);
      assert.ok(figures.readyRecoveryMs >= 0);
      assert.equal(figures.lost, 0);
    },
  );

  test(
    "two instances on one PostgreSQL: distinct ids, nothing lost, idempotency and limits shared",
    { skip: !postgres },
    async () => {
      const figures = await twoInstancesScenario({ creates: 100, concurrency: 16 });
      console.log(`two instances: ${JSON.stringify(figures)}`);
      assert.equal(figures.creates, 100);
      assert.equal(figures.distinctIds, 100);
      assert.equal(figures.lost, 0);
      assert.equal(figures.duplicatePets, 0);
      assert.equal(figures.admittedAcrossBoth, figures.rateLimitQuota);
    },
  );
});
