// Issue 26's figures: what the app adds to one request over baseline (a), in microseconds and in units of L (the
// baseline's own time for one list limit=20 in the same round), for list, search, get, create, update and delete at
// 32 connections, each the median of three rounds with the spread (BENCH_ONLY=request-cost, written to
// bench/results-request-cost.json). A saturated server on one event loop spends about 1e6 / req/s µs on a request,
// so the app adds 1e6 / app req/s − 1e6 / baseline req/s. With BENCH_CPU_PROF=1 each operation then runs once more
// against an app writing a CPU profile (bench/results/cpu-profiles/<database>-<operation>.cpuprofile, for Chrome's
// DevTools or speedscope), summarised per request by bench/profile-summary.ts.
import fs from "node:fs";
import path from "node:path";
import type { BenchDatabase, Provider } from "@/bench/databases";
import type { LoadSpec } from "@/bench/load";
import { assertRunning, memoryMb, runLoad, startMeasured, stop, type Server } from "@/bench/processes";
import { summariseProfile, type CpuProfile, type ProfileSummary } from "@/bench/profile-summary";
import { serverNodeFlags } from "@/scripts/harness/servers";

export const COST_CONNECTIONS = 32;
export const COST_ROUNDS = 3;
/** Issue 26's targets, in L: reads and writes on each database; p99 and peak RSS on SQLite. */
export const COST_TARGETS = {
  sqlite: { read: 1.2, write: 2.4 },
  postgresql: { read: 1.8, write: 3.6 },
} as const;
export const COST_TARGET_P99_MS = 15;
export const COST_TARGET_PEAK_RSS_MB = 200;
/** Left off the end of a profiled run: the profile's clock starts a little after the process, so it runs late. */
const PROFILE_END_MARGIN_MS = 100;

type CostOperation = {
  name: string;
  kind: "read" | "write";
  spec: Pick<LoadSpec, "paths" | "method" | "body" | "bodies" | "headers">;
  /** Rows the run uses up (delete): the first request's number, given how many requests it may make. */
  first?: (requests: number) => Promise<number>;
};

/** One operation of one round: both servers, one after the other. */
export type CostRound = {
  database: Provider;
  operation: string;
  round: number;
  baselineRps: number;
  appRps: number;
  appP99Ms: number | null;
  failures: number;
};

/** An operation's medians over the rounds, with their spread (lowest, highest). */
export type CostRow = {
  database: Provider;
  operation: string;
  kind: "read" | "write";
  baselineRps: number;
  appRps: number;
  addedUs: Spread;
  addedL: Spread;
  targetL: number;
  p99Ms: number | null;
  failures: number;
  check: "PASS" | "FAIL";
};
type Spread = { median: number; low: number; high: number };

export type CostResults = {
  rounds: CostRound[];
  rows: CostRow[];
  /** L itself per database: the baseline's µs for one list limit=20, each round. */
  l: { database: Provider; us: Spread }[];
  peakRssMb: { database: Provider; mb: number; check: "PASS" | "FAIL" }[];
  profiles: (ProfileSummary & { database: Provider; operation: string })[];
};

function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { median, low: sorted[0], high: sorted.at(-1)! };
}

const perRequestUs = (rps: number) => 1e6 / rps;

function costOperations(key: string, catalogue: number, database: BenchDatabase): CostOperation[] {
  const auth = { Authorization: `Bearer ${key}` };
  const ids = Array.from({ length: catalogue }, (_, index) => `/v1/pets/${index + 1}`);
  return [
    { name: "list limit=20", kind: "read", spec: { paths: ["/v1/pets?limit=20"], headers: auth } },
    { name: "search limit=20&q=ell", kind: "read", spec: { paths: ["/v1/pets?limit=20&q=ell"], headers: auth } },
    { name: "get by id", kind: "read", spec: { paths: ids, headers: auth } },
    {
      name: "create",
      kind: "write",
      spec: {
        paths: ["/v1/pets"],
        method: "POST",
        body: '{"name":"Bench","categoryId":1,"status":"available"}',
        headers: { ...auth, "Content-Type": "application/json" },
      },
    },
    {
      name: "update status",
      kind: "write",
      spec: {
        paths: ids,
        method: "PATCH",
        bodies: ["pending", "sold", "available"].map((status) => JSON.stringify({ status })),
        headers: { ...auth, "Content-Type": "application/merge-patch+json" },
      },
    },
    {
      name: "delete",
      kind: "write",
      spec: { paths: ["/v1/pets/{k}"], method: "DELETE", headers: auth },
      first: async (requests) => Number(await database.append(requests)),
    },
  ];
}

