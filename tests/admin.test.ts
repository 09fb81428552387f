import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import Database from "better-sqlite3";
import pg from "pg";
import { MAX_JSON_DEPTH } from "@/lib/http/json";
import { asReply, call, rawCall, signInStaff, type Reply } from "@/scripts/harness/http";
import {
  activeAdminAppKeys,
  createTestDatabase,
  listKeys,
  runScript,
  startServer,
  testProviders,
  type RunningServer,
  type TestDatabase,
  createStaffWithTool,
  createMigratedDatabase,
} from "@/scripts/harness/servers";
import { createKey, createStaff } from "@/scripts/harness/fixtures";
import { databaseConfig } from "@/lib/config";
import { withSchemaEngine } from "@/lib/db/schema-engine";

// The admin app's server side over real HTTP against the production server (server.ts) on a fresh
// SQLite file: first start, the staff tool, sign-in, the session and Origin checks of every admin
// endpoint, the pass-through to /v1, sign-out, the admin key's life, db:reset-demo. Then the admin
// app's key on both databases: one live key whatever the restarts, instances and races, revocation,
// and the keys earlier versions left behind.

/** Anything shaped like an API key (`ask_` and 32 characters): none may reach a browser or a log. */
const KEY_SHAPE = /ask_[A-Za-z0-9_-]{32}/;

const DEMO_EMAIL = "demo@animal-store.example";
const COOKIE = "animal_store_session";

type Failure = Error & { code?: number; stderr?: string };

async function refused(work: Promise<unknown>): Promise<Failure> {
  try {
    await work;
  } catch (error) {
    return error as Failure;
  }
  assert.fail("expected the command to fail");
}

function assertAdminError(reply: Reply, status: number, code: string) {
  assert.equal(reply.status, status, reply.text);
  assert.match(reply.headers.get("content-type") ?? "", /^application\/json/);
  assert.equal(reply.body.code, code, reply.text);
  assert.equal(reply.body.status, BigInt(status));
  assert.ok(reply.headers.get("x-request-id"));
  assert.equal(reply.headers.get("cache-control"), "no-store");
}

const TOO_DEEP =
  "The request body is nested too deeply: " + `at most ${MAX_JSON_DEPTH} levels of arrays and objects are accepted.`;
const nestedArrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const nestedObjects = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);

function assertTooDeep(reply: Reply) {
  assertAdminError(reply, 400, "invalid_json");
  assert.equal(reply.body.message, TOO_DEEP);
  assert.deepEqual(reply.body.errors, [{ path: "", message: TOO_DEEP }]);
}

