import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { assertError, call, signInStaff, type Reply } from "@/scripts/harness/http";
import {
  createKey,
  createStaff,
  createTestDatabase,
  testProviders,
  runScript,
  startServer,
  type RunningServer,
  type TestDatabase,
} from "@/scripts/harness/servers";

// Idempotency-Key on createPet and per-key rate limits, over HTTP, on both databases; the admin app's
// requests limited per staff member.

const providers = await testProviders();

for (const provider of providers) {
  describe(`retries and limits on ${provider}`, () => {
    let database: TestDatabase;
    let server: RunningServer;
    let key: string;
    let otherKey: string;
    const create = (body: unknown, idempotencyKey?: string, apiKey = key) =>
      call(server.baseUrl, "POST", "/v1/pets", {
        key: apiKey,
        body,
        headers: idempotencyKey === undefined ? {} : { "Idempotency-Key": idempotencyKey },
      });

    before(async () => {
      database = await createTestDatabase(provider);
      await runScript("db-migrate.ts", [], database.url);
      key = await createKey(database.url, "retrying client");
      otherKey = await createKey(database.url, "another client");
      server = await startServer("custom", database.url);
    });

    after(async () => {
      await server?.stop();
      await database?.drop();
    });

    test("the same key and body replays the first answer and creates one pet", async () => {
      const body = { name: "Once", categoryId: 77, status: "pending" };
      const first = await create(body, "order-1");
      assert.equal(first.status, 201);
      const again = await create(body, "order-1");
      assert.equal(again.status, 201);
      assert.equal(again.text, first.text);
      assert.equal(again.headers.get("location"), first.headers.get("location"));
      assert.equal(again.headers.get("idempotent-replayed"), "true");
      const listed = await call(server.baseUrl, "GET", "/v1/pets?limit=100", { key });
      assert.equal(listed.body.filter((pet: { name: string }) => pet.name === "Once").length, 1);
    });

    test("the quoted form of the header (a structured-field string) is the same key", async () => {
      const body = { name: "Quoted", categoryId: 1 };
      const first = await create(body, '"quoted-1"');
      const again = await create(body, "quoted-1");
      assert.equal(again.text, first.text);
    });

    test("the same key with another body is a 422", async () => {
      assert.equal((await create({ name: "First", categoryId: 1 }, "order-2")).status, 201);
      const reused = await create({ name: "Second", categoryId: 1 }, "order-2");
      assert.equal(reused.status, 422);
      assert.equal(reused.body.code, "idempotency_key_reused");
    });

    test("keys are scoped to the API key", async () => {
      const mine = await create({ name: "Scoped", categoryId: 1 }, "order-3");
      const theirs = await create({ name: "Scoped", categoryId: 1 }, "order-3", otherKey);
      assert.equal(theirs.status, 201);
      assert.notEqual(theirs.body.id, mine.body.id);
    });

    test("concurrent retries with one key create exactly one pet; the others replay or get 409", async () => {
      const body = { name: "Stampede", categoryId: 5 };
      const replies = await Promise.all(Array.from({ length: 20 }, () => create(body, "order-4")));
      const created = replies.filter((reply) => reply.status === 201);
      assert.ok(created.length >= 1);
      assert.equal(new Set(created.map((reply) => String(reply.body.id))).size, 1, "one pet");
      for (const reply of replies.filter((reply) => reply.status !== 201)) {
        assert.equal(reply.status, 409);
        assert.equal(reply.body.code, "idempotency_key_in_progress");
      }
      const listed = await call(server.baseUrl, "GET", "/v1/pets?limit=100", { key });
      assert.equal(listed.body.filter((pet: { name: string }) => pet.name === "Stampede").length, 1);
    });

    test("invalid input is not recorded: the key stays usable", async () => {
      assert.equal((await create({ name: "", categoryId: 1 }, "order-5")).status, 400);
      assert.equal((await create({ name: "Fixed", categoryId: 1 }, "order-5")).status, 201);
    });

    test("plain creates answered while keyed creates run their transactions are all kept", async () => {
      // On SQLite every query shares one connection; a plain create must never run inside another
      // request's transaction, where a rollback would take it along after it was answered.
      const body = { name: "Contended", categoryId: 8 };
      const replies = await Promise.all(
        Array.from({ length: 60 }, (_, index) =>
          index % 3 === 0 ? create(body, "order-contended") : create({ name: `Plain ${index}`, categoryId: 9 }),
        ),
      );
      const plain = replies.filter((_, index) => index % 3 !== 0);
      assert.deepEqual(
        plain.map((reply) => reply.status),
        Array(40).fill(201),
      );
      for (const reply of plain) {
        const fetched = await call(server.baseUrl, "GET", `/v1/pets/${reply.body.id}`, { key });
        assert.equal(fetched.text, reply.text, "an answered create is still there");
      }
    });

    test("an unusable Idempotency-Key is a 400", async () => {
      for (const bad of ["", "x".repeat(256), "has space"]) {
        const reply = await create({ name: "Rex", categoryId: 1 }, bad);
        assert.equal(reply.status, 400, JSON.stringify(bad));
        assert.equal(reply.body.code, "invalid_header");
      }
    });
  });
}

/** A fresh SQLite database and a server whose keys may make `quota` requests an hour, for one suite. */
function serverWithQuota(quota: number) {
  let database: TestDatabase;
  let server: RunningServer;
  before(async () => {
    database = await createTestDatabase("sqlite");
    await runScript("db-migrate.ts", [], database.url);
    server = await startServer("custom", database.url, {
      RATE_LIMIT_REQUESTS: String(quota),
      RATE_LIMIT_WINDOW_SECONDS: "3600",
    });
  });
  after(async () => {
    await server?.stop();
    await database?.drop();
  });
  return { database: () => database, server: () => server };
}

