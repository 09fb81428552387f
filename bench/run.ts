// npm run bench — measures the /v1 pets API of the production server against two baselines in one run:
// (a) bench/baseline-node.ts, bare node:http with prepared statements over the same database, and
// (b) bench/next-constant, a stock Next route handler returning a constant page. Load comes from
// autocannon in a second process (bench/load.ts). Prints a table and writes bench/results.json.
// BENCH_DURATION (seconds a run, default 10; 2 for a quick try), BENCH_GROWTH_DURATION (default a third
// of it), BENCH_DATABASES (default "sqlite,postgresql"; one of them for a quick try of that one),
// BENCH_CPU_PROF=1 (the app writes CPU profiles to bench/results/cpu-profiles), BENCH_ONLY=sign-in-flood (only
// the sign-in flood's rows, written to bench/results-sign-in-flood.json), BENCH_ONLY=sorting (only the sorted
// orders and the counts at 1,000,000 pets, written to bench/results-sorting.json; the full run measures them too,
// after the growth table), BENCH_ONLY=export (exportPets of 1,000,000 pets: time and the server's peak RSS,
// written to bench/results-export.json), BENCH_ONLY=import-latency (/healthz and a /v1 list during a 10,000-row
// import's apply, written to bench/results-import-latency.json), BENCH_ONLY=concurrent-creates (64 connections of
// creates, then of status updates, written to bench/results-concurrent-creates.json); with those two,
// BENCH_BEFORE_DIR=<built checkouts of earlier commits, comma-separated> measures them beside this one, in the
// same run;
// BENCH_ONLY=request-cost (what the app adds to a request over baseline (a), in µs and in units of the baseline's
// list, median of three rounds; with BENCH_CPU_PROF=1 a CPU profile of each operation; see bench/request-cost.ts;
// written to bench/results-request-cost.json); BENCH_ONLY=orders (placeOrder and deliver beside
// their baseline on both databases, written to bench/results-orders.json; the full run measures them too),
// BENCH_ONLY=events (pages of GET /v1/events with 1,000,000 events, written to bench/results-events.json),
// BENCH_ONLY=webhooks (webhook deliveries to a receiver in this process, each counted by webhook-id: a backlog of
// 500 × BENCH_DURATION events, 5,000 by default, to 1 and to 4 endpoints, and on PostgreSQL to 1 endpoint from two
// app instances; then the latency of 5 × BENCH_DURATION creates, 50 by default, one at a time; see bench/webhooks.ts;
// written to bench/results-webhooks.json), BENCH_ONLY=batch (batchPets on 1,000 pets beside a 1,000-row import, see
// bench/writes.ts; written to bench/results-batch.json), BENCH_ONLY=photos (getPetPhoto of thumbnails beside the
// baseline's, and uploads of a 12-megapixel JPEG, see bench/photos.ts; written to bench/results-photos.json). Exits 0
// whatever the figures: it is a measurement, not a test.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { postgresDatabase, sqliteDatabase, type BenchDatabase, type Provider } from "@/bench/databases";
import type { LoadResult, LoadSpec } from "@/bench/load";
import type { FloodResult, FloodSpec } from "@/bench/sign-in-flood";
import { encodeCursor } from "@/lib/pets/cursor";
import { serverNodeFlags } from "@/scripts/harness/servers";
import {
  assertRunning,
  memoryMb,
  runLoad,
  runNode,
  startMeasured,
  stop,
  stopAll,
  type Server,
} from "@/bench/processes";
import { measureWebhooks } from "@/bench/webhooks";
import { formatCost, measureRequestCost, type CostResults } from "@/bench/request-cost";
import { measurePhotoUploads, uploadThumbnailSet } from "@/bench/photos";
import { measureBatch, measureConcurrentCreates, measureImportLatency, type Build } from "@/bench/writes";
import {
  checkThroughput,
  formatResults,
  machine,
  TARGET_GROWTH,
  TARGET_FLOOD_RATIO,
  TARGET_SEARCH_P50_MS,
  writeResults,
  type GrowthRow,
  type Operation,
  type Results,
  type ServerName,
} from "@/bench/report";

