// The load generator of the benchmark, run as its own process by bench/run.ts so that it never shares
// the event loop of the process that measures: `node --import tsx bench/load.ts '<LoadSpec JSON>'`.
// It runs autocannon (a warm-up, then the measured run) and prints one JSON line: a LoadResult.
import { createRequire } from "node:module";
import type { EventEmitter } from "node:events";

export type LoadSpec = {
  url: string; // origin, e.g. http://127.0.0.1:4000
  // Requests are numbered from `first` (default 0), warm-up and measured run alike: request k goes to
  // paths[k % paths.length] with "{k}" replaced by k, and sends bodies[k % bodies.length] (else `body`), "{k}" in it
  // replaced by k too.
  paths: string[];
  first?: number;
  method?: "GET" | "POST" | "PATCH" | "DELETE";
  body?: string;
  bodies?: string[];
  headers?: Record<string, string>;
  connections: number;
  duration: number; // seconds
  warmup: number; // seconds, not measured; 0 for none
};

export type LoadResult = {
  requests: number; // 2xx responses in the measured run
  // The number of the next request after the last one made: a later run that starts there never repeats one
  // (a request made as the run ended may not have been sent: its number is skipped, never reused).
  next: number;
  seconds: number;
  rps: number;
  // Latency in ms, exact (autocannon's own histogram has 1 ms resolution); null without any 2xx response.
  p50: number | null;
  p99: number | null;
  mean: number | null;
  failures: number; // non-2xx responses, errors and timeouts
  statuses: Record<string, number>; // how many of each non-2xx status, "error" and "timeout"
};

// autocannon ships no types; this is the part of its API used here.
type AutocannonOptions = {
  url: string;
  connections: number;
  duration: number;
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  requests?: { setupRequest: (request: { path: string; body?: string }) => { path: string; body?: string } }[];
};
type AutocannonResult = {
  duration: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
};
type Autocannon = (
  options: AutocannonOptions,
  done: (error: Error | null, result: AutocannonResult) => void,
) => EventEmitter;

const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

const spec = JSON.parse(process.argv[2] ?? "") as LoadSpec;
// autocannon builds each request just before sending it (each connection's first when it is created).
let next = spec.first ?? 0;

function options(duration: number): AutocannonOptions {
  const { paths, bodies } = spec;
  return {
    url: `${spec.url}${paths[0].replace("{k}", String(next))}`,
    connections: spec.connections,
    duration,
    method: spec.method ?? "GET",
    body: spec.body,
    headers: spec.headers,
    requests: [
      {
        setupRequest: (request) => {
          const k = next++;
          const path = paths[k % paths.length].replace("{k}", String(k));
          return { ...request, path, ...(bodies ? { body: bodies[k % bodies.length].replace("{k}", String(k)) } : {}) };
        },
      },
    ],
  };
}

/** One autocannon run; the latency of every 2xx response is kept, to the microsecond. */
function run(duration: number): Promise<{ result: AutocannonResult; latencies: number[] }> {
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const tracker = autocannon(options(duration), (error, result) =>
      error ? reject(error) : resolve({ result, latencies }),
    );
    tracker.on("response", (_client: unknown, status: number, _bytes: number, milliseconds: number) => {
      if (status >= 200 && status < 300) latencies.push(milliseconds);
    });
  });
}

function percentile(sorted: Float64Array, fraction: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

if (spec.warmup > 0) await run(spec.warmup);
const { result, latencies } = await run(spec.duration);
const sorted = Float64Array.from(latencies).sort();
const total = latencies.reduce((sum, value) => sum + value, 0);
const output: LoadResult = {
  requests: latencies.length,
  next,
  seconds: result.duration,
  rps: latencies.length / result.duration,
  p50: percentile(sorted, 0.5),
  p99: percentile(sorted, 0.99),
  mean: latencies.length ? total / latencies.length : null,
  failures: result.non2xx + result.errors + result.timeouts,
  statuses: Object.fromEntries(
    [
      ...Object.entries(result.statusCodeStats)
        .filter(([status]) => !status.startsWith("2"))
        .map(([status, { count }]) => [status, count] as const),
      ["error", result.errors] as const,
      ["timeout", result.timeouts] as const,
    ].filter(([, count]) => count > 0),
  ),
};
console.log(JSON.stringify(output));
