// Where a request's CPU goes, from a V8 CPU profile (node --cpu-prof): each sample's self time charged to a part of
// the request's path, by the script its function came from (the app's own code, compiled into dist/server.js, by
// the function's name), then divided by the requests the profiled run answered. Self time only: a part's figure is
// what its own code spent, not what it called. Run alone on a profile: `npx tsx bench/profile-summary.ts FILE N`.

/** The parts of a V8 .cpuprofile read here. */
export type CpuProfile = {
  startTime: number;
  nodes: { id: number; callFrame: { functionName: string; url: string } }[];
  samples: number[];
  timeDeltas: number[];
};

export type ProfileSummary = {
  requests: number;
  /** CPU a request, idle time left out. */
  busyUsPerRequest: number;
  parts: { part: string; us: number }[];
  top: { name: string; part: string; us: number }[];
};

/** The app's own functions by the part of a request they do, matched on their names (dist/server.js is one file). */
const APP_PARTS: [RegExp, string][] = [
  [/rateLimit|RateLimit|bucket/i, "rate limit (lib/rate-limit)"],
  [/key|Key|bearer|identify|admit/, "identification (lib/auth, lib/v1/guard)"],
  [/audit|Audit/, "audit record (lib/audit)"],
  [/event|Event|outbox|Outbox/, "events (lib/events)"],
  [/json|Json|JSON|stringify|int64/i, "serialisation (lib/http/json)"],
  [/record|metric|Metric|series|Series/, "metrics (lib/metrics)"],
  [/log|Log/, "logging (lib/log)"],
];

/** The part a function belongs to, from its script's URL (and, for the app's own code, its name). */
export function partOf(url: string, name: string): string {
  if (name === "(garbage collector)") return "garbage collection";
  if (name === "(program)" || name === "(root)") return "V8 and native code outside JavaScript";
  if (url.startsWith("wasm://")) return "Prisma query compiler (WebAssembly)";
  if (url.includes("@prisma/adapter-")) return "Prisma driver adapter";
  if (url.includes("@prisma/")) return "Prisma client (query interpreter)";
  if (url.includes("/better-sqlite3/")) return "SQLite (better-sqlite3)";
  if (url.includes("/node_modules/pg") || url.includes("/pg-protocol/")) return "PostgreSQL driver (pg)";
  if (url.includes("@hono/node-server")) return "Request/Response bridge (@hono/node-server)";
  if (url.includes("/zod/")) return "validation (zod)";
  if (url.includes("prom-client")) return "metrics (prom-client)";
  if (url.includes("lossless-json")) return "serialisation (lossless-json)";
  if (url.includes("/next/")) return "Next.js";
  if (/node:internal\/deps\/undici|node:internal\/(webstreams|url|abort)|node:url/.test(url))
    return "Web Request/Response, URL, streams (Node's undici)";
  if (
    /node:_http|node:http|node:net|node:internal\/(streams|stream_base|http|net|timers|js_stream)|node:stream/.test(url)
  )
    return "HTTP parse and sockets (node:http)";
  if (url.startsWith("node:")) return "other Node internals";
  if (url.includes("/dist/")) {
    for (const [pattern, part] of APP_PARTS) if (pattern.test(name)) return part;
    return "the app's own code, other";
  }
  if (url === "") return "native functions (built-ins and addons)";
  return "other libraries";
}

/**
 * Self time per part and per function, a request, from a profile of a run that answered `requests`. `window`: the
 * run's span, in ms from the profile's start (the process's start-up and shutdown left out); without it, all of it.
 */
export function summariseProfile(
  profile: CpuProfile,
  requests: number,
  window: { fromMs: number; toMs: number } = { fromMs: 0, toMs: Infinity },
  topCount = 15,
): ProfileSummary {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const parts = new Map<string, number>();
  const functions = new Map<string, { part: string; us: number }>();
  let busy = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    const frame = byNode.get(id);
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    const sinceStartMs = (at - profile.startTime) / 1000;
    if (sinceStartMs < window.fromMs || sinceStartMs > window.toMs) return;
    if (!frame || frame.functionName === "(idle)") return;
    busy += delta;
    const part = partOf(frame.url, frame.functionName);
    parts.set(part, (parts.get(part) ?? 0) + delta);
    const where = frame.url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\/dist\//, "dist/");
    const name = `${frame.functionName || "(anonymous)"} ${where}`;
    const known = functions.get(name) ?? { part, us: 0 };
    known.us += delta;
    functions.set(name, known);
  });
  const each = (us: number) => us / Math.max(1, requests);
  return {
    requests,
    busyUsPerRequest: each(busy),
    parts: [...parts].map(([part, us]) => ({ part, us: each(us) })).sort((a, b) => b.us - a.us),
    top: [...functions]
      .map(([name, { part, us }]) => ({ name, part, us: each(us) }))
      .sort((a, b) => b.us - a.us)
      .slice(0, topCount),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, requests] = process.argv.slice(2);
  const fs = await import("node:fs");
  const summary = summariseProfile(JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile, Number(requests));
  console.log(JSON.stringify(summary, null, 2));
}
