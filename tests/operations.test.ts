import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { call } from "@/scripts/harness/http";
import { createMigratedDatabase, startServer, type RunningServer, type TestDatabase } from "@/scripts/harness/servers";
import { createKey } from "@/scripts/harness/fixtures";

// What operators rely on: health and readiness, CORS, the API docs' assets, and a graceful stop on SIGTERM.

describe("operations", () => {
  let database: TestDatabase;
  let server: RunningServer;
  let key: string;

  before(async () => {
    database = await createMigratedDatabase("sqlite");
    key = await createKey(database.url);
    server = await startServer("custom", database.url, { CORS_ORIGINS: "https://shop.example, http://localhost:5173" });
  });

  after(async () => {
    await server?.stop();
    await database?.drop();
  });

  test("/healthz and /readyz answer without a key and without data", async () => {
    const health = await call(server.baseUrl, "GET", "/healthz");
    assert.equal(health.status, 200);
    assert.deepEqual(JSON.parse(health.text), { status: "ok" });
    const ready = await call(server.baseUrl, "GET", "/readyz");
    assert.equal(ready.status, 200);
    assert.deepEqual(JSON.parse(ready.text), { status: "ready" });
  });

  test("/docs/assets serves its own files and nothing else: every other name is a plain 404", async () => {
    for (const [file, type, start] of [["swagger-ui-bundle.js", "text/javascript; charset=utf-8", "/*!"]]) {
      const reply = await call(server.baseUrl, "GET", `/docs/assets/${file}`);
      assert.equal(reply.status, 200, file);
      assert.equal(reply.headers.get("content-type"), type);
      assert.ok(reply.text.startsWith(start), `${file} starts with ${start}: ${reply.text.slice(0, 40)}`);
    }
    // Names every object inherits, and names that are simply not there.
    const absent = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf"];
    // swagger-ui.css is bundled into the page's own stylesheet (app/docs/docs.css), so it is not served alone.
    const unused = ["swagger-ui.css", "swagger-ui.js", "index.html", "package.json", "%2E%2E%2Fpackage.json"];
    for (const file of [...absent, ...unused]) {
      const reply = await call(server.baseUrl, "GET", `/docs/assets/${file}`);
      assert.equal(reply.status, 404, `${file}: ${reply.text.slice(0, 200)}`);
      assert.equal(reply.text, "Not found", file);
      assert.match(reply.headers.get("content-type") ?? "", /^text\/plain/, file);
    }
    assert.equal((await call(server.baseUrl, "GET", "/healthz")).status, 200);
  });

  test("an allowed origin may read the API's headers; others get no CORS grant", async () => {
    const allowed = await call(server.baseUrl, "GET", "/v1/pets?limit=1", {
      key,
      headers: { Origin: "https://shop.example" },
    });
    assert.equal(allowed.headers.get("access-control-allow-origin"), "https://shop.example");
    for (const header of [
      "Link",
      "X-Request-Id",
      "Deprecation",
      "Sunset",
      "RateLimit",
      "RateLimit-Policy",
      "Retry-After",
    ]) {
      assert.match(allowed.headers.get("access-control-expose-headers") ?? "", new RegExp(`\\b${header}\\b`));
    }
    assert.match(allowed.headers.get("vary") ?? "", /Origin/);
    const refused = await call(server.baseUrl, "GET", "/v1/pets?limit=1", {
      key,
      headers: { Origin: "https://evil.example" },
    });
    assert.equal(refused.headers.get("access-control-allow-origin"), null);
    const errorReply = await call(server.baseUrl, "GET", "/v1/pets", { headers: { Origin: "https://shop.example" } });
    assert.equal(errorReply.status, 401);
    assert.equal(
      errorReply.headers.get("access-control-allow-origin"),
      "https://shop.example",
      "errors are readable cross-origin too",
    );
  });

  test("a preflight from an allowed origin names the path's methods and the headers a client may send", async () => {
    const preflight = await call(server.baseUrl, "OPTIONS", "/v1/pets", {
      headers: {
        Origin: "http://localhost:5173",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type",
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-allow-origin"), "http://localhost:5173");
    assert.equal(preflight.headers.get("access-control-allow-methods"), "GET, HEAD, POST, OPTIONS");
    assert.match(preflight.headers.get("access-control-allow-headers") ?? "", /Authorization/);
    assert.match(preflight.headers.get("access-control-allow-headers") ?? "", /Idempotency-Key/);
  });
});

describe("SIGTERM", () => {
  test("lets a request in flight finish, refuses new ones, and exits within 10 seconds", async () => {
    const database = await createMigratedDatabase("sqlite");
    try {
      const key = await createKey(database.url);
      const server = await startServer("custom", database.url);
      const url = new URL(server.baseUrl);

      // A create whose body is still arriving when the signal comes.
      const inFlight = new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.request(
          {
            host: url.hostname,
            port: url.port,
            method: "POST",
            path: "/v1/pets",
            agent: false,
            headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
          },
          (response) => {
            let body = "";
            response.on("data", (chunk) => (body += chunk));
            response.on("end", () => resolve({ status: response.statusCode!, body }));
          },
        );
        request.on("error", reject);
        request.write('{"name":"Draining",');
        setTimeout(() => request.end('"categoryId":1}'), 1500);
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const signalled = Date.now();
      const exited = new Promise<number | null>((resolve) => {
        const timer = setInterval(() => {
          try {
            process.kill(server.pid, 0);
          } catch {
            clearInterval(timer);
            resolve(Date.now() - signalled);
          }
        }, 50);
      });
      process.kill(server.pid, "SIGTERM");
      await new Promise((resolve) => setTimeout(resolve, 300));

      await assert.rejects(
        fetch(`${server.baseUrl}/v1/pets`, { headers: { Authorization: `Bearer ${key}` } }),
        "new connections are refused",
      );
      const finished = await inFlight;
      assert.equal(finished.status, 201, finished.body);
      assert.match(finished.body, /"name":"Draining"/);
      const elapsed = await exited;
      assert.ok(elapsed !== null && elapsed < 10_000, `exited after ${elapsed} ms`);
      await server.stop();
    } finally {
      await database.drop();
    }
  });
});

describe("losing the logs' reader", () => {
  test("a server whose stdout and stderr are gone stops, rather than spinning on EPIPE", async () => {
    const database = await createMigratedDatabase("sqlite");
    let server: RunningServer | undefined;
    try {
      server = await startServer("custom", database.url);
      server.closeOutput(); // the process that started it has gone
      const stopped = Date.now();
      // A refused request writes a log line, which meets the closed pipe.
      assert.equal((await fetch(`${server.baseUrl}/v1/pets`)).status, 401);
      const exited = await new Promise<number>((resolve, reject) => {
        const timer = setInterval(() => {
          try {
            process.kill(server!.pid, 0);
            if (Date.now() - stopped > 10_000) {
              clearInterval(timer);
              reject(new Error("the server is still running 10 s after its logs went"));
            }
          } catch {
            clearInterval(timer);
            resolve(Date.now() - stopped);
          }
        }, 50);
      });
      assert.ok(exited < 10_000, `exited after ${exited} ms`);
    } finally {
      killIfRunning(server?.pid); // SIGTERM cannot stop a server spinning on EPIPE
      await database.drop();
    }
  });
});

function killIfRunning(pid: number | undefined): void {
  try {
    if (pid) process.kill(pid, "SIGKILL");
  } catch {
    // it has exited
  }
}

describe("slow clients", () => {
  test("1,000 idle connections opened against the server do not stop normal requests", async (t) => {
    const database = await createMigratedDatabase("sqlite");
    const held: net.Socket[] = [];
    let server: RunningServer | undefined;
    try {
      const key = await createKey(database.url);
      server = await startServer("custom", database.url);
      const { baseUrl } = server;
      const { hostname, port } = new URL(baseUrl);
      const normalTraffic = async () => {
        const started = Date.now();
        for (let round = 0; round < 5; round += 1) {
          const listed = await call(baseUrl, "GET", "/v1/pets?limit=5", { key });
          assert.equal(listed.status, 200, listed.text);
          const created = await call(baseUrl, "POST", "/v1/pets", {
            key,
            body: { name: "Busy", categoryId: 1 },
          });
          assert.equal(created.status, 201, created.text);
          assert.equal((await call(baseUrl, "GET", "/sign-in")).status, 200);
          assert.equal((await call(baseUrl, "GET", "/healthz")).status, 200);
        }
        return Date.now() - started;
      };
      await normalTraffic(); // warm: the first render of a page loads its code
      const quiet = await normalTraffic();

      // A third send nothing, a third half a request line, a third a request line and half its headers;
      // then all of them stall.
      const stalls = ["", "GET /v1/pe", "POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bea"];
      const opened = Date.now();
      const closedAfter: number[] = [];
      await Promise.all(
        Array.from(
          { length: 1000 },
          (_, index) =>
            new Promise<void>((resolve, reject) => {
              const socket = net.connect({ host: hostname, port: Number(port) }, () => {
                const stall = stalls[index % stalls.length];
                if (stall) socket.write(stall);
                resolve();
              });
              socket.on("error", reject);
              socket.on("close", () => closedAfter.push(Date.now() - opened));
              socket.resume(); // read whatever the server answers before it hangs up
              held.push(socket);
            }),
        ),
      );
      assert.equal(closedAfter.length, 0, "every idle connection is still open");

      // Normal traffic while they are held: reads, a write, a page of the admin app.
      const busy = await normalTraffic();
      t.diagnostic(`20 normal requests took ${busy} ms while 1,000 idle connections were held (${quiet} ms before)`);
      assert.ok(busy < 5000, `20 normal requests took ${busy} ms`);
      assert.equal(closedAfter.length, 0, "the idle connections were still open during the requests");

      // The server hangs up on each once its headers are overdue (headersTimeout, 20 s), within a second
      // or two of the deadline (a loaded machine gets some slack): Node's own sweep came only at 30 s.
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${closedAfter.length} of 1,000 closed after 40 s`)), 40_000);
        const check = setInterval(() => {
          if (closedAfter.length < held.length) return;
          clearTimeout(timer);
          clearInterval(check);
          resolve();
        }, 100);
      });
      const dropped = Math.max(...closedAfter);
      t.diagnostic(
        `the server closed the 1,000 idle connections ${Math.min(...closedAfter)}–${dropped} ms after they opened`,
      );
      assert.ok(Math.min(...closedAfter) >= 19_000, "none before headersTimeout");
      assert.ok(dropped < 28_000, `the last one closed ${dropped} ms after it opened`);
    } finally {
      for (const socket of held) socket.destroy();
      await server?.stop();
      await database.drop();
    }
  });
});

describe("files on disk", () => {
  const modeOf = (target: string) => `0${(fs.statSync(target).mode & 0o777).toString(8)}`;
  const modes = (dir: string) => {
    const db = path.join(dir, "store.db");
    return Object.fromEntries(
      [dir, db, `${db}-wal`, `${db}-shm`].map((target) => [path.relative(path.dirname(dir), target), modeOf(target)]),
    );
  };
  const ownerOnly = {
    data: "0700",
    "data/store.db": "0600",
    "data/store.db-wal": "0600",
    "data/store.db-shm": "0600",
  };

  let parent: string;
  let dir: string;
  let url: string;
  let server: RunningServer | undefined;

  // A write, so that SQLite has made its -wal and -shm beside the database.
  async function startAndWrite(): Promise<RunningServer> {
    const running = await startServer("custom", url);
    const key = await createKey(url);
    const created = await call(running.baseUrl, "POST", "/v1/pets", { key, body: { name: "Private", categoryId: 1 } });
    assert.equal(created.status, 201, created.text);
    return running;
  }

  before(() => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), "animal-store-files-"));
    dir = path.join(parent, "data"); // not there yet: the first start makes it
    url = `file:${path.join(dir, "store.db")}`;
  });

  after(async () => {
    await server?.stop();
    fs.rmSync(parent, { recursive: true, force: true });
  });

  test("the first start: the data folder 0700; the database, its -wal and -shm 0600; no key on disk", async () => {
    server = await startAndWrite();
    assert.deepEqual(modes(dir), ownerOnly);
    // The admin app keeps no secret in a file any more (its key is named by id, in-process).
    assert.deepEqual(fs.readdirSync(dir).sort(), ["store.db", "store.db-shm", "store.db-wal"]);
  });

  test("a start tightens a folder and files that other users could read", async () => {
    // Killed, so the -wal and -shm stay, then loosened as an older version left them.
    process.kill(server!.pid, "SIGKILL");
    await server!.stop();
    for (const [target, mode] of Object.entries(ownerOnly))
      fs.chmodSync(path.join(parent, target), mode === "0700" ? 0o755 : 0o644);
    assert.equal(modeOf(dir), "0755");

    server = await startAndWrite();
    assert.deepEqual(modes(dir), ownerOnly);
    assert.match(
      server.logs(),
      /"message":"permissions tightened: other users could read it","path":"[^"]*\/data","from":"0755","to":"0700"/,
    );
    assert.match(server.logs(), /"path":"[^"]*\/data\/store\.db-wal","from":"0644","to":"0600"/);
  });
});