describe("the admin app over HTTP (server.ts, SQLite)", () => {
  let database: TestDatabase;
  let server: RunningServer;
  let demoPassword: string;
  let session: string;
  // A client's key, to compare what the admin endpoints answer with what /v1 answers a client.
  let clientKey: string;
  const origin = () => server.baseUrl;
  const admin = (
    method: string,
    target: string,
    options: { cookie?: string; origin?: string | null; body?: unknown; headers?: Record<string, string> } = {},
  ) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.cookie) headers.Cookie = `${COOKIE}=${options.cookie}`;
    const sentOrigin = options.origin === undefined ? (method === "GET" ? null : origin()) : options.origin;
    if (sentOrigin) headers.Origin ??= sentOrigin;
    return call(server.baseUrl, method, target, { headers, body: options.body });
  };
  const signIn = async (email: string, password: string, headers: Record<string, string> = {}) =>
    admin("POST", "/admin/api/session", { body: { email, password }, headers });
  /** An admin request whose body is sent in chunks of 8 KiB without a Content-Length. */
  const streamed = async (method: string, target: string, body: string, cookie?: string) => {
    const bytes = Buffer.from(body);
    const chunks = Array.from({ length: Math.ceil(bytes.length / 8192) }, (_, index) =>
      bytes.subarray(index * 8192, (index + 1) * 8192),
    );
    const headers: Record<string, string> = { Origin: origin(), "Content-Type": "application/json" };
    if (cookie) headers.Cookie = `${COOKIE}=${cookie}`;
    return asReply(await rawCall(server.baseUrl, { method, path: target, headers, chunks }));
  };
  const tokenOf = (reply: Reply) => new RegExp(`^${COOKIE}=([^;]*)`).exec(reply.headers.get("set-cookie") ?? "")?.[1];

  before(async () => {
    database = await createMigratedDatabase("sqlite");
    clientKey = await createKey(database.url, "comparing client");
    server = await startServer("custom", database.url, { DEMO_SEED: "on" });
    demoPassword = /password: (\S+)/.exec(server.logs())?.[1] ?? "";
  });

  after(async () => {
    await server?.stop();
    await database?.drop();
  });

  describe("first start", () => {
    test("prints the demo staff credentials, once, and they sign in", async () => {
      assert.match(server.logs(), new RegExp(`email: +${DEMO_EMAIL}`));
      assert.ok(demoPassword.length >= 12);
      const reply = await signIn(DEMO_EMAIL, demoPassword);
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.text, `{"email":"${DEMO_EMAIL}"}`);
      session = tokenOf(reply)!;
      assert.match(session, /^[A-Za-z0-9_-]{43}$/);
    });

    test("creates the admin app's key in the database, marked in the listing, its secret kept nowhere", async () => {
      const keys = await listKeys(database.url);
      const [adminApp] = await activeAdminAppKeys(database.url);
      assert.deepEqual(
        keys.map((key) => [key.name, key.for, key.state]),
        [
          ["comparing client", "clients", "active"],
          ["admin app", "admin app", "active"],
        ],
      );
      assert.match(adminApp.prefix, /^ask_[A-Za-z0-9_-]{8}$/);
      assert.equal(
        (server.logs().match(/"admin app API key created"/g) ?? []).length,
        1,
        "created once, and the log says so",
      );
      assert.doesNotMatch(server.logs(), KEY_SHAPE, "no key is ever logged");
      // Nothing is written beside the database: the secret was forgotten the moment the row was made.
      const files = fs.readdirSync(path.dirname(database.url.slice("file:".length)));
      assert.deepEqual(
        files.filter((name) => !/^test\.db(-wal|-shm)?$/.test(name)),
        [],
      );
    });
  });

  describe("without a session", () => {
    test("every admin data endpoint answers 401 JSON", async () => {
      for (const cookie of [undefined, "garbage", "A".repeat(43)]) {
        assertAdminError(await admin("GET", "/admin/api/pets", { cookie }), 401, "session_required");
        assertAdminError(
          await admin("GET", "/admin/api/pets?status=sold&limit=5", { cookie }),
          401,
          "session_required",
        );
        assertAdminError(
          await admin("POST", "/admin/api/pets", { cookie, body: { name: "Sneaky", categoryId: 1 } }),
          401,
          "session_required",
        );
      }
    });

    test("every admin page redirects to /sign-in, which returns to it afterwards", async () => {
      for (const target of ["/admin", "/admin?status=sold&limit=50"]) {
        const reply = await call(server.baseUrl, "GET", target, { headers: { Cookie: `${COOKIE}=garbage` } });
        assert.equal(reply.status, 307, target);
        assert.equal(reply.headers.get("location"), `/sign-in?next=${encodeURIComponent(target)}`);
      }
    });

    test("a wrong password and an unknown email get the same answer", async () => {
      const wrong = await signIn(DEMO_EMAIL, "not the password");
      const unknown = await signIn("nobody@animal-store.example", demoPassword);
      assertAdminError(wrong, 401, "invalid_credentials");
      assert.equal(unknown.text, wrong.text);
      assert.equal(unknown.headers.get("set-cookie"), null);
    });

    test("a malformed sign-in body is a 400 naming the member", async () => {
      const reply = await admin("POST", "/admin/api/session", { body: { email: DEMO_EMAIL } });
      assertAdminError(reply, 400, "invalid_body");
      assert.deepEqual(reply.body.errors, [{ path: "password", message: "password is required" }]);
    });
  });

  describe("nesting depth of sign-in bodies", () => {
    test("100,000 levels streamed are a 400 naming the limit, before any parsing; the server serves on", async () => {
      for (const body of [nestedArrays(100_000), nestedObjects(100_000)]) {
        assertTooDeep(await streamed("POST", "/admin/api/session", body));
        assert.equal((await call(server.baseUrl, "GET", "/healthz")).status, 200);
      }
      // The deepest that fit in 16 KiB with a declared length.
      for (const body of ["[".repeat(16 * 1024), '{"a":'.repeat(3000)]) {
        assertTooDeep(await admin("POST", "/admin/api/session", { body }));
      }
      assert.equal((await signIn(DEMO_EMAIL, demoPassword)).status, 200, "sign-in still works");
    });

    test(`${MAX_JSON_DEPTH} levels are parsed and validated, ${MAX_JSON_DEPTH + 1} refused unparsed`, async () => {
      const signInWith = (depth: number) =>
        admin("POST", "/admin/api/session", {
          body: `{"email":${nestedArrays(depth - 1)},"password":"${demoPassword}"}`,
        });
      const validated = await signInWith(MAX_JSON_DEPTH);
      assertAdminError(validated, 400, "invalid_body");
      assert.deepEqual(
        validated.body.errors.map((error: { path: string }) => error.path),
        ["email"],
      );
      assertTooDeep(await signInWith(MAX_JSON_DEPTH + 1));
    });
  });

  describe("Origin", () => {
    test("sign-in from another origin, or without one, is a 403 before the password is looked at", async () => {
      for (const sent of [null, "http://evil.example", server.baseUrl.replace("127.0.0.1", "localhost"), "null"]) {
        const reply = await admin("POST", "/admin/api/session", {
          origin: sent,
          body: { email: DEMO_EMAIL, password: demoPassword },
        });
        assertAdminError(reply, 403, "cross_origin");
        assert.equal(reply.headers.get("set-cookie"), null);
      }
    });

    test("a write with a valid session from another origin is a 403 and creates nothing", async () => {
      const before = await call(server.baseUrl, "GET", "/v1/pets?limit=100&status=pending", { key: clientKey });
      for (const sent of [null, "http://evil.example", "https://127.0.0.1"]) {
        assertAdminError(
          await admin("POST", "/admin/api/pets", {
            cookie: session,
            origin: sent,
            body: { name: "Forged", categoryId: 1, status: "pending" },
          }),
          403,
          "cross_origin",
        );
        assertAdminError(
          await admin("DELETE", "/admin/api/session", { cookie: session, origin: sent }),
          403,
          "cross_origin",
        );
      }
      const afterwards = await call(server.baseUrl, "GET", "/v1/pets?limit=100&status=pending", { key: clientKey });
      assert.equal(afterwards.text, before.text);
    });
  });

  describe("with a session", () => {
    test(
      "the cookie is httpOnly, SameSite=Lax and scoped to /admin over plain HTTP; " +
        "a client's own X-Forwarded-Proto changes nothing (Secure under HTTPS: tests/proxy.test.ts)",
      async () => {
        const plain = await signIn(DEMO_EMAIL, demoPassword);
        assert.match(
          plain.headers.get("set-cookie")!,
          new RegExp(`^${COOKIE}=[A-Za-z0-9_-]{43}; Path=/admin; HttpOnly; SameSite=Lax; Max-Age=43200$`),
        );
        // No TRUSTED_PROXIES: the header is the client's claim, so the browser's origin stays http://…
        const host = new URL(server.baseUrl).host;
        const claimed = await signIn(DEMO_EMAIL, demoPassword, {
          "X-Forwarded-Proto": "https",
          Origin: `https://${host}`,
        });
        assertAdminError(claimed, 403, "cross_origin");
        const ignored = await signIn(DEMO_EMAIL, demoPassword, { "X-Forwarded-Proto": "https" });
        assert.equal(ignored.status, 200, ignored.text);
        assert.match(ignored.headers.get("set-cookie")!, new RegExp(`^${COOKIE}=.*; Path=/admin; .*Max-Age=43200$`));
      },
    );

    test("GET /admin/api/pets answers exactly what /v1 answers, with the next cursor", async () => {
      for (const query of ["limit=5", "limit=3&status=sold", "limit=100"]) {
        const viaAdmin = await admin("GET", `/admin/api/pets?${query}`, { cookie: session });
        const viaV1 = await call(server.baseUrl, "GET", `/v1/pets?${query}`, { key: clientKey });
        assert.equal(viaAdmin.status, 200);
        assert.equal(viaAdmin.text, viaV1.text, query);
        const link = viaV1.headers.get("link");
        assert.equal(
          viaAdmin.headers.get("x-next-cursor"),
          link ? new URL(/<([^>]+)>/.exec(link)![1], server.baseUrl).searchParams.get("cursor") : null,
        );
        assert.equal(viaAdmin.headers.get("link"), null);
      }
      const next = await admin("GET", "/admin/api/pets?limit=5", { cookie: session });
      const page2 = await admin("GET", `/admin/api/pets?limit=5&cursor=${next.headers.get("x-next-cursor")}`, {
        cookie: session,
      });
      assert.equal(page2.body[0].id, next.body[4].id + 1n);
    });

    test("a refused query carries /v1's own error and the request id", async () => {
      for (const query of ["limit=0", "status=lost", "cursor=garbage", "stauts=sold", "limit=5&limit=6"]) {
        const viaAdmin = await admin("GET", `/admin/api/pets?${query}`, {
          cookie: session,
          headers: { "X-Request-Id": "admin-test-1" },
        });
        const viaV1 = await call(server.baseUrl, "GET", `/v1/pets?${query}`, { key: clientKey });
        assert.equal(viaAdmin.status, 400);
        assert.equal(viaAdmin.text, viaV1.text, query);
        assert.equal(viaAdmin.headers.get("x-request-id"), "admin-test-1");
      }
    });

    test("POST /admin/api/pets creates through /v1: same body, same refusals", async () => {
      const created = await admin("POST", "/admin/api/pets", {
        cookie: session,
        body: '{"name":"Admin Rex","categoryId":9223372036854775807,"status":"pending"}',
      });
      assert.equal(created.status, 201, created.text);
      assert.equal(
        created.text,
        `{"id":${created.body.id},"name":"Admin Rex","categoryId":9223372036854775807,"status":"pending"}`,
      );
      assert.equal(
        (await call(server.baseUrl, "GET", `/v1/pets/${created.body.id}`, { key: clientKey })).text,
        created.text,
      );

      const cases: [unknown, string, number, string][] = [
        ['{"name":"","categoryId":9223372036854775808}', "application/json", 400, "invalid_body"],
        ['{"name":"Rex","categoryId":1,"id":7}', "application/json", 400, "invalid_body"],
        ["{not json", "application/json", 400, "invalid_json"],
        ['{"name":"Rex","categoryId":1}', "text/plain", 415, "unsupported_media_type"],
        [JSON.stringify({ name: "x".repeat(17 * 1024), categoryId: 1 }), "application/json", 413, "payload_too_large"],
      ];
      for (const [body, type, status, code] of cases) {
        const viaAdmin = await admin("POST", "/admin/api/pets", {
          cookie: session,
          body,
          headers: { "Content-Type": type },
        });
        const viaV1 = await call(server.baseUrl, "POST", "/v1/pets", {
          key: clientKey,
          body,
          headers: { "Content-Type": type },
        });
        assertAdminError(viaAdmin, status, code);
        assert.equal(viaAdmin.text, viaV1.text);
      }
    });

    test("POST and PATCH /admin/api/pets refuse bodies nested past the limit as /v1 does", async () => {
      const created = await admin("POST", "/admin/api/pets", {
        cookie: session,
        body: { name: "Shallow", categoryId: 1 },
      });
      assert.equal(created.status, 201, created.text);
      for (const [method, target] of [
        ["POST", "/admin/api/pets"],
        ["PATCH", `/admin/api/pets/${created.body.id}`],
      ]) {
        for (const body of [nestedArrays(100_000), nestedObjects(100_000)]) {
          assertTooDeep(await streamed(method, target, body, session));
        }
        assertTooDeep(await admin(method, target, { cookie: session, body: "[".repeat(16 * 1024) }));
      }
      const pet = await call(server.baseUrl, "GET", `/v1/pets/${created.body.id}`, { key: clientKey });
      assert.equal(pet.text, created.text, "the pet is unchanged");
    });

    test("/v1 knows the staff member behind a forwarded request, and only then", async () => {
      await admin("POST", "/admin/api/pets", {
        cookie: session,
        body: '{"name":""}',
        headers: { "X-Request-Id": "admin-acting-staff" },
      });
      await call(server.baseUrl, "POST", "/v1/pets", {
        key: clientKey,
        body: '{"name":""}',
        headers: { "X-Request-Id": "v1-no-staff", "X-Staff-Id": "1" },
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const lines = server
        .logs()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line));
      const forwarded = lines.find(
        (line) => line.requestId === "admin-acting-staff" && line.message === "request refused",
      );
      const direct = lines.find((line) => line.requestId === "v1-no-staff");
      assert.equal(forwarded?.staffId, 1, "the refusal /v1 logged names the signed-in staff member");
      assert.ok(direct && !("staffId" in direct), "a direct /v1 call names no staff member, whatever its headers say");
    });

    test("no admin response carries anything shaped like an API key", async () => {
      const replies = [
        await admin("GET", "/admin/api/pets?limit=100", { cookie: session }),
        await admin("GET", "/admin/api/pets?limit=0", { cookie: session }),
        await admin("POST", "/admin/api/pets", { cookie: session, body: { name: "Keyless", categoryId: 1 } }),
        await admin("POST", "/admin/api/pets", { cookie: session, body: { name: "" } }),
        await call(server.baseUrl, "GET", "/admin", { headers: { Cookie: `${COOKIE}=${session}` } }),
        await signIn(DEMO_EMAIL, demoPassword),
      ];
      for (const reply of replies) {
        assert.doesNotMatch(reply.text, KEY_SHAPE, reply.text.slice(0, 80));
        assert.ok(![...reply.headers.values()].some((value) => KEY_SHAPE.test(value)));
      }
    });
  });

  describe("signing out", () => {
    test("deletes the session on the server: the same cookie is refused from then on", async () => {
      const token = tokenOf(await signIn(DEMO_EMAIL, demoPassword))!;
      assert.equal((await admin("GET", "/admin/api/pets", { cookie: token })).status, 200);
      const out = await admin("DELETE", "/admin/api/session", { cookie: token });
      assert.equal(out.status, 204);
      assert.match(
        out.headers.get("set-cookie")!,
        new RegExp(`^${COOKIE}=; Path=/admin; HttpOnly; SameSite=Lax; Max-Age=0`),
      );
      assertAdminError(await admin("GET", "/admin/api/pets", { cookie: token }), 401, "session_required");
      assertAdminError(
        await admin("POST", "/admin/api/pets", { cookie: token, body: { name: "Late", categoryId: 1 } }),
        401,
        "session_required",
      );
      assert.equal(
        (await call(server.baseUrl, "GET", "/admin", { headers: { Cookie: `${COOKIE}=${token}` } })).status,
        307,
      );
      assert.equal((await admin("GET", "/admin/api/pets", { cookie: session })).status, 200, "other sessions live on");
    });
  });

  describe("the admin key's life", () => {
    test("revoking the admin app's key: the very next request, a create too, works with a new one", async () => {
      const [old] = await activeAdminAppKeys(database.url);
      assert.match(
        await runScript("key.ts", ["revoke", old.prefix], database.url),
        /it was the admin app's: its next request uses a new one/,
      );
      assert.equal((await admin("GET", "/admin/api/pets", { cookie: session })).status, 200);
      const [replacement] = await activeAdminAppKeys(database.url);
      assert.notEqual(replacement.id, old.id);
      // A request with a body is sent again too: /v1 refuses a revoked key before reading it.
      await runScript("key.ts", ["revoke", String(replacement.id)], database.url);
      const created = await admin("POST", "/admin/api/pets", {
        cookie: session,
        body: { name: "After Revocation", categoryId: 4 },
      });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.name, "After Revocation");
      const keys = await listKeys(database.url);
      assert.deepEqual(
        keys.filter((key) => key.for === "admin app").map((key) => [key.id, key.state.split(" ")[0]]),
        [
          [old.id, "revoked"],
          [replacement.id, "revoked"],
          [(await activeAdminAppKeys(database.url))[0].id, "active"],
        ],
      );
    });

    test("a restart reuses the admin app's key and prints no credentials again", async () => {
      const [key] = await activeAdminAppKeys(database.url);
      await server.stop();
      server = await startServer("custom", database.url, { DEMO_SEED: "on" });
      assert.doesNotMatch(server.logs(), /password:/);
      assert.doesNotMatch(server.logs(), /admin app API key (created|revoked)/);
      assert.deepEqual(await activeAdminAppKeys(database.url), [key]);
      assert.equal(
        (await admin("GET", "/admin/api/pets", { cookie: session })).status,
        200,
        "sessions survive a restart",
      );
    });
  });

  describe("npm run db:reset-demo", () => {
    test("restores the demo catalogue and keeps keys, staff and sessions", async () => {
      const keysBefore = await runScript("key.ts", ["list"], database.url);
      const output = await runScript("db-reset-demo.ts", [], database.url);
      assert.match(output, /34 demo pets added/);
      const pets = await call(server.baseUrl, "GET", "/v1/pets?limit=100", { key: clientKey });
      assert.equal(pets.body.length, 34);
      assert.ok(!pets.text.includes("Admin Rex"));
      assert.equal(await runScript("key.ts", ["list"], database.url), keysBefore);
      assert.equal((await admin("GET", "/admin/api/pets", { cookie: session })).status, 200);
    });
  });
});

