import "server-only";
import fs from "node:fs";
import type { Pool } from "pg";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { config } from "@/lib/config";
import { connectionPool } from "@/lib/db/client";
import type { ErrorCode } from "@/lib/http/error-codes";

// What GET /metrics reports, in Prometheus's text format: every request the route wrapper (lib/http/api-route.ts)
// answers, by surface, operation, method and status (499 when the client went away before its answer: not a
// server error, and no error code), with its latency; the error codes answered; the
// requests the per-key rate limit refused; the database's connections; the process's own metrics.
// Nothing is recorded unless METRICS_TOKEN is set. Labels come from fixed sets only (the route tables'
// operations, the catalogue's codes, HTTP's methods and statuses): never a path, a key or an id.
//
// The code runs twice in one process, bundled once by esbuild (server.ts) and once by Next (the route
// modules), so the registry and its metrics live on globalThis: both bundles count into the same series.

/** Where a request was answered: the /v1 API, the admin app's endpoints, or /metrics itself. */
export type SurfaceName = "v1" | "admin" | "metrics";

/** The labels of an operation's requests, fixed when its route is built; the series are made on first use. */
export type RequestSeries = { surface: SurfaceName; operation: string; byMethodAndStatus: Map<string, Answered> };

type RequestLabels = { surface: SurfaceName; operation: string; method: string; status: string };

/**
 * One label set of the request metrics. Its count is a plain number, handed to http_requests_total when
 * scraped: prom-client hashes the labels on every inc(), and a request should cost no more than the
 * histogram's observe.
 */
type Answered = {
  labels: RequestLabels;
  count: number;
  reported: number;
  duration: { observe(seconds: number): void };
};

type Metrics = {
  registry: Registry;
  requests: Counter<"surface" | "operation" | "method" | "status">;
  duration: Histogram<"surface" | "operation" | "method" | "status">;
  refusals: Counter<"surface" | "code">;
  rateLimited: Counter<"surface" | "operation">;
  answered: Answered[];
};

// Most answers take 1–50 ms; the buckets are finest there, and reach far enough to show a stall.
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

// Node's parser only lets through methods it knows; anything but the usual ones is counted as one.
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requestLabels = ["surface", "operation", "method", "status"] as const;
  const answered: Answered[] = [];
  const metrics: Metrics = {
    registry,
    answered,
    requests: new Counter({
      name: "http_requests_total",
      help:
        "Requests answered, by surface (v1, admin, metrics), operation, method and status " +
        "(499: the client went away first).",
      labelNames: requestLabels,
      registers: [registry],
      collect() {
        for (const series of answered) {
          const fresh = series.count - series.reported;
          if (fresh === 0) continue;
          this.inc(series.labels, fresh);
          series.reported += fresh;
        }
      },
    }),
    duration: new Histogram({
      name: "http_request_duration_seconds",
      help: "Seconds from a request reaching the edge to its answer, by surface, operation, method and status.",
      labelNames: requestLabels,
      buckets: DURATION_BUCKETS,
      registers: [registry],
    }),
    refusals: new Counter({
      name: "http_refusals_total",
      help: "Error answers, by surface and error code (lib/http/error-codes.ts); 5xx codes included.",
      labelNames: ["surface", "code"] as const,
      registers: [registry],
    }),
    rateLimited: new Counter({
      name: "http_rate_limited_total",
      help: "Requests refused with 429 by the per-key rate limit, by surface and operation.",
      labelNames: ["surface", "operation"] as const,
      registers: [registry],
    }),
  };
  registerDatabaseMetrics(registry);
  return metrics;
}

