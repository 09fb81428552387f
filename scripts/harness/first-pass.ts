// Which node:test files the first pass of `npm test` runs when a second Node runs the whole suite after it
// (docs/decisions/020-first-pass-runs-what-the-node-decides.md). The second pass, under the Node production is advised
// to run, runs every file and the browser tests; the first, under the machine's Node, runs the files whose subject is
// what differs between Nodes: the HTTP server and its contract, the database drivers, signals and crashes, the
// command-line tools, scrypt and the sign-in lane, the proxy, and Next's own serving. TEST_FIRST_PASS=all runs every
// file there too.
import fs from "node:fs";
import path from "node:path";

/** Each file with why its outcome can depend on the Node that runs it. */
export const NODE_DEPENDENT_FILES: Record<string, string> = {
  "api.test.ts": "the whole /v1 contract over node:http, on better-sqlite3 and pg, through server.ts and next start",
  "database.test.ts": "opening and migrating both databases (the native better-sqlite3 build, the wasm schema engine)",
  "unit.test.ts": "the rules in-process: URL, Intl, crypto and BigInt as this Node has them",
  "messages.test.ts": "the staff words, built with this Node's Intl",
  "admin-client.test.ts": "the admin app's client code on this Node's fetch and streams",
  "docs.test.ts": "the /docs servers and the generated reference",
  "operations.test.ts": "SIGTERM's drain, health checks and CORS headers on node:http",
  "reliability.test.ts": "SIGKILL among writers, a PostgreSQL outage and two instances",
  "connection-loss.test.ts": "pg's connections terminated mid-request",
  "deployment.test.ts": "nginx in front of two instances: TLS, forwarded headers, the cookie",
  "proxy.test.ts": "the forwarded headers a proxy sends, as node:http parses them",
  "server-functions.test.ts": "Next's own page serving and its Server Functions guard",
  "cli.test.ts": "the command-line tools as npm runs them: argument parsing, exit codes, stderr",
  "sign-in-throttle.test.ts": "scrypt on the thread pool and the sign-in lane's turns of the event loop",
};

/** Whether the first pass runs `file` (a path under tests/). */
export function runsInFirstPass(file: string): boolean {
  return Object.hasOwn(NODE_DEPENDENT_FILES, path.basename(file));
}

/** The files named above that `dir` does not hold: a renamed file must not drop out of the first pass unnoticed. */
export function missingFirstPassFiles(dir: string): string[] {
  return Object.keys(NODE_DEPENDENT_FILES).filter((name) => !fs.existsSync(path.join(dir, name)));
}
