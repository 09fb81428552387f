// The production server: validates configuration, migrates, seeds an empty database, then serves on
// HOST:PORT. Requests under /v1 go straight to the route table's functions (lib/v1/router.ts), sign-in
// and sign-out to theirs (lib/admin/session-route.ts), and /metrics to its endpoint when METRICS_TOKEN is
// set (lib/metrics); everything else goes to Next. `npm start` runs it after building if needed; the
// tests run it directly.
import http from "node:http";
import { getRequestListener, RequestError } from "@hono/node-server";
import next from "next";
import { prepareAdminApp } from "@/lib/admin/start-up";
import { countActiveClientKeys } from "@/lib/auth/api-keys";
import { rekeyCategoryNames } from "@/lib/categories/store";
import { Refusal } from "@/lib/refusal";
import { errorResponse, toRefusal, withResponseHeaders } from "@/lib/http/api-route";
import { dispatchV1 } from "@/lib/v1/router";
import { answerWithClass } from "@/lib/http/response";
import { lightweightResponse } from "@/lib/http/lightweight-response";
import { dispatchSession, SESSION_PATH } from "@/lib/admin/session-route";
import { signInsBusy } from "@/lib/auth/sign-in-throttle";
import { config, ConfigError } from "@/lib/config";
import { db } from "@/lib/db/client";
import { isSqliteBusy } from "@/lib/db/errors";
import { migrate } from "@/lib/db/migrate";
import { addDemoPhotos } from "@/lib/demo-photos";
import { seedDemoCatalogue } from "@/lib/demo-seed";
import { endLiveStreams } from "@/lib/events/live";
import { markDraining } from "@/lib/health";
import { dispatchMetrics, isMetricsPath } from "@/lib/metrics/endpoint";
import { startMetrics } from "@/lib/metrics/registry";
import { stampForwarded } from "@/lib/http/forwarded";
import { onePerTurn } from "@/lib/http/one-per-turn";
import { runHousekeeping } from "@/lib/housekeeping";
import { log } from "@/lib/log";
import { flushCallCounts } from "@/lib/v1/call-counts";
import { startWebhookWorker, stopWebhookWorker } from "@/lib/webhooks/worker";

const SHUTDOWN_GRACE_MS = 8000;
const HOUSEKEEPING_INTERVAL_MS = 10 * 60 * 1000;

/** Sign-in requests waiting for their turn (lib/http/one-per-turn.ts) before more are refused at once. */
const MAX_WAITING_SIGN_INS = 1000;

/** Answers with an error at once, outside any route: its Error body and the headers every answer carries. */
function answerAtOnce(response: http.ServerResponse, error: Refusal, headers: Record<string, string> = {}): void {
  const answer = withResponseHeaders(errorResponse(error), crypto.randomUUID());
  void answer
    .text()
    .then((body) => response.writeHead(error.status, { ...Object.fromEntries(answer.headers), ...headers }).end(body));
}

function isV1(url: string | undefined): boolean {
  return url === "/v1" || /^\/v1[/?]/.test(url ?? "");
}

function isSession(url: string | undefined): boolean {
  return url === SESSION_PATH || url?.startsWith(`${SESSION_PATH}?`) === true;
}

/**
 * What to do when the logs' reader is gone: stdout or stderr answers EPIPE because whatever started the server (a
 * supervisor, a shell, a test) has ended. Unhandled, each failed write was reported by Next's error handler on
 * stderr, which failed again: a loop that spun a core and never got to SIGTERM. Now the first EPIPE stops the
 * server with a failure's exit code (gracefully once it serves), for a supervisor to restart it; later write errors
 * are dropped.
 */
let logsGone = (): void => process.exit(1);
let logsWentAway = false;
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (logsWentAway) return;
    if (error.code !== "EPIPE") throw error;
    logsWentAway = true;
    logsGone();
  });
}

/** How long start-up waits, in all, for another process's hold on the SQLite file to end. */
const STARTUP_BUSY_WAIT_MS = 30_000;

/**
 * Runs the start-up writes again while another process holds the SQLite file's write lock: a second instance
 * starting at once, or a tool. A statement waits only the short busy timeout (lib/db/client.ts) and then fails as
 * busy; at start-up nothing is being served yet, so waiting is better than exiting. Each piece of the work
 * is idempotent and runs in its own transaction, so a run cut short is simply run again. PostgreSQL waits on its
 * row locks and needs none of this; an error that is not a busy file stops the start as before.
 */