/** PostgreSQL: the pool's connections, read at each scrape. SQLite has one connection and no pool: its files' sizes. */
function registerDatabaseMetrics(registry: Registry): void {
  const { database } = config();
  if (database.provider === "postgresql") {
    const poolGauge = (name: string, help: string, read: (pool: Pool) => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          const pool = connectionPool();
          if (pool) this.set(read(pool));
        },
      });
    poolGauge(
      "db_pool_connections",
      "PostgreSQL connections open in the pool, busy or idle.",
      (pool) => pool.totalCount,
    );
    poolGauge(
      "db_pool_idle_connections",
      "PostgreSQL connections open and idle in the pool.",
      (pool) => pool.idleCount,
    );
    poolGauge(
      "db_pool_waiting_requests",
      "Queries waiting for a PostgreSQL connection because every one is busy.",
      (pool) => pool.waitingCount,
    );
    poolGauge(
      "db_pool_max_connections",
      "The most PostgreSQL connections the pool opens.",
      (pool) => pool.options.max ?? 10,
    );
    return;
  }
  const files = { database: database.file, wal: `${database.file}-wal` };
  new Gauge({
    name: "db_sqlite_file_bytes",
    help: "Size of the SQLite database file and of its write-ahead log (0 when there is none).",
    labelNames: ["file"] as const,
    registers: [registry],
    collect() {
      for (const [file, path] of Object.entries(files))
        this.set({ file }, fs.statSync(path, { throwIfNoEntry: false })?.size ?? 0);
    },
  });
}

const holder = globalThis as typeof globalThis & { __animalStoreMetrics?: Metrics | null };

/** The process's metrics, made on first use; undefined when METRICS_TOKEN is not set. */
function metrics(): Metrics | undefined {
  if (holder.__animalStoreMetrics === undefined) {
    holder.__animalStoreMetrics = config().METRICS_TOKEN === undefined ? null : createMetrics();
  }
  return holder.__animalStoreMetrics ?? undefined;
}

/** Starts the process metrics now (CPU, memory, event loop, GC) rather than at the first request. */
export function startMetrics(): void {
  metrics();
}

export function requestSeries(surface: SurfaceName, operation: string): RequestSeries {
  return { surface, operation, byMethodAndStatus: new Map() };
}

const refusalChildren = new Map<string, { inc(): void }>();
const rateLimitedChildren = new Map<RequestSeries, { inc(): void }>();

/** Counts one answered request; `code` is the error code of an Error answer. Cheap: a Map lookup, +1, an observe. */
export function recordRequest(
  series: RequestSeries,
  method: string,
  status: number,
  seconds: number,
  code: ErrorCode | undefined,
): void {
  const current = metrics();
  if (!current) return;
  const methodLabel = KNOWN_METHODS.has(method) ? method : "other";
  const key = `${methodLabel} ${status}`;
  let answered = series.byMethodAndStatus.get(key);
  if (!answered) {
    const labels = {
      surface: series.surface,
      operation: series.operation,
      method: methodLabel,
      status: String(status),
    };
    answered = { labels, count: 0, reported: 0, duration: current.duration.labels(labels) };
    series.byMethodAndStatus.set(key, answered);
    current.answered.push(answered);
  }
  answered.count++;
  answered.duration.observe(seconds);
  if (code === undefined) return;

  const refusalKey = `${series.surface} ${code}`;
  let refusal = refusalChildren.get(refusalKey);
  if (!refusal) {
    refusal = current.refusals.labels({ surface: series.surface, code });
    refusalChildren.set(refusalKey, refusal);
  }
  refusal.inc();
  if (code === "rate_limited") {
    let limited = rateLimitedChildren.get(series);
    if (!limited) {
      limited = current.rateLimited.labels({ surface: series.surface, operation: series.operation });
      rateLimitedChildren.set(series, limited);
    }
    limited.inc();
  }
}

/** The metrics in Prometheus's text format, and that format's Content-Type; undefined when metrics are off. */
export async function renderMetrics(): Promise<{ text: string; contentType: string } | undefined> {
  const current = metrics();
  if (!current) return undefined;
  return { text: await current.registry.metrics(), contentType: current.registry.contentType };
}