describe("ADMIN_API_KEY", () => {
  test("a key this database does not know stops the app with one line", async () => {
    const database = await createTestDatabase("sqlite");
    try {
      const failure = await refused(startServer("custom", database.url, { ADMIN_API_KEY: `ask_${"A".repeat(32)}` }));
      const lines = failure.message.split("\n").filter((line) => line.includes("ADMIN_API_KEY"));
      assert.equal(lines.length, 1, failure.message);
      assert.match(lines[0], /^Invalid configuration: ADMIN_API_KEY is not an active API key/);
      assert.doesNotMatch(failure.message, /\n\s+at /, "no stack trace");
    } finally {
      await database.drop();
    }
  });

  test("a valid one becomes the admin app's key, replacing the one the app made; never seen by a browser", async () => {
    const database = await createMigratedDatabase("sqlite");
    let server: RunningServer | undefined;
    try {
      await createStaff(database.url, "ops@animal-store.example", "a long enough password");
      server = await startServer("custom", database.url);
      const [made] = await activeAdminAppKeys(database.url);
      await server.stop();

      const key = await createKey(database.url, "configured admin key");
      server = await startServer("custom", database.url, { ADMIN_API_KEY: key });
      assert.match(server.logs(), /"admin app API key revoked: ADMIN_API_KEY replaces it"/);
      assert.deepEqual(
        (await listKeys(database.url)).map((listed) => [
          listed.id,
          listed.name,
          listed.for,
          listed.state.split(" ")[0],
        ]),
        [
          [made.id, "admin app", "admin app", "revoked"],
          [made.id + 1, "configured admin key", "admin app", "active"],
        ],
      );
      assert.ok(!fs.existsSync(path.join(path.dirname(database.url.slice(5)), "admin-api-key")), "no key file");

      const cookie = await signInStaff(server.baseUrl, "ops@animal-store.example", "a long enough password");
      const admin = (method: string, target: string, body?: unknown) =>
        call(server!.baseUrl, method, target, { headers: { Cookie: cookie, Origin: server!.baseUrl }, body });
      const replies = [
        await admin("GET", "/admin/api/pets?limit=100"),
        await admin("GET", "/admin/api/pets?limit=0"),
        await admin("POST", "/admin/api/pets", { name: "Keyless", categoryId: 1 }),
        await admin("POST", "/admin/api/pets", { name: "" }),
        await call(server.baseUrl, "GET", "/admin", { headers: { Cookie: cookie } }),
      ];
      assert.deepEqual(
        replies.map((reply) => reply.status),
        [200, 400, 201, 400, 200],
      );
      for (const reply of replies) {
        assert.ok(!reply.text.includes(key.slice(4)), reply.text.slice(0, 80));
        assert.ok(![...reply.headers.values()].some((value) => value.includes(key.slice(4))));
      }
      assert.ok(!server.logs().includes(key.slice(4)), "the key is never logged");
      assert.equal((await call(server.baseUrl, "GET", "/v1/pets", { key })).status, 200, "still a key for /v1");

      // Revoked while the app runs: the admin app says so and makes no key of its own in its place.
      await runScript("key.ts", ["revoke", key.slice(0, 12)], database.url);
      for (let attempt = 0; attempt < 2; attempt++)
        assertAdminError(await admin("GET", "/admin/api/pets"), 503, "admin_key_refused");
      assert.deepEqual(await activeAdminAppKeys(database.url), []);
      assert.match(server.logs(), /"admin app API key unusable".*ADMIN_API_KEY is not an active API key/);

      // Unset, the app makes its own again: one key.
      await server.stop();
      server = await startServer("custom", database.url);
      assert.equal((await admin("GET", "/admin/api/pets")).status, 200);
      assert.deepEqual(
        (await activeAdminAppKeys(database.url)).map((listed) => listed.name),
        ["admin app"],
      );
    } finally {
      await server?.stop();
      await database.drop();
    }
  });
});