const root = path.resolve(import.meta.dirname, "..");
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Math.min(2, DURATION / 2);
const GROWTH_DURATION = Number(process.env.BENCH_GROWTH_DURATION ?? Math.max(1, Math.round(DURATION / 3)));
const CATALOGUE = 1000;
const CONNECTIONS = [1, 32];
const PROVIDERS = (process.env.BENCH_DATABASES ?? "sqlite,postgresql").split(",");
const FLOOD_ONLY = process.env.BENCH_ONLY === "sign-in-flood";
const SORTING_ONLY = process.env.BENCH_ONLY === "sorting";
const SORTING_PETS = 1_000_000;
const EXPORT_ONLY = process.env.BENCH_ONLY === "export";
const EXPORT_PETS = 1_000_000;
const IMPORT_ONLY = process.env.BENCH_ONLY === "import-latency";
const CREATES_ONLY = process.env.BENCH_ONLY === "concurrent-creates";
const ORDERS_ONLY = process.env.BENCH_ONLY === "orders";
const EVENTS_ONLY = process.env.BENCH_ONLY === "events";
const EVENTS = 1_000_000;
const WEBHOOKS_ONLY = process.env.BENCH_ONLY === "webhooks";
const WEBHOOK_EVENTS = Math.round(500 * DURATION);
const WEBHOOK_CREATES = Math.round(5 * DURATION);
const BATCH_ONLY = process.env.BENCH_ONLY === "batch";
const PHOTOS_ONLY = process.env.BENCH_ONLY === "photos";
const REQUEST_COST_ONLY = process.env.BENCH_ONLY === "request-cost";
const THUMBNAILS = 20;
const PHOTO_UPLOADS = 5;
/** No BENCH_ONLY: every row, baseline (b) the stock Next app included. */
const WHOLE_RUN = !process.env.BENCH_ONLY;
const WRITES_ONLY = IMPORT_ONLY || CREATES_ONLY || BATCH_ONLY;
const NEXT_BIN = path.join(root, "node_modules/next/dist/bin/next");
const CONSTANT_APP = path.join(root, "bench/next-constant");
const CPU_PROFILES = path.join(root, "bench/results/cpu-profiles");

// The per-key rate limit stays on, with a quota the load never reaches: its counting is measured, not its 429s.
const serverEnv = {
  HOST: "127.0.0.1",
  PORT: "0",
  NODE_ENV: "production",
  NEXT_TELEMETRY_DISABLED: "1",
  DEMO_SEED: "off",
  RATE_LIMIT_REQUESTS: "1000000000",
};

const results: Results = {
  machine: machine(),
  settings: { durationSeconds: DURATION, warmupSeconds: WARMUP, growthSeconds: GROWTH_DURATION, catalogue: CATALOGUE },
  throughput: [],
  peakRssMb: [],
  growth: [],
  sorting: [],
  export: [],
  startup: [],
  seeding: [],
  signInFlood: [],
  writes: [],
  targets: { passed: 0, failed: 0 },
};

type OperationRun = {
  operation: Operation;
  spec: Pick<LoadSpec, "paths" | "method" | "body" | "bodies" | "headers">;
  /**
   * The number of a run's first request (LoadSpec.first), given the server and connections; without it, each
   * run carries on from where the operation's previous run stopped.
   */
  first?: (server: ServerName, connections: number) => Promise<number>;
};

const catalogueIds = Array.from({ length: CATALOGUE }, (_, index) => index + 1);

/**
 * The operations, as autocannon requests. Get by id and update walk through the catalogue's ids; update sets
 * the status, without If-Match, to the next of the three values on each visit to a pet (request k updates
 * pet k % 1000 to status k % 3, and 1000 % 3 = 1), so every request changes the pet. Search finds "ell" in
 * about 3 % of the names. Delete removes pets made for it, each request another one (see deletablePets).
 */
function operations(
  key: string,
  deletablePets: OperationRun["first"],
  forOrders: (placed: boolean) => OperationRun["first"],
  thumbnails: string[],
): OperationRun[] {
  const auth = { Authorization: `Bearer ${key}` };
  return [
    photoOperation(auth, thumbnails),
    { operation: "list limit=20", spec: { paths: ["/v1/pets?limit=20"], headers: auth } },
    {
      operation: "list limit=100&status=available",
      spec: { paths: ["/v1/pets?limit=100&status=available"], headers: auth },
    },
    { operation: "search limit=20&q=ell", spec: { paths: ["/v1/pets?limit=20&q=ell"], headers: auth } },
    { operation: "get by id", spec: { paths: catalogueIds.map((id) => `/v1/pets/${id}`), headers: auth } },
    {
      operation: "update status",
      spec: {
        paths: catalogueIds.map((id) => `/v1/pets/${id}`),
        method: "PATCH",
        bodies: ["available", "pending", "sold"].map((status) => JSON.stringify({ status })),
        headers: { ...auth, "Content-Type": "application/merge-patch+json" },
      },
    },
    // After the reads: it grows the table they read.
    {
      operation: "create",
      spec: {
        paths: ["/v1/pets"],
        method: "POST",
        body: '{"name":"Bench","categoryId":1,"status":"available"}',
        headers: { ...auth, "Content-Type": "application/json" },
      },
    },
    { operation: "delete", spec: { paths: ["/v1/pets/{k}"], method: "DELETE", headers: auth }, first: deletablePets },
    ...orderOperations(auth, forOrders),
  ];
}

