// The benchmark's write rows (issue 20): what a long write costs every other answer of the server.
// - import-latency: a 10,000-row CSV import applied through the admin API, while /healthz and a /v1 list are
//   sampled every 50 ms; the target is each sample's p99 at most 250 ms.
// - concurrent-creates: 64 connections of POST /v1/pets for BENCH_DURATION seconds, /healthz sampled alongside;
//   the target is no answer slower than 2 s, and no timeout or error.
// Figures before a change come from running the row on the commit before it (docs/performance.md, SQLite writes).
import fs from "node:fs";
import path from "node:path";
import type { BenchDatabase, Provider } from "@/bench/databases";
import type { DuringResult, DuringSpec } from "@/bench/during";
import { assertRunning, runNode, startMeasured, stop } from "@/bench/processes";
import { serverNodeFlags } from "@/scripts/harness/servers";

export const IMPORT_ROWS = 10_000;
export const CREATE_CONNECTIONS = 64;
export const TARGET_SAMPLE_P99_MS = 250;
export const TARGET_CREATE_MAX_MS = 2000;
const SAMPLE_INTERVAL_MS = 50;
const STAFF = { email: "bench.staff@animal-store.example", password: "a bench staff password" };

/** A build of the app to measure: its folder (dist/ and .next/) and its name in the table. */
export type Build = { label: string; dir: string };

export type WriteRow = {
  database: Provider;
  build: string;
  /** What was measured: the write itself ("apply", "creates") or a sample taken while it ran. */
  series: string;
  requests: number;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  /** The write's duration in seconds (its own series only). */
  seconds?: number;
  failures: number;
  statuses: Record<string, number>;
  check: "PASS" | "FAIL" | null;
};

function progress(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

async function during(root: string, spec: DuringSpec): Promise<DuringResult> {
  const stdout = await runNode(["--import", "tsx", path.join(root, "bench/during.ts"), JSON.stringify(spec)]);
  return JSON.parse(stdout.trim().split("\n").pop() ?? "") as DuringResult;
}

type Started = { url: string; stop: () => Promise<void>; check: () => void };

async function startApp(build: Build, env: Record<string, string>, key: string): Promise<Started> {
  const { server } = await startMeasured(
    "app",
    [...serverNodeFlags(), path.join(build.dir, "dist/server.js")],
    env,
    "/v1/pets?limit=20",
    { Authorization: `Bearer ${key}` },
    build.dir,
  );
  return { url: server.url, stop: () => stop(server.child), check: () => assertRunning(server) };
}

function sampleRows(database: Provider, build: string, result: DuringResult, target: (p99: number) => boolean) {
  return result.sampled.map((sample): WriteRow => ({
    database,
    build,
    series: sample.label,
    requests: sample.requests,
    p50Ms: sample.p50,
    p99Ms: sample.p99,
    maxMs: sample.max,
    failures: sample.failures,
    statuses: {},
    check: sample.p99 !== null && target(sample.p99) && sample.failures === 0 ? "PASS" : "FAIL",
  }));
}

/**
 * A 10,000-row import applied on a fresh database by a signed-in staff member, after its dry run, while /healthz
 * and GET /v1/pets?limit=20 are sampled. Each build gets a database of its own.
 */
export async function measureImportLatency(
  root: string,
  database: BenchDatabase,
  build: Build,
  env: Record<string, string>,
  key: string,
  folder: string,
): Promise<WriteRow[]> {
  const { provider } = database;
  await runNode([path.join(build.dir, "dist/staff.js"), "create", STAFF.email], { DATABASE_URL: database.url }, false, {
    cwd: build.dir,
    input: `${STAFF.password}\n`,
  });
  const app = await startApp(build, { ...env, DATABASE_URL: database.url }, key);
  try {
    const signIn = await fetch(`${app.url}/admin/api/session`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: app.url },
      body: JSON.stringify(STAFF),
    });
    if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status}: ${await signIn.text()}`);
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0];
    const headers = { Cookie: cookie, Origin: app.url, "Content-Type": "text/csv" };
    const rows = Array.from({ length: IMPORT_ROWS }, (_, i) => `Imported ${i},${1 + (i % 6)},available`);
    const file = path.join(folder, `import-${provider}.csv`);
    fs.writeFileSync(file, ["name,categoryId,status", ...rows].join("\r\n"));
    const dryRun = await fetch(`${app.url}/admin/api/pets/imports`, {
      method: "POST",
      headers,
      body: fs.readFileSync(file),
    });
    const report = (await dryRun.json()) as { importId?: string; toCreate?: number };
    if (dryRun.status !== 200 || report.toCreate !== IMPORT_ROWS)
      throw new Error(`the dry run answered ${dryRun.status}: ${JSON.stringify(report)}`);
    progress(`${provider} ${build.label}: applying ${IMPORT_ROWS} rows, sampling /healthz and /v1/pets`);
    const result = await during(root, {
      url: app.url,
      intervalMs: SAMPLE_INTERVAL_MS,
      samples: [
        { label: "/healthz", path: "/healthz" },
        { label: "GET /v1/pets?limit=20", path: "/v1/pets?limit=20", headers: { Authorization: `Bearer ${key}` } },
      ],
      action: {
        kind: "request",
        method: "PUT",
        path: `/admin/api/pets/imports/${report.importId}`,
        headers,
        bodyFile: file,
      },
    });
    app.check();
    const applied = result.statuses["200"] === 1;
    return [
      {
        database: provider,
        build: build.label,
        series: `apply ${IMPORT_ROWS} rows`,
        requests: 1,
        p50Ms: null,
        p99Ms: null,
        maxMs: result.seconds * 1000,
        seconds: result.seconds,
        failures: applied ? 0 : 1,
        statuses: applied ? {} : result.statuses,
        check: null,
      },
      ...sampleRows(provider, build.label, result, (p99) => p99 <= TARGET_SAMPLE_P99_MS),
    ];
  } finally {
    await app.stop();
  }
}

/** 64 connections of creates for `duration` seconds, /healthz sampled meanwhile; autocannon gives up after 10 s. */
export async function measureConcurrentCreates(
  root: string,
  database: BenchDatabase,
  build: Build,
  env: Record<string, string>,
  key: string,
  duration: number,
): Promise<WriteRow[]> {
  const { provider } = database;
  const app = await startApp(build, { ...env, DATABASE_URL: database.url }, key);
  try {
    progress(`${provider} ${build.label}: ${CREATE_CONNECTIONS} connections of creates for ${duration} s`);
    const result = await during(root, {
      url: app.url,
      intervalMs: SAMPLE_INTERVAL_MS,
      samples: [{ label: "/healthz", path: "/healthz" }],
      action: {
        kind: "load",
        method: "POST",
        path: "/v1/pets",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: '{"name":"Bench","categoryId":1,"status":"available"}',
        connections: CREATE_CONNECTIONS,
        duration,
        timeoutSeconds: 10,
      },
    });
    app.check();
    const load = result.load!;
    return [
      {
        database: provider,
        build: build.label,
        series: `create c=${CREATE_CONNECTIONS} (${load.rps.toFixed(0)} req/s)`,
        requests: load.requests,
        p50Ms: load.p50,
        p99Ms: load.p99,
        maxMs: load.max,
        seconds: result.seconds,
        failures: load.failures,
        statuses: result.statuses,
        check: load.max !== null && load.max <= TARGET_CREATE_MAX_MS && load.failures === 0 ? "PASS" : "FAIL",
      },
      ...sampleRows(provider, build.label, result, (p99) => p99 <= TARGET_CREATE_MAX_MS),
    ];
  } finally {
    await app.stop();
  }
}
