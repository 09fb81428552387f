// The benchmark's write rows (issue 20): what a long write costs every other answer of the server.
// - import-latency: a 10,000-row CSV import applied through the admin API, while /healthz and a /v1 list are
//   sampled every 50 ms; the target is each sample's p99 at most 250 ms.
// - concurrent-creates: 64 connections of POST /v1/pets for BENCH_DURATION seconds, then as long of PATCH status
//   updates, /healthz sampled alongside; the target is no answer slower than 2 s, and no timeout or error.
// - batch: issue 24's bulk changes beside the import they must keep pace with: a 1,000-row import's apply, then
//   batchPets setting a status on 1,000 pets, and deleting them, each while /healthz is sampled.
// Figures before a change come from running the row on the commit before it (docs/performance.md, SQLite writes).
import fs from "node:fs";
import path from "node:path";
import type { BenchDatabase, Provider } from "@/bench/databases";
import type { DuringResult, DuringSpec } from "@/bench/during";
import { assertRunning, runNode, startMeasured, stop } from "@/bench/processes";
import { serverNodeFlags } from "@/scripts/harness/servers";

export const IMPORT_ROWS = 10_000;
export const BATCH_PETS = 1000;
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

/** Makes the bench's staff account with the staff tool of `build`. */
async function createStaffAccount(database: BenchDatabase, build: Build): Promise<void> {
  await runNode([path.join(build.dir, "dist/staff.js"), "create", STAFF.email], { DATABASE_URL: database.url }, false, {
    cwd: build.dir,
    input: `${STAFF.password}\n`,
  });
}

/** Signs the bench's staff member in; the session's Cookie header. */
async function signIn(url: string): Promise<string> {
  const answer = await fetch(`${url}/admin/api/session`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: url },
    body: JSON.stringify(STAFF),
  });
  if (answer.status !== 200) throw new Error(`sign-in answered ${answer.status}: ${await answer.text()}`);
  return (answer.headers.get("set-cookie") ?? "").split(";")[0];
}

/** A CSV of `rows` new pets written to a file and dry-run through the admin API, ready to apply. */
async function checkedImport(url: string, cookie: string, rows: number, folder: string, name: string) {
  const headers = { Cookie: cookie, Origin: url, "Content-Type": "text/csv" };
  const lines = Array.from({ length: rows }, (_, i) => `Imported ${i},${1 + (i % 6)},available`);
  const file = path.join(folder, `import-${name}-${rows}.csv`);
  fs.writeFileSync(file, ["name,categoryId,status", ...lines].join("\r\n"));
  const dryRun = await fetch(`${url}/admin/api/pets/imports`, { method: "POST", headers, body: fs.readFileSync(file) });
  const report = (await dryRun.json()) as { importId?: string; toCreate?: number };
  if (dryRun.status !== 200 || report.toCreate !== rows)
    throw new Error(`the dry run answered ${dryRun.status}: ${JSON.stringify(report)}`);
  return { file, headers, importId: report.importId };
}

/** A write's own row: one request, its duration. */
function writeRow(database: Provider, build: string, series: string, result: DuringResult, ok: string): WriteRow {
  const done = result.statuses[ok] === 1;
  return {
    database,
    build,
    series,
    requests: 1,
    p50Ms: null,
    p99Ms: null,
    maxMs: result.seconds * 1000,
    seconds: result.seconds,
    failures: done ? 0 : 1,
    statuses: done ? {} : result.statuses,
    check: null,
  };
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
  await createStaffAccount(database, build);
  const app = await startApp(build, { ...env, DATABASE_URL: database.url }, key);
  try {
    const cookie = await signIn(app.url);
    const { file, headers, importId } = await checkedImport(app.url, cookie, IMPORT_ROWS, folder, provider);
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
        path: `/admin/api/pets/imports/${importId}`,
        headers,
        bodyFile: file,
      },
    });
    app.check();
    return [
      writeRow(provider, build.label, `apply ${IMPORT_ROWS} rows`, result, "200"),
      ...sampleRows(provider, build.label, result, (p99) => p99 <= TARGET_SAMPLE_P99_MS),
    ];
  } finally {
    await app.stop();
  }
}

/**
 * 64 connections of creates for `duration` seconds, then as long of status updates (PATCH, request k setting pet
 * k % 1000 + 1 of the catalogue to the next status, so every request changes its pet), /healthz sampled meanwhile;
 * autocannon gives up on a request after 10 s. Issue 23 compares both before and after the events outbox.
 */
