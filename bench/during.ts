// What a long write costs the server's other answers, run as its own process by bench/run.ts:
// `node --import tsx bench/during.ts '<DuringSpec JSON>'`. While the write runs (one request, such as an import's
// apply, or an autocannon load, such as 64 connections of creates), every `intervalMs` it sends one GET to each of
// `samples`, whether or not the last one was answered (open loop: a request's latency counts from the moment it
// was due, so a server that stops answering for 30 s shows 30 s, not one slow sample). Prints one JSON line: a
// DuringResult.
import type { EventEmitter } from "node:events";
import fs from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import { setTimeout as sleep } from "node:timers/promises";

export type DuringSpec = {
  url: string; // origin, e.g. http://127.0.0.1:4000
  samples: { label: string; path: string; headers?: Record<string, string> }[];
  intervalMs: number;
  action:
    | { kind: "request"; method: string; path: string; headers: Record<string, string>; bodyFile: string }
    | {
        kind: "load";
        method: string;
        path: string;
        headers: Record<string, string>;
        body: string;
        /**
         * Request k goes to paths[k % paths.length] with "{k}" replaced by k and sends bodies[k % bodies.length]
         * (as bench/load.ts does); without them, every request is `path` with `body`.
         */
        paths?: string[];
        bodies?: string[];
        connections: number;
        duration: number; // seconds
        timeoutSeconds: number; // autocannon's per-request timeout
      };
};

export type Latencies = { requests: number; p50: number | null; p99: number | null; max: number | null };

export type DuringResult = {
  /** How long the write took: the request's answer, or the load's run. */
  seconds: number;
  /** The request's status, or the load's non-2xx statuses, errors and timeouts. */
  statuses: Record<string, number>;
  /** The load's own answers (2xx), and its requests answered per second; null for a request. */
  load: (Latencies & { rps: number; failures: number }) | null;
  /** Each sample's answers while the write ran, and its failures (non-2xx, errors). */
  sampled: (Latencies & { label: string; failures: number })[];
};

const spec = JSON.parse(process.argv[2] ?? "") as DuringSpec;

function latencies(values: number[]): Latencies {
  const sorted = Float64Array.from(values).sort();
  const at = (fraction: number) =>
    sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] : null;
  return { requests: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.length ? sorted.at(-1)! : null };
}

function send(
  agent: http.Agent,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<number | "error"> {
  return new Promise((resolve) => {
    const request = http.request(new URL(path, spec.url), { method, agent, headers }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    request.on("error", () => resolve("error"));
    request.end(body);
  });
}

/** Samples every path every intervalMs until `stop` settles; each request's latency counts from when it was due. */
async function sample(stop: Promise<unknown>): Promise<DuringResult["sampled"]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  const found = spec.samples.map(() => ({ values: [] as number[], failures: 0 }));
  const pending: Promise<void>[] = [];
  let stopped = false;
  void stop.finally(() => (stopped = true));
  for (let due = performance.now(); !stopped; due += spec.intervalMs) {
    spec.samples.forEach(({ path, headers }, index) => {
      const at = due;
      pending.push(
        send(agent, "GET", path, headers).then((status) => {
          if (status === "error" || status < 200 || status >= 300) found[index].failures++;
          else found[index].values.push(performance.now() - at);
        }),
      );
    });
    await sleep(Math.max(0, due + spec.intervalMs - performance.now()));
  }
  await Promise.all(pending);
  agent.destroy();
  return spec.samples.map(({ label }, index) => ({
    label,
    ...latencies(found[index].values),
    failures: found[index].failures,
  }));
}

// autocannon ships no types; this is the part of its API used here.
type Autocannon = (
  options: Record<string, unknown>,
  done: (
    error: Error | null,
    result: {
      duration: number;
      non2xx: number;
      errors: number;
      timeouts: number;
      statusCodeStats: Record<string, { count: number }>;
    },
  ) => void,
) => EventEmitter;

/** autocannon's setupRequest for numbered requests: request k to paths[k % n], with bodies[k % m]. */
function cycling(paths: string[], bodies: string[] | undefined) {
  let k = 0;
  return (request: { path: string; body?: string }) => {
    const index = k++;
    const path = paths[index % paths.length].replace("{k}", String(index));
    return { ...request, path, ...(bodies && { body: bodies[index % bodies.length].replace("{k}", String(index)) }) };
  };
}

async function act(): Promise<Omit<DuringResult, "sampled">> {
  const { action } = spec;
  const started = performance.now();
  if (action.kind === "request") {
    const agent = new http.Agent({ keepAlive: false });
    const body = fs.readFileSync(action.bodyFile, "utf8");
    const status = await send(agent, action.method, action.path, action.headers, body);
    return { seconds: (performance.now() - started) / 1000, statuses: { [String(status)]: 1 }, load: null };
  }
  const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;
  const values: number[] = [];
  const result = await new Promise<Parameters<Parameters<Autocannon>[1]>[1]>((resolve, reject) => {
    const tracker = autocannon(
      {
        url: `${spec.url}${action.path}`,
        method: action.method,
        headers: action.headers,
        body: action.body,
        connections: action.connections,
        duration: action.duration,
        timeout: action.timeoutSeconds,
        ...(action.paths && { requests: [{ setupRequest: cycling(action.paths, action.bodies) }] }),
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    tracker.on("response", (_client: unknown, status: number, _bytes: number, milliseconds: number) => {
      if (status >= 200 && status < 300) values.push(milliseconds);
    });
  });
  const statuses = Object.fromEntries(
    [
      ...Object.entries(result.statusCodeStats)
        .filter(([status]) => !status.startsWith("2"))
        .map(([status, { count }]) => [status, count] as const),
      ["error", result.errors - result.timeouts] as const,
      ["timeout", result.timeouts] as const,
    ].filter(([, count]) => count > 0),
  );
  return {
    seconds: (performance.now() - started) / 1000,
    statuses,
    load: {
      ...latencies(values),
      rps: values.length / result.duration,
      failures: result.non2xx + result.errors,
    },
  };
}

const acting = act();
// The samples start once the write has begun, and stop when it ends.
const [done, sampled] = await Promise.all([acting, sleep(50).then(() => sample(acting))]);
const output: DuringResult = { ...done, sampled };
console.log(JSON.stringify(output));