const providers = await testProviders();

/** Applies the checked-in migrations up to `last` (included): a database as an earlier version left it. */
async function migrateThrough(url: string, last: string): Promise<void> {
  const database = databaseConfig(url);
  const baseDir = path.resolve("prisma", database.provider, "migrations");
  const read = (...parts: string[]) => fs.readFileSync(path.join(baseDir, ...parts), "utf8");
  const names = fs
    .readdirSync(baseDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name <= last)
    .map((entry) => entry.name)
    .sort();
  await withSchemaEngine(database, (engine) =>
    engine.applyMigrations({
      migrationsList: {
        baseDir,
        shadowDbInitScript: "",
        lockfile: { path: "migration_lock.toml", content: read("migration_lock.toml") },
        migrationDirectories: names.map((name) => ({
          path: name,
          migrationFile: { path: "migration.sql", content: { tag: "ok" as const, value: read(name, "migration.sql") } },
        })),
      },
      filters: { externalTables: [], externalEnums: [] },
    }),
  );
}

/** Runs SQL on the database directly, past the app and its tools. */
async function execute(database: TestDatabase, sql: string): Promise<void> {
  if (database.provider === "sqlite") {
    const sqlite = new Database(database.url.slice("file:".length));
    try {
      sqlite.exec(sql);
    } finally {
      sqlite.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Where versions before 0006 kept the key they made for the admin app. */
function earlierKeyFile(database: TestDatabase): string {
  if (database.provider === "sqlite")
    return path.join(path.dirname(database.url.slice("file:".length)), "admin-api-key");
  const { host, pathname } = new URL(database.url);
  return path.resolve("data", `admin-api-key.postgresql.${`${host}${pathname}`.replace(/[^A-Za-z0-9._-]+/g, "_")}`);
}

for (const provider of providers) {
  describe(`the admin app's key on ${provider}`, () => {
    test("restarts, and instances that share nothing but the database, use one key and write nothing", async () => {
      const database = await createTestDatabase(provider);
      try {
        // Nothing of the key is kept on an instance's disk, so a new host or container starting is
        // exactly a restart: the database alone says which key is the admin app's.
        const seen: number[] = [];
        for (let start = 0; start < 3; start++) {
          const server = await startServer("custom", database.url);
          await server.stop();
          seen.push(...(await activeAdminAppKeys(database.url)).map((key) => key.id));
          assert.ok(!fs.existsSync(earlierKeyFile(database)), "no key file");
        }
        assert.deepEqual(seen, [seen[0], seen[0], seen[0]]);
        assert.equal((await listKeys(database.url)).length, 1, "no other key, live or revoked, was made");
        if (provider === "sqlite") {
          const files = fs.readdirSync(path.dirname(database.url.slice("file:".length)));
          assert.deepEqual(
            files.filter((name) => !/^test\.db(-wal|-shm)?$/.test(name)),
            [],
          );
        }
      } finally {
        await database.drop();
      }
    });

    test("instances starting together make one key; revoked, each finds or makes the one next key", async () => {
      const database = await createMigratedDatabase(provider);
      const servers: RunningServer[] = [];
      try {
        await createStaff(database.url, "ana@animal-store.example", "a long enough password");
        const starting = [0, 1, 2].map(() => startServer("custom", database.url));
        const started = await Promise.allSettled(starting);
        for (const result of started) if (result.status === "fulfilled") servers.push(result.value);
        assert.equal(servers.length, 3, String(started.find((result) => result.status === "rejected")?.reason));
        const made = servers.filter((server) => server.logs().includes('"admin app API key created"'));
        assert.equal(made.length, 1, "one instance made the key, the others found it");
        const [first] = await activeAdminAppKeys(database.url);
        assert.equal((await listKeys(database.url)).length, 1);

        const cookie = await signInStaff(servers[0].baseUrl, "ana@animal-store.example", "a long enough password");
        const browse = (server: RunningServer) =>
          call(server.baseUrl, "GET", "/admin/api/pets?limit=1", { headers: { Cookie: cookie } });
        for (const server of servers) assert.equal((await browse(server)).status, 200);

        // One instance after another: the first makes the next key, the others find it.
        await runScript("key.ts", ["revoke", String(first.id)], database.url);
        for (const server of servers) assert.equal((await browse(server)).status, 200);
        const second = await activeAdminAppKeys(database.url);
        assert.equal(second.length, 1);
        assert.notEqual(second[0].id, first.id);

        // All at once: the unique index lets one instance make the next key, the others find it.
        await runScript("key.ts", ["revoke", String(second[0].id)], database.url);
        const replies = await Promise.all(
          servers.flatMap((server) => [browse(server), browse(server), browse(server)]),
        );
        assert.deepEqual(
          replies.map((reply) => reply.status),
          Array(9).fill(200),
        );
        const third = await activeAdminAppKeys(database.url);
        assert.equal(third.length, 1);
        assert.ok(![first.id, second[0].id].includes(third[0].id));
        assert.equal((await listKeys(database.url)).length, 3, "no key was made and thrown away");
      } finally {
        await Promise.all(servers.map((server) => server.stop()));
        await database.drop();
      }
    });

    test("the 0006 migration revokes the keys earlier versions made per host; the app makes its one", async () => {
      const database = await createTestDatabase(provider);
      let server: RunningServer | undefined;
      const keyFile = earlierKeyFile(database);
      try {
        await migrateThrough(database.url, "0005_pet_name_statistics");
        const created = provider === "sqlite" ? "'2026-01-01T00:00:00.000+00:00'" : "'2026-01-01 00:00:00'";
        await execute(
          database,
          `INSERT INTO api_keys (name, prefix, hash, created_at) VALUES
             ('admin app (host-a)', 'ask_legacyAA', 'legacy-a', ${created}),
             ('admin app (host-b)', 'ask_legacyBB', 'legacy-b', ${created}),
             ('admin app', 'ask_clientAA', 'client-a', ${created}),
             ('reader', 'ask_clientBB', 'client-b', ${created})`,
        );
        fs.mkdirSync(path.dirname(keyFile), { recursive: true });
        fs.writeFileSync(keyFile, `ask_${"L".repeat(32)}\n`, { mode: 0o600 });

        server = await startServer("custom", database.url);
        assert.match(server.logs(), /"migrations applied".*0006_admin_app_key/);
        assert.ok(!fs.existsSync(keyFile), "the earlier version's key file is removed");
        assert.match(server.logs(), /"removed the admin app key file of an earlier version/);
        const keys = await listKeys(database.url);
        assert.deepEqual(
          keys.map((key) => [key.name, key.for, key.state.split(" ")[0]]),
          [
            ["admin app (host-a)", "admin app", "revoked"],
            ["admin app (host-b)", "admin app", "revoked"],
            // The name the README suggested for an ADMIN_API_KEY: a client's key, untouched.
            ["admin app", "clients", "active"],
            ["reader", "clients", "active"],
            ["admin app", "admin app", "active"],
          ],
        );
        assert.equal((await activeAdminAppKeys(database.url)).length, 1);
      } finally {
        await server?.stop();
        fs.rmSync(keyFile, { force: true });
        await database.drop();
      }
    });
  });
}

describe("npm run staff", () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase("sqlite");
  });
  after(async () => database?.drop());

  test("create reads the password from piped stdin; list shows the account", async () => {
    const output = await createStaffWithTool(database.url, "Alice@Animal-Store.example", "correct horse battery");
    assert.match(output, /Created staff account \d+ for alice@animal-store\.example/);
    assert.ok(!output.includes("correct horse battery"));
    assert.match(
      await runScript("staff.ts", ["list"], database.url),
      /alice@animal-store\.example +staff +\S+ +active +0/,
    );
  });

  const refusals: [string, string[], string | undefined, RegExp][] = [
    ["a short password", ["create", "bob@animal-store.example"], "short\n", /password must be at least 12 characters/],
    ["no password at all", ["create", "bob@animal-store.example"], "", /No password on standard input/],
    [
      "an existing email, in any case",
      ["create", "ALICE@animal-store.example"],
      "another long password\n",
      /already exists/,
    ],
    ["an email that is not one", ["create", "bob"], "another long password\n", /not an email address/],
    [
      "an unknown command",
      ["delete", "alice@animal-store.example"],
      undefined,
      /^unknown command 'delete'; commands: /,
    ],
    [
      "disable of an unknown email",
      ["disable", "nobody@animal-store.example"],
      undefined,
      /No staff account has the email/,
    ],
  ];
  for (const [name, args, input, message] of refusals) {
    test(`refuses ${name} with exit code 2 and one line`, async () => {
      const failure = await refused(runScript("staff.ts", args, database.url, input));
      assert.equal(failure.code, 2);
      // Besides the line naming the database, when the refusal came after opening it.
      const lines = failure.stderr!.split("\n").filter((line) => line && !line.startsWith("Database: "));
      assert.equal(lines.length, 1, failure.stderr);
      assert.match(lines[0], message);
    });
  }

  test("disable ends the account's sessions and refuses its sign-in", async () => {
    await createStaff(database.url, "carol@animal-store.example", "carol's long password");
    const server = await startServer("custom", database.url);
    try {
      const signIn = () =>
        call(server.baseUrl, "POST", "/admin/api/session", {
          headers: { Origin: server.baseUrl },
          body: { email: "carol@animal-store.example", password: "carol's long password" },
        });
      const cookie = (await signIn()).headers.get("set-cookie")!.split(";")[0];
      assert.equal((await call(server.baseUrl, "GET", "/admin/api/pets", { headers: { Cookie: cookie } })).status, 200);
      assert.match(
        await runScript("staff.ts", ["disable", "carol@animal-store.example"], database.url),
        /1 session\(s\) ended/,
      );
      assert.equal((await call(server.baseUrl, "GET", "/admin/api/pets", { headers: { Cookie: cookie } })).status, 401);
      assert.equal((await signIn()).status, 401);
      assert.match(
        await runScript("staff.ts", ["list"], database.url),
        /carol@animal-store\.example +staff +\S+ +disabled/,
      );
    } finally {
      await server.stop();
    }
  });
});

describe("the demo staff account: loopback only (server.ts, SQLite)", () => {
  const signIn = (server: RunningServer, email: string, password: string) =>
    call(server.baseUrl, "POST", "/admin/api/session", {
      headers: { Origin: server.baseUrl },
      body: { email, password },
    });

  // HOST beyond loopback, a proxy in front, or a public origin: each makes the instance reachable. The
  // last two keep listening on 127.0.0.1, which is how the test reaches them.
  for (const [name, value] of [
    ["HOST", "0.0.0.0"],
    ["TRUSTED_PROXIES", "127.0.0.1"],
    ["PUBLIC_ORIGIN", "https://store.example"],
  ]) {
    test(`${name}=${value}: no demo account, no password printed, how to create staff`, async () => {
      const database = await createTestDatabase("sqlite");
      try {
        const server = await startServer("custom", database.url, { DEMO_SEED: "on", [name]: value });
        await server.stop();
        const logs = server.logs();
        assert.doesNotMatch(logs, /password/i);
        assert.ok(!logs.includes(DEMO_EMAIL), logs);
        assert.match(
          logs,
          /No staff account exists yet\. Create the first admin with: +npm run staff -- create <email> --role admin/,
        );
        assert.match(await runScript("staff.ts", ["list"], database.url), /^No staff accounts\./);
      } finally {
        await database.drop();
      }
    });
  }

  test("made on loopback, it is disabled, its sessions ended, once the instance is reachable", async () => {
    const database = await createTestDatabase("sqlite");
    const ana = { email: "ana@animal-store.example", password: "ana's long password" };
    try {
      const loopback = await startServer("custom", database.url, { DEMO_SEED: "on" });
      const password = /password: (\S+)/.exec(loopback.logs())?.[1] ?? "";
      const demoSignIn = await signIn(loopback, DEMO_EMAIL, password);
      assert.equal(demoSignIn.status, 200, demoSignIn.text);
      const cookie = demoSignIn.headers.get("set-cookie")!.split(";")[0];
      await createStaff(database.url, ana.email, ana.password);
      await loopback.stop();

      const reachable = await startServer("custom", database.url, { DEMO_SEED: "on", TRUSTED_PROXIES: "127.0.0.1" });
      try {
        const warning = reachable
          .logs()
          .split("\n")
          .filter((line) => line.startsWith("{"))
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .find((entry) => entry.message === "demo staff account disabled");
        assert.equal(warning?.level, "warn", reachable.logs());
        assert.equal(warning?.email, DEMO_EMAIL);
        assert.equal(warning?.endedSessions, 1);
        assert.match(String(warning?.action), /npm run staff -- create <email>/);
        assert.doesNotMatch(reachable.logs(), /No staff account exists yet/, "ana is an active account");

        assertAdminError(await signIn(reachable, DEMO_EMAIL, password), 401, "invalid_credentials");
        const headers = { Cookie: cookie };
        assertAdminError(await call(reachable.baseUrl, "GET", "/admin/api/pets", { headers }), 401, "session_required");
        assert.equal((await signIn(reachable, ana.email, ana.password)).status, 200, "other staff sign in as before");
        assert.match(
          await runScript("staff.ts", ["list"], database.url),
          /demo@animal-store\.example +admin +\S+ +disabled/,
        );
      } finally {
        await reachable.stop();
      }

      // Back on loopback it stays disabled, and no new demo account or password appears.
      const again = await startServer("custom", database.url, { DEMO_SEED: "on" });
      await again.stop();
      assert.doesNotMatch(again.logs(), /password/i);
      assert.match(
        await runScript("staff.ts", ["list"], database.url),
        /demo@animal-store\.example +admin +\S+ +disabled/,
      );
    } finally {
      await database.drop();
    }
  });
});
