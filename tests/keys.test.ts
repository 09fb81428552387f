import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import Database from "better-sqlite3";
import pg from "pg";
import { assertError, call, signInStaff, type Reply } from "@/scripts/harness/http";
import { movableClock, type MovableClock } from "@/scripts/harness/clock";
import {
  createMigratedDatabase,
  listKeys,
  runScript,
  startServer,
  startServers,
  testProviders,
  type RunningServer,
  type TestDatabase,
  createKeyWithTool,
} from "@/scripts/harness/servers";
import { createKey, createStaff } from "@/scripts/harness/fixtures";

// Issue 11's API keys part over real HTTP, against the production server on SQLite and PostgreSQL: the admin
// endpoints for keys (each change one audit record, attributed to the signed-in admin, with address and
// request id; none for a refusal or a second revocation), their role, session and Origin checks, the key
// tool's records, getPet's call counts (in memory, then one adding upsert per key and day: no write per
// request, instances adding up), and getPet's 410 Gone from its sunset, the server's clock moved by the
// harness (scripts/harness/clock.mjs).

const ADMIN = { email: "keys-admin@animal-store.example", password: "an admin's long password" };
const STAFF = { email: "keys-staff@animal-store.example", password: "a staff member's password" };
const SUNSET = new Date("2030-12-05T00:00:00Z");
const KEY_SHAPE = /^ask_[A-Za-z0-9_-]{32}$/;

type Row = Record<string, unknown>;

/** Rows of a query straight from the test database, as the server left them. */
async function rows(database: TestDatabase, sql: string): Promise<Row[]> {
  if (database.provider === "sqlite") {
    const sqlite = new Database(database.url.slice("file:".length), { readonly: true });
    try {
      return sqlite.prepare(sql).all() as Row[];
    } finally {
      sqlite.close();
    }
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Row[];
  } finally {
    await client.end();
  }
}