describe("rate limits", () => {
  const { database, server } = serverWithQuota(5);

  test("every response carries the policy; a key past its quota gets 429 with Retry-After in seconds", async () => {
    const key = await createKey(database().url, "limited");
    const replies = [];
    for (let index = 0; index < 7; index++) replies.push(await call(server().baseUrl, "GET", "/v1/pets", { key }));
    assert.deepEqual(
      replies.map((reply) => reply.status),
      [200, 200, 200, 200, 200, 429, 429],
    );
    assert.deepEqual(
      replies.map((reply) => /r=(\d+)/.exec(reply.headers.get("ratelimit") ?? "")?.[1]),
      ["4", "3", "2", "1", "0", "0", "0"],
    );
    for (const reply of replies) assert.equal(reply.headers.get("ratelimit-policy"), '"per-key";q=5;w=3600');
    const limited = replies[5];
    assert.equal(limited.body.code, "rate_limited");
    assert.equal(Number(limited.body.status), 429);
    const retryAfter = Number(limited.headers.get("retry-after"));
    assert.ok(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
    assert.equal(limited.headers.get("ratelimit"), `"per-key";r=0;t=${retryAfter}`);

    const other = await createKey(database().url, "unaffected");
    assert.equal((await call(server().baseUrl, "GET", "/v1/pets", { key: other })).status, 200, "limits are per key");
    const anonymous = await call(server().baseUrl, "GET", "/v1/pets");
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get("ratelimit-policy"), '"per-key";q=5;w=3600');
  });
});

for (const provider of providers) {
  describe(`the admin app's rate limits on ${provider}`, () => {
    let database: TestDatabase;
    let server: RunningServer;
    before(async () => {
      database = await createTestDatabase(provider);
      await createStaff(database.url, "ana@animal-store.example", "ana's long password");
      await createStaff(database.url, "ben@animal-store.example", "ben's long password");
      server = await startServer("custom", database.url, {
        RATE_LIMIT_REQUESTS: "5",
        RATE_LIMIT_WINDOW_SECONDS: "3600",
      });
    });
    after(async () => {
      await server?.stop();
      await database?.drop();
    });

    test("each staff member has a quota of their own within the admin app's key; API clients keep theirs", async () => {
      const ana = await signInStaff(server.baseUrl, "ana@animal-store.example", "ana's long password");
      const ben = await signInStaff(server.baseUrl, "ben@animal-store.example", "ben's long password");
      const browse = (cookie: string) =>
        call(server.baseUrl, "GET", "/admin/api/pets?limit=1", { headers: { Cookie: cookie } });
      const remaining = (reply: Reply) => /r=(\d+)/.exec(reply.headers.get("ratelimit") ?? "")?.[1];

      const anas = [];
      for (let index = 0; index < 7; index++) anas.push(await browse(ana));
      assert.deepEqual(
        anas.map((reply) => reply.status),
        [200, 200, 200, 200, 200, 429, 429],
      );
      assert.deepEqual(anas.map(remaining), ["4", "3", "2", "1", "0", "0", "0"]);
      for (const reply of anas) assert.equal(reply.headers.get("ratelimit-policy"), '"per-staff";q=5;w=3600');
      const limited = anas[5];
      assertError(limited, 429, "rate_limited");
      assert.match(limited.body.message, /this staff member/);
      const retryAfter = Number(limited.headers.get("retry-after"));
      assert.ok(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
      assert.equal(limited.headers.get("ratelimit"), `"per-staff";r=0;t=${retryAfter}`);
      const refusedWrite = await call(server.baseUrl, "POST", "/admin/api/pets", {
        headers: { Cookie: ana, Origin: server.baseUrl },
        body: { name: "Over Quota", categoryId: 1 },
      });
      assertError(refusedWrite, 429, "rate_limited");

      // Ben's requests go out with the same key of the admin app, counted in his own bucket.
      const bens = [await browse(ben), await browse(ben)];
      assert.deepEqual(
        bens.map((reply) => [reply.status, remaining(reply)]),
        [
          [200, "4"],
          [200, "3"],
        ],
      );
      const created = await call(server.baseUrl, "POST", "/admin/api/pets", {
        headers: { Cookie: ben, Origin: server.baseUrl },
        body: { name: "Within Quota", categoryId: 1 },
      });
      assert.equal(created.status, 201, created.text);

      // An API client's key has its whole quota, as before.
      const key = await createKey(database.url, "a client");
      const client = await call(server.baseUrl, "GET", "/v1/pets?limit=1", { key });
      assert.equal(client.status, 200);
      assert.match(client.headers.get("ratelimit") ?? "", /^"per-key";r=4;t=\d+$/);
      assert.equal(client.headers.get("ratelimit-policy"), '"per-key";q=5;w=3600');
    });
  });
}

describe("rate limits under concurrency", () => {
  const { database, server } = serverWithQuota(100);

  test(
    "300 concurrent requests against a quota of 100 " + "(counted in memory, then in the database) admit exactly 100",
    async () => {
      const key = await createKey(database().url, "burst");
      const replies = await Promise.all(
        Array.from({ length: 300 }, () => call(server().baseUrl, "GET", "/v1/pets?limit=1", { key })),
      );
      const statuses = replies.map((reply) => reply.status);
      assert.equal(
        statuses.filter((status) => status === 200).length,
        100,
        JSON.stringify(statuses.filter((status) => status !== 429 && status !== 200)),
      );
      assert.equal(statuses.filter((status) => status === 429).length, 200);
    },
  );
});
