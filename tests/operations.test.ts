import assert from "node:assert/strict";
import http from "node:http";
import { after, before, describe, test } from "node:test";
import { call } from "@/scripts/harness/http";
import {
  createKey,
  createTestDatabase,
  runScript,
  startServer,
  type RunningServer,
  type TestDatabase,
} from "@/scripts/harness/servers";

// What operators rely on: health and readiness, CORS, the API docs' assets, and a graceful stop on SIGTERM.

describe("operations", () => {
  let database: TestDatabase;
  let server: RunningServer;
  let key: string;

  before(async () => {
    database = await createTestDatabase("sqlite");
    await runScript("db-migrate.ts", [], database.url);
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
    for (const [file, type, start] of [
      ["swagger-ui-bundle.js", "text/javascript; charset=utf-8", "/*!"],
      ["swagger-ui.css", "text/css; charset=utf-8", ".swagger-ui"],
    ]) {
      const reply = await call(server.baseUrl, "GET", `/docs/assets/${file}`);
      assert.equal(reply.status, 200, file);
      assert.equal(reply.headers.get("content-type"), type);
      assert.ok(reply.text.startsWith(start), `${file} starts with ${start}: ${reply.text.slice(0, 40)}`);
    }
    // Names every object inherits, and names that are simply not there.
    const absent = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf"];
    for (const file of [...absent, "swagger-ui.js", "index.html", "package.json", "%2E%2E%2Fpackage.json"]) {
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
    const database = await createTestDatabase("sqlite");
    try {
      await runScript("db-migrate.ts", [], database.url);
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