async function whileSqliteBusy<T>(provider: "sqlite" | "postgresql", work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + STARTUP_BUSY_WAIT_MS;
  for (let pause = 100; ; pause = Math.min(pause * 2, 2000)) {
    try {
      return await work();
    } catch (error) {
      if (provider !== "sqlite" || !isSqliteBusy(error) || Date.now() > deadline) throw error;
      log("info", "the database file is busy: start-up tries again", { inMs: pause });
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

async function main(): Promise<void> {
  const settings = config();
  const { database } = settings;
  startMetrics(); // when METRICS_TOKEN is set: the process metrics count from the start
  const metricsOn = settings.METRICS_TOKEN !== undefined;
  const applied = await migrate(database);
  if (applied.length) log("info", "migrations applied", { migrations: applied });
  let seeded = false;
  await whileSqliteBusy(database.provider, async () => {
    const rekeying = await rekeyCategoryNames();
    if (rekeying.rekeyed) log("info", "category name keys brought up to date", { categories: rekeying.rekeyed });
    for (const { category, sameNameAs } of rekeying.clashes)
      log("warn", "two categories have one name: rename one on the Categories page", { category, sameNameAs });

    if (settings.DEMO_SEED === "on") {
      const pets = await seedDemoCatalogue(db(), database.provider);
      if (pets) log("info", "demo catalogue seeded", { pets });
      seeded ||= pets > 0; // a retry after the seed committed finds it done, and must still add the photos
    }
    await prepareAdminApp(settings); // its API key; on loopback only, a demo staff account
  });
  // The demo's drawn photos, each its own upload: a machine where sharp cannot load (or a failure of one) leaves the
  // demo without pictures, never the server unstarted.
  if (seeded) {
    try {
      log("info", "demo photos added", { photos: await whileSqliteBusy(database.provider, () => addDemoPhotos()) });
    } catch (error) {
      log("warn", "the demo photos were not added", { error: String(error) });
    }
  }
  if ((await countActiveClientKeys()) === 0) {
    console.log("No API key for /v1 clients exists yet. Create one with:  npm run key -- create <name>");
  }

  // Expired idempotency records, counters of past windows and expired sessions, deleted in batches. A run
  // still going when the next is due (a huge backlog) is left to finish rather than joined by another.
  let housekeepingRunning = false;
  const housekeeping = async () => {
    if (housekeepingRunning) return;
    housekeepingRunning = true;
    try {
      const report = await runHousekeeping();
      if (Object.values(report).some((sweep) => sweep.rows > 0)) log("info", "housekeeping", report);
    } catch (error) {
      log("warn", "housekeeping failed", { error: String(error) });
    } finally {
      housekeepingRunning = false;
    }
  };
  void housekeeping();
  setInterval(() => void housekeeping(), HOUSEKEEPING_INTERVAL_MS).unref();

  answerWithClass(lightweightResponse());
  const app = next({ dev: false, dir: process.cwd(), hostname: settings.HOST, port: settings.PORT });
  await app.prepare();
  const handleNext = app.getRequestHandler();
  const listenerOptions: Parameters<typeof getRequestListener>[1] = {
    overrideGlobalObjects: false, // Next shares this process and expects the standard Request/Response
    // What the route wrapper could not answer itself: a request too malformed to become a Request (bad
    // Host, bad absolute target) is a 400; anything else is our fault, logged and answered 500.
    errorHandler: (error) => {
      const requestId = crypto.randomUUID();
      const malformed = error instanceof RequestError;
      const refusal = malformed
        ? new Refusal("invalid_path", { message: "The request target or Host header is malformed." })
        : toRefusal(error);
      log(malformed ? "warn" : "error", malformed ? "request refused" : "request failed", {
        requestId,
        status: refusal.status,
        code: refusal.code,
        error: String(error),
      });
      return withResponseHeaders(errorResponse(refusal), requestId);
    },
  };
  const handleV1 = getRequestListener((request) => dispatchV1(request), listenerOptions);
  const handleSession = getRequestListener((request) => dispatchSession(request), listenerOptions);
  const handleMetrics = getRequestListener((request) => dispatchMetrics(request), listenerOptions);
  const handlerOf = (url: string | undefined) => {
    if (isV1(url)) return handleV1;
    if (isSession(url)) return handleSession; // sign-in floods are refused without Next's pipeline
    // Without a token, /metrics is left to Next: the same 404 as any path that does not exist.
    if (metricsOn && isMetricsPath(url)) return handleMetrics;
    return handleNext;
  };

  const signInLane = onePerTurn(MAX_WAITING_SIGN_INS);
  let draining = false;
  // Node enforces headersTimeout and requestTimeout only when it sweeps its connections, every 30 s by
  // default, so a connection that never finishes its headers was held 30 s rather than 20; a sweep
  // every second keeps the deadlines below to the second, for a walk over the open connections.
  const server = http.createServer({ connectionsCheckingInterval: 1000 }, (request, response) => {
    stampForwarded(request); // from here on, the forwarded headers are this server's conclusions
    if (draining) {
      // Shutting down: requests already running finish; a new one on a kept-alive connection is refused.
      const refusal = new Refusal("service_unavailable", {
        message: "The server is shutting down; retry on another instance.",
        headers: { "Retry-After": "1" },
      });
      answerAtOnce(response, refusal, { Connection: "close" });
      return;
    }
    const handle = handlerOf(request.url);
    const run = () => {
      // A sign-in that waited in the lane while its client gave up (or its request timed out) has no one to answer.
      if (request.socket.destroyed) return;
      void (async () => handle(request, response))().catch((error: unknown) => {
        log("error", "unhandled request error", { path: request.url, error: String(error) });
        if (!response.headersSent) response.writeHead(500).end();
      });
    };
    // Sign-ins start one per turn of the event loop, so that a flood of them cannot run ahead of /v1 in bulk;
    // past MAX_WAITING_SIGN_INS waiting, one more is refused as the hash queue refuses: 429, try again in a second.
    if (handle !== handleSession) run();
    else if (!signInLane(run)) answerAtOnce(response, signInsBusy());
  });

  // A client that trickles its request, or opens a connection and sends nothing, cannot hold it for
  // Node's defaults (60 s for the headers, five minutes for the request). After an answer, an idle
  // kept-alive connection is closed after Node's keepAliveTimeout (5 s).
  server.headersTimeout = 20_000;
  server.requestTimeout = 30_000;

  startWebhookWorker(); // sends the webhook deliveries due, with every other instance on the database

  server.listen(settings.PORT, settings.HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : settings.PORT;
    const host = settings.HOST.includes(":") ? `[${settings.HOST}]` : settings.HOST;
    const where = database.provider === "sqlite" ? database.file : "PostgreSQL";
    console.log(`Animal Store listening on http://${host}:${port} (database: ${where})`);
  });

  // Finish the requests in flight, refuse new connections, and exit within the grace period.
  const shutdown = (signal: string, exitCode = 0) => {
    log("info", "shutting down", { signal });
    draining = true;
    markDraining();
    server.close(() => {
      // getPet's call counts held in memory are written before the database goes (lib/v1/call-counts.ts).
      // The deliveries being sent finish (each has its own 10 s limit); their leases cover an exit before that.
      void Promise.all([stopWebhookWorker(), flushCallCounts()])
        .catch((error: unknown) => log("warn", "call counts not written at shutdown", { error: String(error) }))
        .then(() => db().$disconnect())
        .finally(() => process.exit(exitCode));
    });
    server.closeIdleConnections();
    void stopWebhookWorker(); // no new claims from here on
    endLiveStreams(); // the admin app's live streams: each browser reconnects, to another instance or to this one anew
    // A request outliving the grace period (a long CSV export) must not cost the counts: the last ones are
    // written, for at most a second, before the exit.
    setTimeout(() => {
      void Promise.race([
        flushCallCounts().catch(() => {}),
        new Promise((resolve) => setTimeout(resolve, 1000)),
      ]).finally(() => process.exit(exitCode));
    }, SHUTDOWN_GRACE_MS - 1000).unref();
  };
  logsGone = () => shutdown("EPIPE on stdout or stderr: the logs' reader has gone", 1); // a failure: restart me
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  process.once("SIGINT", () => shutdown("SIGINT"));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(`Could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