/** A catalogue page's thumbnails: getPetPhoto of the first pets' photos, size=thumb, each request the next. */
function photoOperation(auth: Record<string, string>, thumbnails: string[]): OperationRun {
  return { operation: "get photo thumb", spec: { paths: thumbnails, headers: auth } };
}

/**
 * The store's rows: placeOrder holds another available pet on each request (request k orders pet k), deliver
 * delivers another placed order (request k order k, selling its pet); each run gets pets or orders of its own.
 */
function orderOperations(
  auth: Record<string, string>,
  forOrders: (placed: boolean) => OperationRun["first"],
): OperationRun[] {
  return [
    {
      operation: "place order",
      spec: {
        paths: ["/v1/store/orders"],
        method: "POST",
        bodies: ['{"petId":{k},"customerName":"Bench"}'],
        headers: { ...auth, "Content-Type": "application/json" },
      },
      first: forOrders(false),
    },
    {
      operation: "deliver order",
      spec: { paths: ["/v1/store/orders/{k}/deliver"], method: "POST", headers: auth },
      first: forOrders(true),
    },
  ];
}

function progress(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

/** Builds an app with `next build` when it has no build yet. */
async function buildIfMissing(dir: string | undefined): Promise<void> {
  const buildId = path.join(dir ?? root, ".next/BUILD_ID");
  if (fs.existsSync(buildId)) return;
  progress(`building ${dir ? path.relative(root, dir) : "the app"} (next build)`);
  await runNode([NEXT_BIN, "build", ...(dir ? [dir] : [])], { NEXT_TELEMETRY_DISABLED: "1" }, true);
}

async function createKey(database: BenchDatabase): Promise<string> {
  const tool = [path.join(root, "dist/key.js"), "create", "bench", "--create"]; // a fresh database: --create makes it
  const stdout = await runNode(tool, { DATABASE_URL: database.url });
  return stdout.trim().split("\n").pop() ?? "";
}

async function seed(database: BenchDatabase, pets: number): Promise<void> {
  const started = performance.now();
  await database.seed(pets);
  results.seeding.push({ database: database.provider, pets, seconds: (performance.now() - started) / 1000 });
}

/**
 * Before each delete run: adds, in bulk, three times as many pets as the same server created in the same time
 * at the same connections (plus a thousand), and returns the first new id, so that every delete finds its pet.
 */
function deletablePets(database: BenchDatabase): OperationRun["first"] {
  return async (server, connections) => {
    const count = rowsForARun(database, server, connections, 5000);
    progress(`${database.provider} delete: adding ${count} pets to delete`);
    return Number(await database.append(count));
  };
}

/**
 * Before each placeOrder (or deliver) run: as deletablePets, enough available pets (or placed orders), and the first
 * one's id.
 */
function orderablePets(database: BenchDatabase): (placed: boolean) => OperationRun["first"] {
  return (placed) => async (server, connections) => {
    const count = rowsForARun(database, server, connections, 2000);
    progress(
      `${database.provider} ${placed ? "deliver" : "place order"}: adding ${count} ${placed ? "orders" : "pets"}`,
    );
    return Number(await database.appendForOrders(count, placed));
  };
}

/**
 * How many rows a run that uses one up a request needs: three times as many as the same server created in the same
 * time at the same connections (`guess` requests a second when it has not been measured), plus a thousand.
 */
function rowsForARun(database: BenchDatabase, server: ServerName, connections: number, guess: number): number {
  const created = results.throughput.find(
    (row) =>
      row.database === database.provider &&
      row.operation === "create" &&
      row.server === server &&
      row.connections === connections,
  );
  const seconds = DURATION + (connections === CONNECTIONS[0] ? WARMUP : 0);
  return Math.ceil(3 * (created?.rps ?? guess) * seconds) + 1000;
}

/** Every operation on every server, at 1 and 32 connections, the servers taking turns per operation. */
async function measureThroughput(
  database: Provider | "none",
  servers: { name: ServerName; server: Server }[],
  ops: OperationRun[],
): Promise<void> {
  for (const { operation, spec, first } of ops) {
    let next = 0;
    for (const { name, server } of servers) {
      for (const [index, connections] of CONNECTIONS.entries()) {
        progress(`${database} ${operation} ${name} c=${connections}`);
        const result = await runLoad({
          ...spec,
          first: first ? await first(name, connections) : next,
          url: server.url,
          connections,
          duration: DURATION,
          warmup: index === 0 ? WARMUP : 0,
        });
        next = result.next;
        assertRunning(server);
        results.throughput.push({
          database,
          operation,
          server: name,
          connections,
          rps: result.rps,
          p50Ms: result.p50,
          p99Ms: result.p99,
          failures: result.failures,
          statuses: result.statuses,
        });
      }
    }
  }
  for (const { name, server } of servers)
    results.peakRssMb.push({ server: name, database, mb: memoryMb(server.pid, "VmHWM") });
}

const FLOOD_SIGN_INS = 200;
const FLOOD_CONNECTIONS = 16;
let floodAddresses = 1;

/**
 * /v1 list latency quietly, while FLOOD_SIGN_INS bogus sign-ins come from one address, and quietly again, at 1 and 32
 * connections; each flood from an address of its own (127.0.0.2, …), so each meets the limits afresh. After each,
 * the control: as many unauthenticated /v1 lists from an address, the cheapest requests there are, to show what
 * any such burst costs /v1 on this machine (it has no target).
 */
async function measureSignInFlood(provider: Provider, app: Server, key: string): Promise<void> {
  for (const connections of CONNECTIONS) {
    for (const request of ["sign-in", "control"] as const) {
      const fromAddress = `127.0.0.${++floodAddresses}`;
      progress(`${provider} ${request} flood from ${fromAddress}, list at c=${connections}`);
      const spec: FloodSpec = {
        url: app.url,
        path: "/v1/pets?limit=20",
        headers: { Authorization: `Bearer ${key}` },
        connections,
        duration: DURATION,
        signIns: FLOOD_SIGN_INS,
        floodConnections: FLOOD_CONNECTIONS,
        fromAddress,
        request,
      };
      const stdout = await runNode([
        "--import",
        "tsx",
        path.join(root, "bench/sign-in-flood.ts"),
        JSON.stringify(spec),
      ]);
      const result = JSON.parse(stdout.trim().split("\n").pop() ?? "") as FloodResult;
      assertRunning(app);
      const quietP99 =
        result.quiet.p99 !== null && result.quietAfter.p99 !== null
          ? (result.quiet.p99 + result.quietAfter.p99) / 2
          : null;
      const ratio = result.flood.p99 !== null && quietP99 ? result.flood.p99 / quietP99 : null;
      const met = ratio !== null && ratio <= TARGET_FLOOD_RATIO && result.failures === 0;
      results.signInFlood.push({
        database: provider,
        connections,
        request,
        signInCount: FLOOD_SIGN_INS,
        floodConnections: FLOOD_CONNECTIONS,
        ...result,
        ratio,
        check: request === "control" ? null : met ? "PASS" : "FAIL",
      });
    }
  }
}

/** The growth table's lists: without q, then searches (see bench/pet-names.ts for what the fragments match). */
const GROWTH_VARIANTS: { page: GrowthRow["page"]; status: GrowthRow["status"]; q: string | null }[] = [
  { page: "first", status: "any", q: null },
  { page: "first", status: "available", q: null },
  { page: "middle", status: "any", q: null },
  { page: "middle", status: "available", q: null },
  // "ell": eight of the names (Bella, Ellie, …), about 3 % of pets; "ziggy": one, about 0.4 %; "xyz": none.
  { page: "first", status: "any", q: "ell" },
  { page: "first", status: "any", q: "ziggy" },
  { page: "first", status: "any", q: "xyz" },
  { page: "first", status: "available", q: "ell" },
  { page: "first", status: "available", q: "ziggy" },
  { page: "middle", status: "any", q: "ell" },
  { page: "middle", status: "any", q: "ziggy" },
  // Too short for a trigram: "a" is in about 36 % of the names, "zi" in 0.4 %, "qx" in none.
  { page: "first", status: "any", q: "a" },
  { page: "first", status: "any", q: "zi" },
  { page: "first", status: "any", q: "qx" },
];

/**
 * List latency at 1 connection with 1,000 and with 1,000,000 pets: first page and a middle page, with and
 * without status, without and with q.
 */
async function measureGrowth(database: BenchDatabase, app: Server, key: string): Promise<void> {
  const bySize = new Map<number, LoadResult[]>();
  for (const pets of [1_000, 1_000_000]) {
    progress(`${database.provider} growth: seeding ${pets} pets`);
    await seed(database, pets);
    const middle = await database.middleId();
    const measured: LoadResult[] = [];
    for (const { page, status, q } of GROWTH_VARIANTS) {
      const query = new URLSearchParams({ limit: "20" });
      if (status !== "any") query.set("status", status);
      if (q !== null) query.set("q", q);
      if (page === "middle") query.set("cursor", encodeCursor({ sort: "id", id: middle }));
      progress(`${database.provider} growth ${pets} ${page} ${status} ${q ?? ""}`);
      measured.push(
        await runLoad({
          url: app.url,
          paths: [`/v1/pets?${query}`],
          headers: { Authorization: `Bearer ${key}` },
          connections: 1,
          duration: GROWTH_DURATION,
          warmup: 1,
        }),
      );
      assertRunning(app);
    }
    bySize.set(pets, measured);
  }
  GROWTH_VARIANTS.forEach(({ page, status, q }, index) => {
    const [small, large] = [bySize.get(1_000)![index], bySize.get(1_000_000)![index]];
    const ratio = small.p50 !== null && large.p50 !== null ? large.p50 / small.p50 : null;
    const answered = small.failures + large.failures === 0;
    const met =
      q === null ? ratio !== null && ratio <= TARGET_GROWTH : large.p50 !== null && large.p50 <= TARGET_SEARCH_P50_MS;
    const row: GrowthRow = {
      database: database.provider,
      page,
      status,
      q,
      p50Ms1k: small.p50,
      p99Ms1k: small.p99,
      p50Ms1M: large.p50,
      p99Ms1M: large.p99,
      ratio,
      check: q !== null && [...q].length < 3 ? null : met && answered ? "PASS" : "FAIL",
    };
    results.growth.push(row);
  });
}

/**
 * The events feed with 1,000,000 events, at 1 connection: its first page (from the oldest), a page from the middle,
 * the follower's usual page (after the newest but 20), one type, and one resource's types.
 */
async function measureEvents(database: BenchDatabase, app: Server, key: string): Promise<void> {
  progress(`${database.provider} events: seeding ${EVENTS} events`);
  const last = await database.seedEvents(EVENTS);
  const requests = [
    { label: "listEvents first page", path: "/v1/events?limit=20" },
    { label: "listEvents after the middle", path: `/v1/events?limit=100&after=${last / 2n}` },
    { label: "listEvents a follower's poll", path: `/v1/events?limit=100&after=${last - 20n}` },
    { label: "listEvents after the newest", path: `/v1/events?after=${last}` },
    { label: "listEvents type=order.placed", path: `/v1/events?limit=20&type=order.placed&after=${last / 2n}` },
    { label: "listEvents type=order.*", path: `/v1/events?limit=20&type=order.*&after=${last / 2n}` },
  ];
  results.events ??= [];
  for (const row of await timeEach(database, app, key, requests)) results.events.push({ ...row, events: EVENTS });
}

/** Each request alone for GROWTH_DURATION at 1 connection: its p50, p99 and failures. */
async function timeEach(
  database: BenchDatabase,
  app: Server,
  key: string,
  requests: { label: string; path: string }[],
): Promise<{ database: Provider; request: string; p50Ms: number | null; p99Ms: number | null; failures: number }[]> {
  const rows = [];
  for (const { label, path: requestPath } of requests) {
    progress(`${database.provider} ${label}`);
    const measured = await runLoad({
      url: app.url,
      paths: [requestPath],
      headers: { Authorization: `Bearer ${key}` },
      connections: 1,
      duration: GROWTH_DURATION,
      warmup: 1,
    });
    assertRunning(app);
    rows.push({
      database: database.provider,
      request: label,
      p50Ms: measured.p50,
      p99Ms: measured.p99,
      failures: measured.failures,
    });
  }
  return rows;
}

/**
 * The sorted orders and the counts with 1,000,000 pets, at 1 connection: the first page and a page deep into the
 * list (a cursor at the middle of the order) of newest first and both name orders, with and without a status;
 * the name orders of a search; countPets without q (the trigger-kept counts) and with q. The database holds the
 * growth table's 1,000,000 pets already, or is seeded with them; it is settled first (see BenchDatabase.settle).
 */
async function measureSorting(database: BenchDatabase, app: Server, key: string): Promise<void> {
  await database.settle();
  const middle = await database.middleId();
  const middleName = await database.middleByName();
  const lists: { label: string; path: string }[] = [];
  for (const sort of ["-id", "name", "-name"] as const) {
    for (const status of [undefined, "available"] as const) {
      for (const page of ["first", "deep"] as const) {
        const query = new URLSearchParams({ limit: "20", sort });
        if (status) query.set("status", status);
        if (page === "deep") {
          const position = sort === "-id" ? { sort, id: middle } : { sort, ...middleName };
          query.set("cursor", encodeCursor(position));
        }
        lists.push({ label: `listPets sort=${sort} ${status ?? "any"} ${page} page`, path: `/v1/pets?${query}` });
      }
    }
  }
  // See bench/pet-names.ts: "ell" is in about 3 % of the names, "ziggy" 0.4 %, "a" 36 %.
  for (const [sort, q] of [
    ["name", "ell"],
    ["-name", "ziggy"],
    ["name", "a"],
  ] as const)
    lists.push({ label: `listPets sort=${sort} q=${q}`, path: `/v1/pets?limit=20&sort=${sort}&q=${q}` });
  lists.push({ label: "countPets", path: "/v1/pets/counts" });
  for (const q of ["ell", "ziggy", "xyz", "a"])
    lists.push({ label: `countPets q=${q}`, path: `/v1/pets/counts?q=${q}` });
  // The filters of issue 24: categories (each a sixth of the pets), several at once, with a status, and status=none
  // (no seeded pet is without one).
  for (const filter of ["categoryId=3", "categoryId=2,5", "categoryId=2,5&status=available", "status=none"])
    lists.push({ label: `listPets ${filter} first page`, path: `/v1/pets?limit=20&sort=-id&${filter}` });
  lists.push({
    label: "listPets categoryId=1,2,3,4,5 sort=name",
    path: "/v1/pets?limit=20&sort=name&categoryId=1,2,3,4,5",
  });
  const deep = encodeCursor({ sort: "-id", id: middle });
  lists.push({
    label: "listPets categoryId=2,5 deep page",
    path: `/v1/pets?limit=20&sort=-id&categoryId=2,5&cursor=${deep}`,
  });
  lists.push({ label: "countPets categoryId=2,5", path: "/v1/pets/counts?categoryId=2,5" });
  // The status and category orders (issue 24 item 3): first pages, alone, with a status or categories, and a
  // deep page from a cursor at the middle id (a pending pet of category 3, as the seeding spreads them).
  for (const sort of ["status", "-status", "category", "-category"] as const) {
    for (const filter of ["", "&status=available", "&categoryId=2,5"])
      lists.push({
        label: `listPets sort=${sort}${filter.replace("&", " ")} first page`,
        path: `/v1/pets?limit=20&sort=${sort}${filter}`,
      });
    const position = sort.endsWith("status")
      ? { sort, id: middle, status: "pending" as const }
      : { sort, id: middle, categoryId: 3n };
    lists.push({
      label: `listPets sort=${sort} deep page`,
      path: `/v1/pets?limit=20&sort=${sort}&cursor=${encodeCursor(position)}`,
    });
  }
  for (const row of await timeEach(database, app, key, lists)) results.sorting.push({ ...row, pets: SORTING_PETS });
}

/**
 * exportPets of 1,000,000 pets, one download at a time, read as fast as this process can: in id order (the primary
 * key's walk), in name order (the name index's walk) and one status. The server is started after the seeding, so
 * its peak RSS (VmHWM) is the export's, and is read after each download.
 */
async function measureExport(database: BenchDatabase, key: string): Promise<void> {
  progress(`${database.provider} export: seeding ${EXPORT_PETS} pets`);
  await seed(database, EXPORT_PETS);
  await database.settle();
  const env = { ...serverEnv, DATABASE_URL: database.url };
  const auth = { Authorization: `Bearer ${key}` };
  const app = await startMeasured(
    "app",
    [...serverNodeFlags(), path.join(root, "dist/server.js")],
    env,
    "/v1/pets",
    auth,
  );
  for (const query of ["sort=id", "sort=name", "status=available&sort=-id"]) {
    progress(`${database.provider} export ${query}`);
    const rssBeforeMb = memoryMb(app.server.pid, "VmRSS");
    const started = performance.now();
    const response = await fetch(`${app.server.url}/v1/pets/export?${query}`, { headers: auth });
    if (response.status !== 200) throw new Error(`export ${query} answered ${response.status}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      for (const byte of chunk) if (byte === 10) lines++;
    }
    const seconds = (performance.now() - started) / 1000;
    assertRunning(app.server);
    results.export!.push({
      database: database.provider,
      pets: EXPORT_PETS,
      request: `exportPets ${query}`,
      rows: lines - 1, // the header; no name holds a line break
      megabytes: bytes / 1e6,
      seconds,
      rssBeforeMb,
      peakRssMb: memoryMb(app.server.pid, "VmHWM"),
    });
  }
  await stop(app.server.child);
}

// One database: a fresh one, a key, the catalogue, the app and baseline (a) side by side, then growth.
async function benchDatabase(database: BenchDatabase): Promise<void> {
  const { provider } = database;
  progress(`${provider}: creating a key (migrates the fresh database)`);
  const key = await createKey(database);
  if (EXPORT_ONLY) return measureExport(database, key);
  await seed(database, CATALOGUE);
  if (WEBHOOKS_ONLY) {
    results.webhooks ??= [];
    results.webhooks.push(...(await measureWebhooks(root, database, serverEnv, key, WEBHOOK_EVENTS, WEBHOOK_CREATES)));
    return;
  }
  const env = { ...serverEnv, DATABASE_URL: database.url };
  const auth = { Authorization: `Bearer ${key}` };
  const profile = process.env.BENCH_CPU_PROF === "1" ? ["--cpu-prof", `--cpu-prof-dir=${CPU_PROFILES}`] : [];
  const app = await startMeasured(
    "app",
    [...profile, ...serverNodeFlags(), path.join(root, "dist/server.js")],
    env,
    "/v1/pets?limit=20",
    auth,
  );
  results.startup.push({ server: "app", database: provider, ...app.startup });
  if (EVENTS_ONLY) {
    await measureEvents(database, app.server, key);
    await stop(app.server.child);
    return;
  }
  if (SORTING_ONLY) {
    progress(`${provider} sorting: seeding ${SORTING_PETS} pets`);
    await seed(database, SORTING_PETS);
    await measureSorting(database, app.server, key);
    await stop(app.server.child);
    return;
  }
  if (FLOOD_ONLY) {
    await measureSignInFlood(provider, app.server, key);
    await stop(app.server.child);
    return;
  }
  let thumbnails: string[] = [];
  if (!ORDERS_ONLY) {
    progress(`${provider}: uploading ${THUMBNAILS} photos, then ${PHOTO_UPLOADS} of 12 megapixels one at a time`);
    thumbnails = await uploadThumbnailSet(app.server.url, key, THUMBNAILS);
    results.photoUploads ??= [];
    results.photoUploads.push(await measurePhotoUploads(provider, app.server.url, key, PHOTO_UPLOADS, THUMBNAILS));
  }
  const baseline = await startMeasured(
    "baseline-node",
    ["--import", "tsx", path.join(root, "bench/baseline-node.ts")],
    env,
    "/v1/pets?limit=20",
    auth,
  );
  results.startup.push({ server: "baseline-node", database: provider, ...baseline.startup });
  await measureThroughput(
    provider,
    [
      { name: "app", server: app.server },
      { name: "baseline-node", server: baseline.server },
    ],
    ORDERS_ONLY
      ? orderOperations({ Authorization: `Bearer ${key}` }, orderablePets(database))
      : PHOTOS_ONLY
        ? [photoOperation({ Authorization: `Bearer ${key}` }, thumbnails)]
        : operations(key, deletablePets(database), orderablePets(database), thumbnails),
  );
  await stop(baseline.server.child);
  if (ORDERS_ONLY || PHOTOS_ONLY) return stop(app.server.child);
  await measureSignInFlood(provider, app.server, key);
  await measureGrowth(database, app.server, key);
  await measureSorting(database, app.server, key); // on the growth table's 1,000,000 pets
  await stop(app.server.child);
}

/**
 * The write rows (bench/writes.ts) on one database, for each build in turn, each on a fresh database of its own
 * with the catalogue's pets.
 */
async function benchWrites(provider: Provider, builds: Build[]): Promise<void> {
  for (const [index, build] of builds.entries()) {
    const database =
      provider === "sqlite"
        ? sqliteDatabase(fs.mkdtempSync(path.join(temporary, "sqlite-")))
        : await postgresDatabase(`animal_store_bench_${process.pid}_${index}`);
    databases.push(database);
    progress(`${provider} ${build.label}: creating a key (migrates the fresh database)`);
    const key = await createKey(database);
    await seed(database, CATALOGUE);
    const rows = IMPORT_ONLY
      ? await measureImportLatency(root, database, build, serverEnv, key, temporary)
      : BATCH_ONLY
        ? await measureBatch(root, database, build, serverEnv, key, temporary)
        : await measureConcurrentCreates(root, database, build, serverEnv, key, DURATION, CATALOGUE);
    results.writes!.push(...rows);
  }
}

// Baseline (b): the stock Next app, list only (its one route), at 1 and 32 connections.
async function benchNextConstant(): Promise<void> {
  const nextConstant = await startMeasured(
    "next-constant",
    [NEXT_BIN, "start", CONSTANT_APP, "-p", "0", "-H", "127.0.0.1"],
    serverEnv,
    "/v1/pets",
    {},
  );
  results.startup.push({ server: "next-constant", database: "none", ...nextConstant.startup });
  await measureThroughput(
    "none",
    [{ name: "next-constant", server: nextConstant.server }],
    [{ operation: "list limit=20", spec: { paths: ["/v1/pets?limit=20"] } }],
  );
  await stop(nextConstant.server.child);
}

/** Issue 26's rows (bench/request-cost.ts) on each database, printed and written on their own. */
async function benchRequestCost(): Promise<void> {
  const all: CostResults = { rounds: [], rows: [], l: [], peakRssMb: [], profiles: [] };
  for (const provider of ["sqlite", "postgresql"] as const) {
    if (!PROVIDERS.includes(provider)) continue;
    const database =
      provider === "sqlite" ? sqliteDatabase(temporary) : await postgresDatabase(`animal_store_bench_${process.pid}`);
    databases.push(database);
    progress(`${provider}: creating a key (migrates the fresh database)`);
    const key = await createKey(database);
    await seed(database, CATALOGUE);
    const measured = await measureRequestCost({
      root,
      database,
      key,
      env: { ...serverEnv, DATABASE_URL: database.url },
      catalogue: CATALOGUE,
      duration: DURATION,
      warmup: WARMUP,
      profileDir: process.env.BENCH_CPU_PROF === "1" ? CPU_PROFILES : undefined,
    });
    for (const field of ["rounds", "rows", "l", "peakRssMb", "profiles"] as const)
      (all[field] as unknown[]).push(...measured[field]);
  }
  console.log(formatCost(all));
  const written = path.join(root, "bench/results-request-cost.json");
  fs.writeFileSync(written, `${JSON.stringify({ machine: machine(), settings: results.settings, ...all }, null, 2)}\n`);
  console.log(`\nWritten to ${path.relative(root, written)}`);
}

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "animal-store-bench-"));
const databases: BenchDatabase[] = [];
let cleanedUp = false;

async function cleanUp(): Promise<void> {
  if (cleanedUp) return;
  cleanedUp = true;
  await stopAll();
  for (const database of databases)
    await database.drop().catch((error: unknown) => progress(`could not drop ${database.url}: ${String(error)}`));
  fs.rmSync(temporary, { recursive: true, force: true });
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
}

try {
  if (process.env.BENCH_CPU_PROF === "1") fs.mkdirSync(CPU_PROFILES, { recursive: true });
  await buildIfMissing(undefined);
  if (WHOLE_RUN) await buildIfMissing(CONSTANT_APP);
  // The compiled server and key tool that npm start runs (dist/), compiled again when a source changed.
  await runNode([path.join(root, "scripts/build-server.mjs"), "--if-stale"], {}, true);
  if (REQUEST_COST_ONLY) await benchRequestCost();
  else {
    if (WRITES_ONLY) {
      // BENCH_BEFORE_DIR: checkouts of earlier commits, each built (`npm run build`), comma-separated, oldest
      // first, measured beside this one.
      const before = (process.env.BENCH_BEFORE_DIR ?? "").split(",").filter(Boolean);
      const builds: Build[] = [
        ...before.map((dir) => ({ label: `before (${path.basename(path.resolve(dir))})`, dir: path.resolve(dir) })),
        { label: "this checkout", dir: root },
      ];
      for (const provider of ["sqlite", "postgresql"] as const)
        if (PROVIDERS.includes(provider)) await benchWrites(provider, builds);
    } else if (PROVIDERS.includes("sqlite")) {
      databases.push(sqliteDatabase(temporary));
      await benchDatabase(databases.at(-1)!);
    }
    if (!WRITES_ONLY && PROVIDERS.includes("postgresql")) {
      databases.push(await postgresDatabase(`animal_store_bench_${process.pid}`));
      await benchDatabase(databases.at(-1)!);
    }
    if (WHOLE_RUN) await benchNextConstant();

    checkThroughput(results.throughput);
    const checks = [
      ...results.throughput.map((row) => row.check),
      ...results.growth.map((row) => row.check),
      ...results.signInFlood.map((row) => row.check),
      ...(results.writes ?? []).map((row) => row.check),
    ];
    results.targets = {
      passed: checks.filter((check) => check === "PASS").length,
      failed: checks.filter((check) => check === "FAIL").length,
    };
    console.log(formatResults(results));
    const written = path.join(
      root,
      EVENTS_ONLY
        ? "bench/results-events.json"
        : ORDERS_ONLY
          ? "bench/results-orders.json"
          : PHOTOS_ONLY
            ? "bench/results-photos.json"
            : FLOOD_ONLY
              ? "bench/results-sign-in-flood.json"
              : SORTING_ONLY
                ? "bench/results-sorting.json"
                : EXPORT_ONLY
                  ? "bench/results-export.json"
                  : IMPORT_ONLY
                    ? "bench/results-import-latency.json"
                    : BATCH_ONLY
                      ? "bench/results-batch.json"
                      : CREATES_ONLY
                        ? "bench/results-concurrent-creates.json"
                        : WEBHOOKS_ONLY
                          ? "bench/results-webhooks.json"
                          : "bench/results.json",
    );
    writeResults(written, results);
    console.log(`\nWritten to ${path.relative(root, written)}`);
  }
} catch (error) {
  console.error(`Benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