/** Runs statements on the test database behind the server's back (a fault to inject). */
async function execute(database: TestDatabase, sql: string): Promise<void> {
  if (database.provider === "sqlite") {
    const sqlite = new Database(database.url.slice("file:".length), { timeout: 5000 });
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

/** A trigger that makes writing the audit record of a key named "poisoned…" fail, on either database. */
const POISON: Record<TestDatabase["provider"], { add: string; remove: string }> = {
  sqlite: {
    add: `CREATE TRIGGER poison_key_records BEFORE INSERT ON audit_events
      WHEN NEW.target_label LIKE 'poisoned%' BEGIN SELECT RAISE(ABORT, 'record refused'); END`,
    remove: "DROP TRIGGER poison_key_records",
  },
  postgresql: {
    add: `CREATE FUNCTION poison_key_records() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.target_label LIKE 'poisoned%' THEN RAISE EXCEPTION 'record refused'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER poison_key_records BEFORE INSERT ON audit_events
      FOR EACH ROW EXECUTE FUNCTION poison_key_records()`,
    remove: "DROP TRIGGER poison_key_records ON audit_events; DROP FUNCTION poison_key_records()",
  },
};

const keyRecords = (database: TestDatabase) =>
  rows(
    database,
    `SELECT actor_type, actor_id, actor_label, action, target_type, target_id, target_label, details,
       client_address, request_id FROM audit_events WHERE target_type = 'api_key' ORDER BY id`,
  );

const dailyCalls = (database: TestDatabase) =>
  rows(database, "SELECT api_key_id, operation, day, count, last_at FROM api_key_daily_calls ORDER BY api_key_id");

const today = () => new Date().toISOString().slice(0, 10);

const providers = await testProviders();

for (const provider of providers) {
  describe(`API keys in the admin app on ${provider}`, () => {
    let database: TestDatabase;
    let server: RunningServer;
    let adminCookie: string;
    let staffCookie: string;
    let adminId: number;
    let otherKey: string;

    /** A request to an admin endpoint as a browser on the app's own pages would send it. */
    const admin = (
      method: string,
      path: string,
      options: { cookie?: string | null; origin?: string | null; body?: unknown; requestId?: string } = {},
    ) => {
      const headers: Record<string, string> = {};
      const cookie = options.cookie === undefined ? adminCookie : options.cookie;
      if (cookie) headers.Cookie = cookie;
      const origin = options.origin === undefined ? (method === "GET" ? null : server.baseUrl) : options.origin;
      if (origin) headers.Origin = origin;
      if (options.requestId) headers["X-Request-Id"] = options.requestId;
      return call(server.baseUrl, method, path, { headers, body: options.body });
    };
    const listed = async () => {
      const reply = await admin("GET", "/admin/api/keys");
      assert.equal(reply.status, 200, reply.text);
      return reply.body.keys as Record<string, any>[];
    };
    const create = async (name: string, requestId?: string) => {
      const reply = await admin("POST", "/admin/api/keys", { body: { name }, requestId });
      assert.equal(reply.status, 201, reply.text);
      return reply;
    };
    const signInBoth = async () => {
      adminCookie = await signInStaff(server.baseUrl, ADMIN.email, ADMIN.password);
      staffCookie = await signInStaff(server.baseUrl, STAFF.email, STAFF.password);
    };

    before(async () => {
      database = await createMigratedDatabase(provider);
      await createStaff(database.url, ADMIN.email, ADMIN.password, "admin");
      await createStaff(database.url, STAFF.email, STAFF.password, "staff");
      adminId = Number((await rows(database, `SELECT id FROM staff WHERE email = '${ADMIN.email}'`))[0].id);
      otherKey = await createKey(database.url, "other client");
      server = await startServer("custom", database.url);
      await signInBoth();
    });

    after(async () => {
      await server?.stop();
      await database?.drop();
    });

    test("an admin creates a key: shown once, usable on /v1 at once, one record naming the admin", async () => {
      const before = (await keyRecords(database)).length;
      const reply = await create("  shop website  ", "keys-test-create");
      assert.match(reply.body.key, KEY_SHAPE);
      const { key } = reply.body;
      assert.equal(reply.body.name, "shop website", "trimmed");
      assert.equal(reply.body.prefix, key.slice(0, 12));
      assert.equal(reply.body.createdBy, ADMIN.email);
      assert.equal(reply.body.revokedAt, null);
      assert.equal(reply.headers.get("location"), `/admin/api/keys/${reply.body.id}`);

      assert.equal((await call(server.baseUrl, "GET", "/v1/pets", { key })).status, 200, "works at once");

      const records = (await keyRecords(database)).slice(before);
      assert.equal(records.length, 1, JSON.stringify(records));
      assert.deepEqual(
        { ...records[0], actor_id: Number(records[0].actor_id), details: JSON.parse(String(records[0].details)) },
        {
          actor_type: "staff",
          actor_id: adminId,
          actor_label: ADMIN.email,
          action: "api_key.created",
          target_type: "api_key",
          target_id: String(reply.body.id),
          target_label: "shop website",
          details: { prefix: key.slice(0, 12) },
          client_address: "127.0.0.1",
          request_id: "keys-test-create",
        },
      );

      // The secret is in that one answer only: not in the listing, not in the log.
      const listing = await admin("GET", "/admin/api/keys");
      assert.ok(listing.body.keys.some((listedKey: { id: bigint }) => listedKey.id === reply.body.id));
      assert.ok(!listing.text.includes(key.slice(4)), "the listing never holds a secret");
      assert.doesNotMatch(listing.text, /ask_[A-Za-z0-9_-]{32}/);
      assert.ok(!server.logs().includes(key.slice(4)), "the key is never logged");
    });

    test("revoking: one record naming the admin, 401 for the key at once; a second revocation: no change", async () => {
      const { key, id } = (await create("to revoke")).body;
      const before = (await keyRecords(database)).length;
      const revoked = await admin("DELETE", `/admin/api/keys/${id}`, { requestId: "keys-test-revoke" });
      assert.equal(revoked.status, 200, revoked.text);
      assert.equal(revoked.body.alreadyRevoked, false);
      assert.ok(revoked.body.key.revokedAt);
      assert.equal(revoked.body.key.key, undefined, "no secret");
      assertError(await call(server.baseUrl, "GET", "/v1/pets", { key }), 401, "unauthorized");

      const records = (await keyRecords(database)).slice(before);
      assert.deepEqual(
        records.map((record) => [
          record.action,
          record.actor_type,
          Number(record.actor_id),
          record.actor_label,
          record.target_id,
          record.target_label,
          record.client_address,
          record.request_id,
        ]),
        [["api_key.revoked", "staff", adminId, ADMIN.email, String(id), "to revoke", "127.0.0.1", "keys-test-revoke"]],
      );

      const again = await admin("DELETE", `/admin/api/keys/${id}`);
      assert.equal(again.status, 200, again.text);
      assert.equal(again.body.alreadyRevoked, true);
      assert.equal(again.body.key.revokedAt, revoked.body.key.revokedAt, "revoked when it was, not again");
      assert.equal((await keyRecords(database)).length, before + 1, "no second record");
      const row = (await listed()).find((listedKey) => listedKey.id === id)!;
      assert.equal(row.revokedAt, revoked.body.key.revokedAt);
    });

    test("the admin app's own key: listed as made by the app, recorded so, and not revoked from the page", async () => {
      assert.equal((await admin("GET", "/admin/api/pets")).status, 200); // the admin app has made its key
      const own = (await listed()).filter((listedKey) => listedKey.purpose === "admin_app");
      assert.equal(own.length, 1);
      assert.equal(own[0].createdBy, "the app");
      const created = (await keyRecords(database)).filter(
        (record) => record.action === "api_key.created" && record.target_id === String(own[0].id),
      );
      assert.deepEqual(
        created.map((record) => [record.actor_type, record.actor_label, record.target_label]),
        [["system", "the app", "admin app"]],
      );

      const before = (await keyRecords(database)).length;
      const refused = await admin("DELETE", `/admin/api/keys/${own[0].id}`);
      assertError(refused, 409, "admin_app_key");
      assert.equal((await keyRecords(database)).length, before, "no record");
      assert.equal((await listed()).find((listedKey) => listedKey.id === own[0].id)!.revokedAt, null);
      assert.equal((await admin("GET", "/admin/api/pets")).status, 200, "the admin app still works");
    });

    test("a staff member gets 403 on every keys endpoint, no session 401, another origin 403: no change", async () => {
      const before = (await keyRecords(database)).length;
      const { id } = (await listed())[0];
      const attempts: [string, string, unknown][] = [
        ["GET", "/admin/api/keys", undefined],
        ["POST", "/admin/api/keys", { name: "not allowed" }],
        ["DELETE", `/admin/api/keys/${id}`, undefined],
      ];
      for (const [method, path, body] of attempts) {
        assertError(await admin(method, path, { cookie: staffCookie, body }), 403, "admin_role_required");
        assertError(await admin(method, path, { cookie: null, body }), 401, "session_required");
      }
      for (const [method, path, body] of attempts.slice(1)) {
        assertError(await admin(method, path, { origin: "https://evil.example", body }), 403, "cross_origin");
        assertError(await admin(method, path, { origin: null, body }), 403, "cross_origin");
      }
      assert.equal((await keyRecords(database)).length, before);
      assert.ok(!(await listed()).some((listedKey) => listedKey.name === "not allowed"));
      assert.equal((await listed())[0].revokedAt, null);
    });

    test("bad names and bad paths are 400s naming the member; unknown keys 404; no record", async () => {
      const before = (await keyRecords(database)).length;
      const cases: [string, unknown, string, string?][] = [
        ["no name", {}, "invalid_body", "name"],
        ["empty", { name: "" }, "invalid_body", "name"],
        ["blank", { name: "   " }, "invalid_body", "name"],
        ["101 characters", { name: "k".repeat(101) }, "invalid_body", "name"],
        ["a line break", { name: "shop\nwebsite" }, "invalid_body", "name"],
        ["a tab", { name: "shop\twebsite" }, "invalid_body", "name"],
        ["not a string", { name: 42 }, "invalid_body", "name"],
        ["an unknown member", { name: "ok", purpose: "admin_app" }, "invalid_body", "purpose"],
        ["an array", [], "invalid_body", ""],
        ["not JSON", "{name:", "invalid_json"],
      ];
      for (const [what, body, code, path] of cases) {
        const reply = await admin("POST", "/admin/api/keys", { body });
        assert.equal(reply.status, 400, `${what}: ${reply.text}`);
        assertError(reply, 400, code, path);
      }
      for (const bad of ["abc", "0", "-1", "1.5", "1e3", "99999999999"])
        assertError(await admin("DELETE", `/admin/api/keys/${bad}`), 400, "invalid_path", "keyId");
      assertError(await admin("DELETE", "/admin/api/keys/999999"), 404, "not_found");
      assert.equal((await keyRecords(database)).length, before, "no record for a refusal");
      // 100 characters, emoji counted as one each, are accepted.
      assert.equal((await create("🐕".repeat(100))).body.name, "🐕".repeat(100));
    });

    test("a change whose record cannot be written is not made: key and record share one transaction", async () => {
      const doomed = await createKey(database.url, "poisoned later");
      const before = (await keyRecords(database)).length;
      const keysBefore = (await listed()).length;
      await execute(database, POISON[provider].add);
      try {
        assertError(await admin("POST", "/admin/api/keys", { body: { name: "poisoned new" } }), 500, "internal");
        assert.equal((await listed()).length, keysBefore, "no key without its record");
        const id = (await listed()).find((listedKey) => listedKey.name === "poisoned later")!.id;
        assertError(await admin("DELETE", `/admin/api/keys/${id}`), 500, "internal");
        assert.equal((await listed()).find((listedKey) => listedKey.id === id)!.revokedAt, null, "not revoked");
        assert.equal((await call(server.baseUrl, "GET", "/v1/pets", { key: doomed })).status, 200, "still works");
        await assert.rejects(runScript("key.ts", ["create", "poisoned too"], database.url));
        assert.ok(!(await listKeys(database.url)).some((row) => row.name === "poisoned too"));
      } finally {
        await execute(database, POISON[provider].remove);
      }
      assert.equal((await keyRecords(database)).length, before, "no record either");
    });

    test("the key tool: create and revoke write one record each as the command line; a 2nd revoke, none", async () => {
      const before = (await keyRecords(database)).length;
      const key = await createKeyWithTool(database.url, "from the shell");
      const prefix = key.slice(0, 12);
      assert.match(await runScript("key.ts", ["revoke", prefix], database.url), /^Revoked API key/);
      assert.match(
        await runScript("key.ts", ["revoke", prefix], database.url),
        /was already revoked on .*; nothing changed\./,
      );
      const records = (await keyRecords(database)).slice(before);
      assert.deepEqual(
        records.map((record) => [
          record.action,
          record.actor_type,
          record.actor_id,
          record.actor_label,
          record.target_label,
        ]),
        [
          ["api_key.created", "cli", null, "command line", "from the shell"],
          ["api_key.revoked", "cli", null, "command line", "from the shell"],
        ],
      );
      const listedKey = (await listKeys(database.url)).find((row) => row.prefix === prefix)!;
      assert.equal(listedKey.createdBy, "command line");
      assert.match(listedKey.state, /^revoked /);
      await assert.rejects(runScript("key.ts", ["create", "a\u0007bell"], database.url), /printable characters only/);
    });

    test("getPet calls: counted in memory, no write per request, one adding upsert per key and day", async () => {
      const { key, id } = (await create("getPet caller")).body;
      const other = (await listKeys(database.url)).find((row) => row.name === "other client")!;
      const pet = await call(server.baseUrl, "POST", "/v1/pets", { key, body: { name: "Counted", categoryId: 1 } });
      assert.equal(pet.status, 201, pet.text);
      const before = await dailyCalls(database);
      const statuses: number[] = [];
      for (let index = 0; index < 5; index++)
        statuses.push((await call(server.baseUrl, "GET", `/v1/pets/${pet.body.id}`, { key })).status);
      statuses.push((await call(server.baseUrl, "GET", "/v1/pets/999999", { key })).status);
      statuses.push((await call(server.baseUrl, "GET", "/v1/pets/not-an-id", { key })).status);
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 404, 400], "every answer after authentication counts");
      // Not counted: listPets, a call without a valid key, the admin app's own read of a pet.
      assert.equal((await call(server.baseUrl, "GET", "/v1/pets", { key: otherKey })).status, 200);
      assert.equal((await call(server.baseUrl, "GET", `/v1/pets/${pet.body.id}`)).status, 401);
      assert.equal((await admin("GET", `/admin/api/pets/${pet.body.id}`)).status, 200);
      assert.deepEqual(await dailyCalls(database), before, "no write per request: nothing written yet");

      await server.stop(); // graceful: the counts are written before the database is let go
      const written = await dailyCalls(database);
      assert.deepEqual(
        written.map((row) => [Number(row.api_key_id), row.operation, row.day, Number(row.count)]),
        [[Number(id), "getPet", today(), 7]],
      );

      server = await startServer("custom", database.url);
      await signInBoth();
      const keys = await listed();
      const caller = keys.find((listedKey) => listedKey.id === id)!;
      assert.equal(caller.getPet.last30Days, 7n);
      assert.ok(Math.abs(Date.parse(caller.getPet.lastCallAt) - Date.now()) < 120_000, caller.getPet.lastCallAt);
      const quiet = keys.find((listedKey) => Number(listedKey.id) === other.id)!;
      assert.deepEqual(quiet.getPet, { last30Days: 0n, lastCallAt: null });

      const tool = await listKeys(database.url);
      assert.equal(tool.find((row) => row.id === Number(id))!.getPet30Days, 7);
      assert.match(tool.find((row) => row.id === Number(id))!.lastGetPet, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.equal(tool.find((row) => row.id === other.id)!.getPet30Days, 0);
      assert.equal(tool.find((row) => row.id === other.id)!.lastGetPet, "never");
    });
  });

  describe(`ADMIN_API_KEY on ${provider}: making a client's key the admin app's is recorded`, () => {
    let database: TestDatabase;
    let servers: RunningServer[] = [];

    before(async () => {
      database = await createMigratedDatabase(provider);
    });

    after(async () => {
      await Promise.all(servers.map((server) => server.stop()));
      await database?.drop();
    });

    test("one record by the app for the change of purpose, one for the key it replaces; none on restarts", async () => {
      servers = [await startServer("custom", database.url)]; // makes the app's own key
      await servers[0].stop();
      const key = await createKey(database.url, "configured admin key");
      const [made, configured] = await listKeys(database.url);
      // Two instances at once with the same setting, then a restart: the purpose changes once.
      servers = await startServers(2, "custom", database.url, { ADMIN_API_KEY: key });
      await Promise.all(servers.map((server) => server.stop()));
      servers = [await startServer("custom", database.url, { ADMIN_API_KEY: key })];
      const records = (await keyRecords(database)).map((record) => [
        record.actor_type,
        record.action,
        String(record.target_id),
      ]);
      assert.deepEqual(records, [
        ["system", "api_key.created", String(made.id)],
        ["cli", "api_key.created", String(configured.id)],
        ["system", "api_key.revoked", String(made.id)],
        ["system", "api_key.made_admin_app", String(configured.id)],
      ]);
    });
  });

  describe(`getPet call counts of two instances on one ${provider} database`, () => {
    let database: TestDatabase;
    let servers: RunningServer[] = [];

    before(async () => {
      database = await createMigratedDatabase(provider);
    });

    after(async () => {
      await Promise.all(servers.map((server) => server.stop()));
      await database?.drop();
    });

    test("each flushes every 10 seconds and at shutdown, and their counts add up", async () => {
      const key = await createKey(database.url, "busy client");
      servers = await startServers(2, "custom", database.url);
      const [first, second] = servers;
      const pet = await call(first.baseUrl, "POST", "/v1/pets", { key, body: { name: "Shared", categoryId: 2 } });
      const getPet = async (server: RunningServer, times: number) => {
        for (let index = 0; index < times; index++)
          assert.equal((await call(server.baseUrl, "GET", `/v1/pets/${pet.body.id}`, { key })).status, 200);
      };
      await Promise.all([getPet(first, 3), getPet(second, 4)]);
      assert.deepEqual(await dailyCalls(database), [], "nothing written per request");

      // Each instance's timer writes what it counted within 10 seconds of its first call (waited for up to 15:
      // the timer's callback and its write take their turn on a busy machine).
      for (const deadline = Date.now() + 15_000; Date.now() < deadline;) {
        const counts = (await dailyCalls(database)).map((row) => Number(row.count));
        if (counts.length === 1 && counts[0] === 7) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      assert.deepEqual(
        (await dailyCalls(database)).map((row) => Number(row.count)),
        [7],
      );

      // More calls, then both stop at once: each adds its own to the same row.
      await Promise.all([getPet(first, 2), getPet(second, 5)]);
      await Promise.all(servers.map((server) => server.stop()));
      const [row] = await dailyCalls(database);
      assert.equal(Number(row.count), 14);
      assert.equal((await listKeys(database.url))[0].getPet30Days, 14);
    });
  });

  describe(`getPet after its sunset on ${provider} (the server's clock moved)`, () => {
    let database: TestDatabase;
    let server: RunningServer;
    let clock: MovableClock;
    let key: string;
    let petId: bigint;

    before(async () => {
      database = await createMigratedDatabase(provider);
      await createStaff(database.url, STAFF.email, STAFF.password, "staff");
      key = await createKey(database.url, "late client");
      clock = movableClock();
      server = await startServer("custom", database.url, clock.env);
      const pet = await call(server.baseUrl, "POST", "/v1/pets", { key, body: { name: "Sunset", categoryId: 3 } });
      assert.equal(pet.status, 201, pet.text);
      petId = pet.body.id;
    });

    after(async () => {
      await server?.stop();
      clock?.remove();
      await database?.drop();
    });

    const assertDeprecationHeaders = (reply: Reply) => {
      assert.equal(reply.headers.get("sunset"), SUNSET.toUTCString());
      assert.match(reply.headers.get("deprecation") ?? "", /^@\d+$/);
      assert.equal(reply.headers.get("link"), '</v1/pets>; rel="successor-version"');
    };

    test("one second before the sunset getPet still answers 200 with the deprecation headers", async () => {
      await clock.set(new Date(SUNSET.getTime() - 1000));
      const reply = await call(server.baseUrl, "GET", `/v1/pets/${petId}`, { key });
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.body.name, "Sunset");
      assertDeprecationHeaders(reply);
    });

    for (const [when, at] of [
      ["at the sunset", SUNSET],
      ["a year after it", new Date(SUNSET.getTime() + 366 * 24 * 60 * 60 * 1000)],
    ] as const) {
      test(`${when} getPet is 410 gone with the successor Link, no pet; listPets and the admin app work`, async () => {
        await clock.set(at);
        for (const path of [`/v1/pets/${petId}`, "/v1/pets/999999", "/v1/pets/not-an-id"]) {
          const reply = await call(server.baseUrl, "GET", path, { key });
          assertError(reply, 410, "gone");
          assertDeprecationHeaders(reply);
          assert.ok(!reply.text.includes('Sunset"'), "no pet data");
          assert.deepEqual(Object.keys(reply.body).sort(), ["code", "message", "status"]);
          assert.equal(reply.headers.get("etag"), null);
        }
        // Authentication comes first: without a valid key, the 401 as for every operation.
        assertError(await call(server.baseUrl, "GET", `/v1/pets/${petId}`), 401, "unauthorized");

        const list = await call(server.baseUrl, "GET", "/v1/pets", { key });
        assert.equal(list.status, 200, list.text);
        assert.ok(list.body.some((pet: { name: string }) => pet.name === "Sunset"));
        assert.equal(list.headers.get("sunset"), null, "listPets is not deprecated");

        // The admin app reads a pet without getPet; signed in at the moved time, so the session is current.
        const cookie = await signInStaff(server.baseUrl, STAFF.email, STAFF.password);
        const read = await call(server.baseUrl, "GET", `/admin/api/pets/${petId}`, { headers: { Cookie: cookie } });
        assert.equal(read.status, 200, read.text);
        assert.equal(read.body.name, "Sunset");
      });
    }

    test("the OpenAPI document lists getPet's 410", async () => {
      const reply = await call(server.baseUrl, "GET", "/v1/openapi.json");
      const getPet = reply.body.paths["/pets/{petId}"].get;
      assert.match(getPet.responses["410"].description, /`gone`/);
      assert.equal(getPet.responses["410"].content["application/json"].example.code, "gone");
      assert.ok(getPet.responses["410"].headers.Link, "the successor Link");
      assert.match(getPet.description, /410/);
    });
  });
}
