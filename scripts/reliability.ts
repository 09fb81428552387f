// npm run reliability — the fault scenarios of docs/reliability.md at full size, one after another; prints
// their figures as a table and writes them to reliability-results.json.
import os from "node:os";
import { postgresAvailable } from "@/scripts/harness/servers";
import { crashScenario, outageScenario, twoInstancesScenario, writeFigures } from "@/scripts/harness/scenarios";

const started = Date.now();
const results: Record<string, unknown> = {
  machine: {
    cpu: os.cpus()[0]?.model,
    cores: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    date: new Date().toISOString(),
  },
};
const rows: string[][] = [];

for (const provider of ["sqlite", "postgresql"] as const) {
  if (provider === "postgresql" && !(await postgresAvailable())) continue;
  const crash = await crashScenario(provider, { crashes: 5, writers: 16 });
  results[`crash-${provider}`] = crash;
  rows.push([
    `SIGKILL during creates (${provider})`,
    `${crash.crashes} crashes survived, ${crash.acknowledged} writes acknowledged, ` +
      `${crash.retriedAfterCrash} retried after a crash`,
    `lost ${crash.lost}, duplicates ${crash.duplicates}, half-written rows ${crash.invalidRows}` +
      `${provider === "sqlite" ? `, integrity_check ${crash.integrity}` : ""}`,
  ]);
}

const outage = await outageScenario({ outageMs: 10_000, concurrency: 8 });
results.outage = outage;
rows.push([
  "PostgreSQL stopped under load for 10 s",
  `${outage.requestsDuringOutage} requests during the outage: ${JSON.stringify(outage.byStatusDuringOutage)}, ` +
    `slowest ${outage.slowestDuringOutageMs} ms; /readyz ${outage.readyDuringOutage}`,
  `other failures ${outage.otherFailures}; first 200 ${outage.recoveryMs} ms after restart, ` +
    `/readyz 200 after ${outage.readyRecoveryMs} ms; ${outage.acknowledged} acknowledged, lost ${outage.lost}`,
]);

const both = await twoInstancesScenario({ creates: 500, concurrency: 32 });
results.twoInstances = both;
rows.push([
  "Two instances on one PostgreSQL",
  `${both.creates} concurrent creates over both, ${both.idempotentRetries} retries of one Idempotency-Key over both`,
  `distinct ids ${both.distinctIds}, lost ${both.lost}, duplicate pets ${both.duplicatePets}; ` +
    `quota ${both.rateLimitQuota}: ${both.admittedAcrossBoth} admitted across both`,
]);

writeFigures("reliability-results.json", results);
console.log("\n| scenario | what happened | result |\n|---|---|---|");
for (const row of rows) console.log(`| ${row.join(" | ")} |`);
console.log(`\n(${((Date.now() - started) / 1000).toFixed(0)} s; figures in reliability-results.json)`);
process.exit(0);
