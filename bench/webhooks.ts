// The benchmark's webhook rows (BENCH_ONLY=webhooks): how fast the worker (lib/webhooks/worker.ts) delivers to a
// local receiver, and whether each event arrives exactly once.
// - backlog: `events` pet.created events written in one transaction after the endpoints exist; the time from that
//   write to the arrival of the last delivery, for 1 endpoint, 4 endpoints and (PostgreSQL) 1 endpoint served by
//   two app instances on the database.
// - latency: one POST /v1/pets at a time, a random pause of up to a second between them (so the creates do not keep
//   step with the worker's timer); the time from the 201's arrival (the commit is before it) to the delivery's.
// The receiver is node:http in this process, answering 200 to every POST; it counts messages by endpoint and
// webhook-id, so duplicates and missing deliveries are counted, never hidden.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { BenchDatabase, Provider } from "@/bench/databases";
import { assertRunning, runNode, startMeasured, stop, type Server } from "@/bench/processes";
import { serverNodeFlags } from "@/scripts/harness/servers";

/** A case gives up when no new delivery arrived for this long; what has not arrived is missing. */
const STALL_MS = 30_000;
/** After the last delivery, how long late duplicates are waited for: more than the worker's 1 s step. */
const GRACE_MS = 2500;
/** The longest pause between two creates of the latency case. */
const LATENCY_PAUSE_MS = 1000;
/** A pause between two arrivals of a backlog at least this long is a stall (the worker's step is 1 s). */
const STALL_GAP_MS = 500;
/** Linux's clock ticks per second in /proc/<pid>/stat (USER_HZ, 100 on every architecture Node runs on). */
const CLOCK_TICKS = 100;

export type WebhooksRow = {
  database: Provider;
  case: string;
  endpoints: number;
  instances: number;
  events: number;
  /** Deliveries expected (events × endpoints) and how many of them arrived, each counted once. */
  deliveries: number;
  delivered: number;
  /** Backlog: from the events' write to the last delivery's arrival. Null for the latency case. */
  seconds: number | null;
  deliveriesPerSecond: number | null;
  /** Backlog: from the events' write to the first arrival. */
  firstArrivalMs: number | null;
  /** Backlog: the pauses of STALL_GAP_MS or more between two arrivals, and their total in seconds. */
  stalls: number | null;
  stalledSeconds: number | null;
  /** CPU time the app instances used during the case (user and system), in seconds. */
  appCpuSeconds: number;
  /** Arrivals beyond the first of a message; expected messages that never arrived; messages not expected. */
  duplicates: number;
  missing: number;
  unexpected: number;
  /** Latency case: from a create's 201 to its delivery's arrival. Null for a backlog. */
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  /** The webhook_deliveries rows of the case by state, and how many took more than one attempt. */
  rows: { byState: Record<string, number>; retried: number };
};

type Arrival = { key: string; at: number; body: string };

type Receiver = {
  url: string;
  /** Messages received by `<path> <webhook-id>`. */
  counts: Map<string, number>;
  listener?: (arrival: Arrival) => void;
  close(): Promise<void>;
};

type Context = {
  root: string;
  database: BenchDatabase;
  receiver: Receiver;
  key: string;
  /** The running app instances; the first one answers the creates. */
  apps: Server[];
};

/** CPU seconds a live process has used, from /proc/<pid>/stat (utime and stime, fields 14 and 15). */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // from field 3, the state, on
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

const appsCpu = (apps: Server[]) => apps.reduce((sum, app) => sum + cpuSeconds(app.pid), 0);

function progress(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], fraction: number): number | null {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] : null;
}