function progress(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

/**
 * The rounds on one database whose catalogue is seeded: the app and baseline (a) both running, each operation on
 * each in turn, three times over; then, with `profileDir`, one profiled run of each operation.
 */
export async function measureRequestCost(options: {
  root: string;
  database: BenchDatabase;
  key: string;
  env: Record<string, string>;
  catalogue: number;
  duration: number;
  warmup: number;
  profileDir?: string;
}): Promise<CostResults> {
  const { root, database, key, env, catalogue, duration, warmup } = options;
  const { provider } = database;
  const auth = { Authorization: `Bearer ${key}` };
  const start = (name: string, args: string[]) => startMeasured(name, args, env, "/v1/pets?limit=20", auth);
  const app = await start("app", [...serverNodeFlags(), path.join(root, "dist/server.js")]);
  const baseline = await start("baseline-node", ["--import", "tsx", path.join(root, "bench/baseline-node.ts")]);
  const operations = costOperations(key, catalogue, database);
  const rounds: CostRound[] = [];
  const next = new Map<string, number>();
  // A delete run needs a pet for every request it may make: half as many again as the fastest delete run so far
  // (10,000 a second before the first), over its warm-up and its seconds.
  const deletable = async (operation: CostOperation, server: "app" | "baseline") => {
    if (!operation.first) return next.get(`${operation.name} ${server}`) ?? 0;
    const deletes = rounds.filter((row) => row.operation === operation.name);
    const fastest = Math.max(0, ...deletes.flatMap((row) => [row.baselineRps, row.appRps]));
    const requests = Math.ceil(1.5 * (fastest || 10_000) * (duration + warmup)) + 1000;
    progress(`${provider} delete: adding ${requests} pets to delete`);
    return operation.first(requests);
  };
  const run = async (operation: CostOperation, server: Server, name: "app" | "baseline") => {
    progress(`${provider} ${operation.name} ${name} c=${COST_CONNECTIONS}`);
    const result = await runLoad({
      ...operation.spec,
      first: await deletable(operation, name),
      url: server.url,
      connections: COST_CONNECTIONS,
      duration,
      warmup,
    });
    next.set(`${operation.name} ${name}`, result.next);
    assertRunning(server);
    return result;
  };
  try {
    for (let round = 1; round <= COST_ROUNDS; round++) {
      for (const operation of operations) {
        // The servers take turns: which goes first alternates by round, so neither always meets a warmer machine.
        const order = round % 2 ? (["baseline", "app"] as const) : (["app", "baseline"] as const);
        const results = { app: undefined, baseline: undefined } as Record<
          "app" | "baseline",
          Awaited<ReturnType<typeof runLoad>> | undefined
        >;
        for (const name of order)
          results[name] = await run(operation, name === "app" ? app.server : baseline.server, name);
        rounds.push({
          database: provider,
          operation: operation.name,
          round,
          baselineRps: results.baseline!.rps,
          appRps: results.app!.rps,
          appP99Ms: results.app!.p99,
          failures: results.app!.failures + results.baseline!.failures,
        });
      }
    }
    const peak = memoryMb(app.server.pid, "VmHWM");
    await stop(baseline.server.child);
    await stop(app.server.child);
    const profiles = options.profileDir
      ? await profileOperations(options.profileDir, root, database, env, auth, operations, duration, deletable)
      : [];
    return {
      rounds,
      rows: costRows(provider, operations, rounds),
      l: [{ database: provider, us: spread(listTimes(rounds, provider)) }],
      peakRssMb: [{ database: provider, mb: peak, check: peak <= COST_TARGET_PEAK_RSS_MB ? "PASS" : "FAIL" }],
      profiles,
    };
  } finally {
    await stop(baseline.server.child);
    await stop(app.server.child);
  }
}

/** Each round's L: the baseline's µs for one list limit=20. */
function listTimes(rounds: CostRound[], provider: Provider): number[] {
  return rounds
    .filter((row) => row.database === provider && row.operation === "list limit=20")
    .map((row) => perRequestUs(row.baselineRps));
}

function costRows(provider: Provider, operations: CostOperation[], rounds: CostRound[]): CostRow[] {
  const lByRound = new Map(
    rounds.filter((row) => row.operation === "list limit=20").map((row) => [row.round, perRequestUs(row.baselineRps)]),
  );
  return operations.map(({ name, kind }) => {
    const mine = rounds.filter((row) => row.operation === name);
    const added = mine.map((row) => perRequestUs(row.appRps) - perRequestUs(row.baselineRps));
    const addedL = mine.map((row, index) => added[index] / lByRound.get(row.round)!);
    const targetL = COST_TARGETS[provider][kind];
    const p99s = mine.map((row) => row.appP99Ms).filter((value) => value !== null);
    const p99Ms = p99s.length ? spread(p99s).median : null;
    const failures = mine.reduce((sum, row) => sum + row.failures, 0);
    const addedLSpread = spread(addedL);
    const p99Ok = provider !== "sqlite" || (p99Ms !== null && p99Ms <= COST_TARGET_P99_MS);
    return {
      database: provider,
      operation: name,
      kind,
      baselineRps: spread(mine.map((row) => row.baselineRps)).median,
      appRps: spread(mine.map((row) => row.appRps)).median,
      addedUs: spread(added),
      addedL: addedLSpread,
      targetL,
      p99Ms,
      failures,
      check: addedLSpread.median <= targetL && p99Ok && failures === 0 ? "PASS" : "FAIL",
    };
  });
}

/**
 * One run of each operation against an app of its own that writes a CPU profile on exit, summarised per request.
 * The profile covers the run alone: the app starts, the run's warm-up and its measured seconds, the app stops.
 */
async function profileOperations(
  profileDir: string,
  root: string,
  database: BenchDatabase,
  env: Record<string, string>,
  auth: Record<string, string>,
  operations: CostOperation[],
  duration: number,
  first: (operation: CostOperation, server: "app" | "baseline") => Promise<number>,
): Promise<CostResults["profiles"]> {
  const summaries: CostResults["profiles"] = [];
  for (const operation of operations) {
    const name = `${database.provider}-${operation.name.replace(/[^a-z0-9]+/gi, "-")}`;
    const folder = path.join(profileDir, name);
    fs.rmSync(folder, { recursive: true, force: true });
    const args = ["--cpu-prof", `--cpu-prof-dir=${folder}`, ...serverNodeFlags(), path.join(root, "dist/server.js")];
    // The profile starts with the process: its samples from the load's start to its end are the run's.
    const spawned = performance.now();
    const { server } = await startMeasured("app (profiled)", args, env, "/v1/pets?limit=20", auth);
    const firstRequest = await first(operation, "app");
    progress(`${database.provider} ${operation.name}: profiling`);
    const fromMs = performance.now() - spawned;
    const result = await runLoad({
      ...operation.spec,
      first: firstRequest,
      url: server.url,
      connections: COST_CONNECTIONS,
      duration,
      warmup: 0,
    });
    const toMs = performance.now() - spawned - PROFILE_END_MARGIN_MS;
    await stop(server.child);
    const written = fs.readdirSync(folder).find((file) => file.endsWith(".cpuprofile"));
    if (!written) throw new Error(`the profiled app wrote no profile in ${folder}`);
    const file = path.join(profileDir, `${name}.cpuprofile`);
    fs.renameSync(path.join(folder, written), file);
    fs.rmSync(folder, { recursive: true, force: true });
    summaries.push({
      database: database.provider,
      operation: operation.name,
      ...summariseProfile(JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile, result.requests, { fromMs, toMs }),
    });
  }
  return summaries;
}

const fixed = (value: number, digits: number) => value.toFixed(digits);
const withSpread = ({ median, low, high }: Spread, digits: number) =>
  `${fixed(median, digits)} (${fixed(low, digits)}–${fixed(high, digits)})`;

/** The table bench/run.ts prints. */
export function formatCost(results: CostResults): string {
  const lines = [
    `What the app adds to a request over baseline (a) at ${COST_CONNECTIONS} connections: median of ` +
      `${COST_ROUNDS} rounds (lowest–highest). added µs = 1e6/app req/s − 1e6/baseline req/s; ` +
      "L = the baseline's µs for one list limit=20 in the same round.",
    ...results.l.map(({ database, us }) => `L on ${database}: ${withSpread(us, 1)} µs`),
    "",
    "| database | operation | baseline req/s | app req/s | added µs | added L | target L | app p99 ms | fail | check |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ...results.rows.map(
      (row) =>
        `| ${[
          row.database,
          row.operation,
          fixed(row.baselineRps, 0),
          fixed(row.appRps, 0),
          withSpread(row.addedUs, 0),
          withSpread(row.addedL, 2),
          `≤ ${row.targetL}`,
          row.p99Ms === null ? "–" : fixed(row.p99Ms, 1),
          String(row.failures),
          row.check,
        ].join(" | ")} |`,
    ),
    "",
    ...results.peakRssMb.map(
      ({ database, mb, check }) => `peak RSS of the app on ${database}: ${fixed(mb, 0)} MB (≤ 200: ${check})`,
    ),
  ];
  for (const profile of results.profiles) {
    lines.push(
      "",
      `CPU profile, ${profile.database} ${profile.operation}: ${fixed(profile.busyUsPerRequest, 0)} µs of CPU a ` +
        `request over ${profile.requests} requests (idle left out); self time by part, µs a request:`,
      ...profile.parts.map(({ part, us }) => `  ${part.padEnd(44)} ${fixed(us, 1).padStart(7)}`),
      "  the top functions by self time, µs a request:",
      ...profile.top.map(({ name, part, us }) => `  ${`${name} [${part}]`.padEnd(70)} ${fixed(us, 1).padStart(7)}`),
    );
  }
  return lines.join("\n");
}
