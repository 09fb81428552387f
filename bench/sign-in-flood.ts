// What a flood of bogus sign-ins from one address costs /v1, run as its own process by bench/run.ts:
// `node --import tsx bench/sign-in-flood.ts '<FloodSpec JSON>'`. autocannon loads `path` at `connections`
// three times: quietly for `duration` seconds, then for as long again (or until the flood ends) while
// `signIns` sign-ins with unknown emails come from one address (`fromAddress`), sent by `floodConnections` clients
// that each send the next as soon as the last is answered: as fast as the server lets a client; then
// quietly again. The control (`request: "control"`) sends as many unauthenticated /v1 lists instead. /v1's
// latency over the time the flood lasts is compared with the quiet phases around it, whose difference shows
// how much the machine itself drifted meanwhile. Prints one JSON line: a FloodResult.
import type { EventEmitter } from "node:events";
import http from "node:http";
import { createRequire } from "node:module";
import { setTimeout as sleep } from "node:timers/promises";

export type FloodSpec = {
  url: string; // origin, e.g. http://127.0.0.1:4000
  path: string;
  headers: Record<string, string>;
  connections: number;
  duration: number; // seconds of each phase
  signIns: number;
  floodConnections: number;
  /**
   * What the flood sends: bogus sign-ins, or (the control) as many `GET /v1/pets` without a key, the cheapest
   * answer the server gives (a 401 from the /v1 guard, no database): what any 200 requests in a burst cost.
   */
  request: "sign-in" | "control";
  /** The loopback address the sign-ins come from (127.0.0.2, …): a fresh one has its whole allowance. */
  fromAddress: string;
};

export type Latencies = { requests: number; p50: number | null; p99: number | null };

export type FloodResult = {
  quiet: Latencies;
  /** Quiet again, after the flood. */
  quietAfter: Latencies;
  /** The /v1 requests answered between the first sign-in sent and the last one answered. */
  flood: Latencies;
  /** The whole flood phase: at least `duration` seconds, with the flood inside it. */
  floodPhase: Latencies;
  signIns: { seconds: number; statuses: Record<string, number> };
  /** /v1 answers other than 2xx, errors and timeouts, in either phase. */
  failures: number;
};

// autocannon ships no types; this is the part of its API used here.
type Tracker = EventEmitter & { stop(): void };
type Autocannon = (
  options: { url: string; connections: number; duration: number; headers: Record<string, string> },
  done: (error: Error | null, result: { non2xx: number; errors: number; timeouts: number }) => void,
) => Tracker;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

const spec = JSON.parse(process.argv[2] ?? "") as FloodSpec;

type Sample = { at: number; milliseconds: number };

/**
 * Loads /v1 for the spec's duration, and on until `during` (run alongside) has finished. Every 2xx answer
 * is kept with the time it arrived.
 */
async function phase(during?: () => Promise<void>): Promise<{ samples: Sample[]; failures: number }> {
  const samples: Sample[] = [];
  let tracker: Tracker | undefined;
  const loaded = new Promise<{ failures: number }>((resolve, reject) => {
    tracker = autocannon(
      { url: `${spec.url}${spec.path}`, connections: spec.connections, duration: 3600, headers: spec.headers },
      (error, result) =>
        error ? reject(error) : resolve({ failures: result.non2xx + result.errors + result.timeouts }),
    );
    tracker.on("response", (_client: unknown, status: number, _bytes: number, milliseconds: number) => {
      if (status >= 200 && status < 300) samples.push({ at: performance.now(), milliseconds });
    });
  });
  await Promise.all([during?.(), sleep(spec.duration * 1000)]);
  tracker?.stop();
  const { failures } = await loaded;
  return { samples, failures };
}

function latencies(samples: Sample[]): Latencies {
  const sorted = Float64Array.from(samples, (sample) => sample.milliseconds).sort();
  const at = (fraction: number) =>
    sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] : null;
  return { requests: sorted.length, p50: at(0.5), p99: at(0.99) };
}

/**
 * One request of the flood from the spec's address (a socket bound to it: the server sees it as the client's);
 * its status, "429 busy" or "429 limit" for a refused sign-in.
 */
function send(agent: http.Agent, index: number): Promise<string> {
  const control = spec.request === "control";
  const url = new URL(control ? "/v1/pets" : "/admin/api/session", spec.url);
  const body = control
    ? undefined
    : JSON.stringify({ email: `bogus${index}@animal-store.example`, password: "not anyone's password" });
  const headers = body
    ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), Origin: spec.url }
    : {};
  return new Promise((resolve) => {
    const request = http.request(
      url,
      { method: control ? "GET" : "POST", agent, localAddress: spec.fromAddress, headers },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        // A 429 says which limit refused it: the hashes already running, or the address's allowance.
        const kind = () => (text.includes("at once") ? " busy" : " limit");
        response.on("end", () => resolve(`${response.statusCode}${response.statusCode === 429 ? kind() : ""}`));
      },
    );
    request.on("error", () => resolve("error"));
    request.end(body);
  });
}

/** The flood: bogus sign-ins (or the control's lists), each client sending its next as soon as the last is answered. */
async function flood(): Promise<{ start: number; end: number; statuses: Record<string, number> }> {
  const statuses: Record<string, number> = {};
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.floodConnections });
  let sent = 0;
  const client = async () => {
    while (sent < spec.signIns) {
      const status = await send(agent, sent++);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: spec.floodConnections }, client));
  agent.destroy();
  return { start, end: performance.now(), statuses };
}

const quiet = await phase();
let sent: Awaited<ReturnType<typeof flood>> | undefined;
const loud = await phase(async () => {
  await sleep(500); // /v1 is under load before the flood starts
  sent = await flood();
});
if (!sent) throw new Error("the flood did not run");
const quietAfter = await phase();
const { start, end } = sent;
const output: FloodResult = {
  quiet: latencies(quiet.samples),
  quietAfter: latencies(quietAfter.samples),
  flood: latencies(loud.samples.filter((sample) => sample.at >= start && sample.at <= end)),
  floodPhase: latencies(loud.samples),
  signIns: { seconds: (end - start) / 1000, statuses: sent.statuses },
  failures: quiet.failures + loud.failures + quietAfter.failures,
};
console.log(JSON.stringify(output));