async function startReceiver(): Promise<Receiver> {
  const server = http.createServer((request, response) => {
    const at = performance.now();
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      response.writeHead(200).end();
      const key = `${request.url} ${String(request.headers["webhook-id"])}`;
      receiver.counts.set(key, (receiver.counts.get(key) ?? 0) + 1);
      receiver.listener?.({ key, at, body: Buffer.concat(chunks).toString("utf8") });
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}`,
    counts: new Map(),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return receiver;
}

let endpointNumber = 0;

/** Adds endpoints with the command-line tool, each at a path of its own on the receiver; returns ids and paths. */
async function createEndpoints(context: Context, count: number): Promise<{ ids: number[]; paths: string[] }> {
  const ids: number[] = [];
  const paths: string[] = [];
  for (let index = 0; index < count; index++) {
    const endpointPath = `/endpoint-${++endpointNumber}`;
    const stdout = await runNode(
      [path.join(context.root, "dist/webhook.js"), "create", `${context.receiver.url}${endpointPath}`],
      { DATABASE_URL: context.database.url, WEBHOOK_ALLOW_PRIVATE_URLS: "on" },
    );
    const id = /Created webhook endpoint (\d+)/.exec(stdout)?.[1];
    if (!id) throw new Error(`webhook create printed no endpoint id:\n${stdout}`);
    ids.push(Number(id));
    paths.push(endpointPath);
  }
  return { ids, paths };
}

/** Deletes a case's endpoints (and their deliveries), so the next case's events are not sent to them. */
async function deleteEndpoints(context: Context, ids: number[]): Promise<void> {
  for (const id of ids)
    await runNode([path.join(context.root, "dist/webhook.js"), "delete", String(id)], {
      DATABASE_URL: context.database.url,
    });
}

/**
 * Resolves when every expected message has arrived once, when none arrived for STALL_MS, or when an app exited: the
 * time of each first arrival, in order.
 */
function arrivalOfAll(context: Context, expected: Set<string>): Promise<number[]> {
  const { receiver, apps } = context;
  return new Promise((resolve) => {
    const arrivals: number[] = [];
    let movedAt = performance.now();
    const finish = () => {
      clearInterval(watch);
      receiver.listener = undefined;
      resolve(arrivals);
    };
    const watch = setInterval(() => {
      const exited = apps.some((app) => app.child.exitCode !== null || app.child.signalCode !== null);
      if (exited || performance.now() - movedAt > STALL_MS) finish(); // the caller's assertRunning says which
    }, 250);
    receiver.listener = ({ key, at }) => {
      if (!expected.has(key) || receiver.counts.get(key) !== 1) return;
      arrivals.push(at);
      movedAt = at;
      if (arrivals.length === expected.size) finish();
    };
  });
}

/** Duplicates and unexpected messages among what a case's endpoints received. */
function tally(receiver: Receiver, paths: string[], expected: (key: string) => boolean) {
  let duplicates = 0;
  let unexpected = 0;
  for (const [key, count] of receiver.counts) {
    if (!paths.includes(key.slice(0, key.indexOf(" ")))) continue;
    if (expected(key)) duplicates += count - 1;
    else unexpected += count;
  }
  return { duplicates, unexpected };
}

/** A backlog of `events` events to `endpoints` new endpoints: the time until each delivery arrived. */
async function measureBacklog(context: Context, label: string, endpoints: number, events: number) {
  const { database, receiver } = context;
  const { ids, paths } = await createEndpoints(context, endpoints);
  progress(`${database.provider} webhooks ${label}: ${events} events to ${endpoints} endpoint(s)`);
  const cpuBefore = appsCpu(context.apps);
  const started = performance.now();
  const { first, last } = await database.appendEvents(events);
  const expected = new Set<string>();
  for (const endpointPath of paths) for (let id = first; id <= last; id++) expected.add(`${endpointPath} evt_${id}`);
  const arrivals = await arrivalOfAll(context, expected);
  for (const app of context.apps) assertRunning(app);
  const appCpuSeconds = appsCpu(context.apps) - cpuBefore;
  await sleep(GRACE_MS);
  const arrived = arrivals.length;
  const seconds = arrived ? (arrivals[arrived - 1] - started) / 1000 : null;
  const gaps = arrivals
    .slice(1)
    .map((at, index) => at - arrivals[index])
    .filter((gap) => gap >= STALL_GAP_MS);
  const row: WebhooksRow = {
    database: database.provider,
    case: label,
    endpoints,
    instances: context.apps.length,
    events,
    deliveries: expected.size,
    delivered: arrived,
    seconds,
    deliveriesPerSecond: seconds ? arrived / seconds : null,
    firstArrivalMs: arrived ? arrivals[0] - started : null,
    stalls: gaps.length,
    stalledSeconds: gaps.reduce((sum, gap) => sum + gap, 0) / 1000,
    appCpuSeconds,
    ...tally(receiver, paths, (key) => expected.has(key)),
    missing: expected.size - arrived,
    p50Ms: null,
    p99Ms: null,
    maxMs: null,
    rows: await database.deliveryStates(),
  };
  await deleteEndpoints(context, ids);
  return row;
}

/** `creates` pets created one at a time, each delivery waited for (up to STALL_MS), a random pause between. */
async function measureLatency(context: Context, creates: number): Promise<WebhooksRow> {
  const { database, receiver, key } = context;
  const { ids, paths } = await createEndpoints(context, 1);
  progress(`${database.provider} webhooks latency: ${creates} creates one at a time`);
  const arrivedAt = new Map<number, number>(); // pet id → first arrival
  const waiting = new Map<number, () => void>();
  receiver.listener = ({ key: messageKey, at, body }) => {
    if (!messageKey.startsWith(`${paths[0]} `)) return;
    const event = JSON.parse(body) as { type: string; data: { id: number } };
    if (event.type !== "pet.created" || arrivedAt.has(event.data.id)) return;
    arrivedAt.set(event.data.id, at);
    waiting.get(event.data.id)?.();
  };
  const latencies: number[] = [];
  const created: number[] = [];
  const cpuBefore = appsCpu(context.apps);
  for (let index = 0; index < creates; index++) {
    await sleep(Math.random() * LATENCY_PAUSE_MS);
    const response = await fetch(`${context.apps[0].url}/v1/pets`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: `Latency ${index}`, categoryId: 1, status: "available" }),
    });
    const answeredAt = performance.now();
    const { id } = (await response.json()) as { id?: number };
    if (response.status !== 201 || id === undefined) throw new Error(`POST /v1/pets answered ${response.status}`);
    created.push(id);
    if (!arrivedAt.has(id)) {
      const timer = new Promise<void>((resolve) => setTimeout(resolve, STALL_MS).unref());
      await Promise.race([new Promise<void>((resolve) => waiting.set(id, resolve)), timer]);
      waiting.delete(id);
    }
    const at = arrivedAt.get(id);
    if (at !== undefined) latencies.push(at - answeredAt);
  }
  const appCpuSeconds = appsCpu(context.apps) - cpuBefore;
  await sleep(GRACE_MS);
  receiver.listener = undefined;
  const sorted = latencies.sort((a, b) => a - b);
  const createdIds = new Set(created);
  const row: WebhooksRow = {
    database: database.provider,
    case: "latency, 1 create at a time",
    endpoints: 1,
    instances: context.apps.length,
    events: creates,
    deliveries: creates,
    delivered: created.filter((id) => arrivedAt.has(id)).length,
    seconds: null,
    deliveriesPerSecond: null,
    firstArrivalMs: null,
    stalls: null,
    stalledSeconds: null,
    appCpuSeconds,
    // Duplicates by webhook-id, as the backlog's; a message is unexpected when it is not one of these creates'.
    duplicates: tally(receiver, paths, () => true).duplicates,
    missing: created.filter((id) => !arrivedAt.has(id)).length,
    unexpected: [...arrivedAt.keys()].filter((id) => !createdIds.has(id)).length,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    maxMs: sorted.at(-1) ?? null,
    rows: await database.deliveryStates(),
  };
  await deleteEndpoints(context, ids);
  return row;
}

async function startApp(root: string, env: Record<string, string>, key: string): Promise<Server> {
  const { server } = await startMeasured(
    "app",
    [...serverNodeFlags(), path.join(root, "dist/server.js")],
    env,
    "/v1/pets?limit=20",
    { Authorization: `Bearer ${key}` },
  );
  return server;
}

/**
 * Every webhook case on one database, which has a key: a backlog of `events` events to 1 and to 4 endpoints, the
 * latency of `creates` creates, and on PostgreSQL the 1-endpoint backlog again with a second app instance.
 */
export async function measureWebhooks(
  root: string,
  database: BenchDatabase,
  serverEnv: Record<string, string>,
  key: string,
  events: number,
  creates: number,
): Promise<WebhooksRow[]> {
  const env = { ...serverEnv, DATABASE_URL: database.url, WEBHOOK_ALLOW_PRIVATE_URLS: "on" };
  const receiver = await startReceiver();
  const context: Context = { root, database, receiver, key, apps: [] };
  try {
    context.apps.push(await startApp(root, env, key));
    const rows = [
      await measureBacklog(context, "backlog, 1 endpoint", 1, events),
      await measureBacklog(context, "backlog, 4 endpoints", 4, events),
      await measureLatency(context, creates),
    ];
    if (database.provider === "postgresql") {
      context.apps.push(await startApp(root, env, key));
      rows.push(await measureBacklog(context, "backlog, 1 endpoint, 2 instances", 1, events));
    }
    for (const app of context.apps) assertRunning(app);
    return rows;
  } finally {
    for (const app of context.apps) await stop(app.child);
    await receiver.close();
  }
}