export async function measureConcurrentCreates(
  root: string,
  database: BenchDatabase,
  build: Build,
  env: Record<string, string>,
  key: string,
  duration: number,
  catalogue: number,
): Promise<WriteRow[]> {
  const { provider } = database;
  const app = await startApp(build, { ...env, DATABASE_URL: database.url }, key);
  const auth = { Authorization: `Bearer ${key}` };
  const writes: { name: string; action: Extract<DuringSpec["action"], { kind: "load" }> }[] = [
    {
      name: "create",
      action: {
        kind: "load",
        method: "POST",
        path: "/v1/pets",
        headers: { ...auth, "Content-Type": "application/json" },
        body: '{"name":"Bench","categoryId":1,"status":"available"}',
        connections: CREATE_CONNECTIONS,
        duration,
        timeoutSeconds: 10,
      },
    },
    {
      name: "update",
      action: {
        kind: "load",
        method: "PATCH",
        path: "/v1/pets/1",
        paths: Array.from({ length: catalogue }, (_, index) => `/v1/pets/${index + 1}`),
        bodies: ["pending", "sold", "available"].map((status) => JSON.stringify({ status })),
        headers: { ...auth, "Content-Type": "application/merge-patch+json" },
        body: "",
        connections: CREATE_CONNECTIONS,
        duration,
        timeoutSeconds: 10,
      },
    },
  ];
  const rows: WriteRow[] = [];
  try {
    for (const { name, action } of writes) {
      progress(`${provider} ${build.label}: ${CREATE_CONNECTIONS} connections of ${name}s for ${duration} s`);
      const result = await during(root, {
        url: app.url,
        intervalMs: SAMPLE_INTERVAL_MS,
        samples: [{ label: `/healthz during ${name}s`, path: "/healthz" }],
        action,
      });
      app.check();
      const load = result.load!;
      rows.push(
        {
          database: provider,
          build: build.label,
          series: `${name} c=${CREATE_CONNECTIONS} (${load.rps.toFixed(0)} req/s)`,
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
      );
    }
    return rows;
  } finally {
    await app.stop();
  }
}

/**
 * Issue 24's bulk changes beside the import: a 1,000-row import's apply, then batchPets (through the admin API, as
 * the catalogue sends it) setting a status on the catalogue's first 1,000 pets and then deleting them, each while
 * /healthz is sampled (its p99 within the import's target).
 */
export async function measureBatch(
  root: string,
  database: BenchDatabase,
  build: Build,
  env: Record<string, string>,
  key: string,
  folder: string,
): Promise<WriteRow[]> {
  const { provider } = database;
  await createStaffAccount(database, build);
  const app = await startApp(build, { ...env, DATABASE_URL: database.url }, key);
  const rows: WriteRow[] = [];
  const sampled = async (series: string, action: DuringSpec["action"], ok: string) => {
    progress(`${provider} ${build.label}: ${series}, sampling /healthz`);
    const result = await during(root, {
      url: app.url,
      intervalMs: SAMPLE_INTERVAL_MS,
      samples: [{ label: `/healthz during ${series}`, path: "/healthz" }],
      action,
    });
    app.check();
    rows.push(
      writeRow(provider, build.label, series, result, ok),
      ...sampleRows(provider, build.label, result, (p99) => p99 <= TARGET_SAMPLE_P99_MS),
    );
  };
  try {
    const cookie = await signIn(app.url);
    const imported = await checkedImport(app.url, cookie, BATCH_PETS, folder, provider);
    await sampled(
      `apply ${BATCH_PETS} rows`,
      {
        kind: "request",
        method: "PUT",
        path: `/admin/api/pets/imports/${imported.importId}`,
        headers: imported.headers,
        bodyFile: imported.file,
      },
      "200",
    );
    const ids = Array.from({ length: BATCH_PETS }, (_, index) => index + 1);
    const headers = { Cookie: cookie, Origin: app.url, "Content-Type": "application/json" };
    for (const [series, body] of [
      [`batch: status of ${BATCH_PETS} pets`, { action: "update", ids, set: { status: "sold" } }],
      [`batch: delete ${BATCH_PETS} pets`, { action: "delete", ids }],
    ] as const) {
      const bodyFile = path.join(folder, `batch-${provider}-${rows.length}.json`);
      fs.writeFileSync(bodyFile, JSON.stringify(body));
      await sampled(
        series,
        { kind: "request", method: "POST", path: "/admin/api/pets/batch", headers, bodyFile },
        "200",
      );
    }
    return rows;
  } finally {
    await app.stop();
  }
}
