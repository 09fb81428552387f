import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { asReply, assertError, call, headOnlyCall, rawCall, signInStaff, type Reply } from "@/scripts/harness/http";
import {
  createMigratedDatabase,
  testProviders,
  startServer,
  type RunningServer,
  type TestDatabase,
} from "@/scripts/harness/servers";
import { createKey, createStaff } from "@/scripts/harness/fixtures";

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
      database = await createMigratedDatabase(provider);
      key = await createKey(database.url, "retrying client");
      otherKey = await createKey(database.url, "another client");
      await createStaff(database.url, "eve@animal-store.example", "eve's long password");
      await createStaff(database.url, "finn@animal-store.example", "finn's long password");
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

    test("keys sent through the admin app are scoped to the staff member, though they share its API key", async () => {
      const eve = await signInStaff(server.baseUrl, "eve@animal-store.example", "eve's long password");
      const finn = await signInStaff(server.baseUrl, "finn@animal-store.example", "finn's long password");
      const body = { name: "Shared Key", categoryId: 1 };
      const add = (cookie: string) =>
        call(server.baseUrl, "POST", "/admin/api/pets", {
          headers: { Cookie: cookie, Origin: server.baseUrl, "Idempotency-Key": "add-pet-1" },
          body,
        });
      const eves = await add(eve);
      assert.equal(eves.status, 201, eves.text);
      const finns = await add(finn);
      assert.equal(finns.status, 201, finns.text);
      assert.equal(finns.headers.get("idempotent-replayed"), null, "not Eve's answer replayed");
      assert.notEqual(finns.body.id, eves.body.id);
      const eveAgain = await add(eve);
      assert.equal(eveAgain.headers.get("idempotent-replayed"), "true");
      assert.equal(eveAgain.text, eves.text);
      // An API client's key of the same text is its own, as before.
      const clients = await create(body, "add-pet-1");
      assert.equal(clients.status, 201);
      assert.equal(clients.headers.get("idempotent-replayed"), null);
      assert.equal((await create(body, "add-pet-1")).headers.get("idempotent-replayed"), "true");
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
    database = await createMigratedDatabase("sqlite");
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
      database = await createMigratedDatabase(provider);
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

// Every authenticated endpoint of the admin app, one row per operation: its route file under app/admin/api, the
// request, and a body. Targets that do not exist (ids 999) keep the rows free of side effects: the request is
// counted before its handler runs, whatever it then answers.
const ADMIN_ROUTES = path.resolve(import.meta.dirname, "../app/admin/api");
const CSV = "text/csv";
const adminOperations: { route: string; method: string; target: string; body?: string; type?: string }[] = [
  { route: "activity", method: "GET", target: "/admin/api/activity" },
  { route: "activity/export", method: "GET", target: "/admin/api/activity/export" },
  { route: "categories", method: "GET", target: "/admin/api/categories" },
  { route: "categories", method: "POST", target: "/admin/api/categories", body: "{}" },
  { route: "categories/[categoryId]", method: "PATCH", target: "/admin/api/categories/999", body: "{}" },
  { route: "categories/counts", method: "GET", target: "/admin/api/categories/counts" },
  { route: "keys", method: "GET", target: "/admin/api/keys" },
  { route: "keys", method: "POST", target: "/admin/api/keys", body: "{}" },
  { route: "keys/[keyId]", method: "DELETE", target: "/admin/api/keys/999" },
  { route: "orders", method: "GET", target: "/admin/api/orders?limit=1" },
  { route: "orders", method: "POST", target: "/admin/api/orders", body: "{}" },
  { route: "orders/[orderId]", method: "GET", target: "/admin/api/orders/999" },
  { route: "orders/[orderId]/[transition]", method: "POST", target: "/admin/api/orders/999/approve" },
  { route: "orders/[orderId]/history", method: "GET", target: "/admin/api/orders/999/history" },
  { route: "orders/counts", method: "GET", target: "/admin/api/orders/counts" },
  { route: "pets", method: "GET", target: "/admin/api/pets?limit=1" },
  { route: "pets", method: "POST", target: "/admin/api/pets", body: "{}" },
  { route: "pets/[petId]", method: "GET", target: "/admin/api/pets/999" },
  { route: "pets/[petId]", method: "PATCH", target: "/admin/api/pets/999", body: "{}" },
  { route: "pets/[petId]", method: "DELETE", target: "/admin/api/pets/999" },
  { route: "pets/[petId]/history", method: "GET", target: "/admin/api/pets/999/history" },
  { route: "pets/[petId]/photos", method: "GET", target: "/admin/api/pets/999/photos" },
  { route: "pets/[petId]/photos", method: "POST", target: "/admin/api/pets/999/photos", body: "x", type: "image/png" },
  { route: "pets/[petId]/photos", method: "PATCH", target: "/admin/api/pets/999/photos", body: "{}" },
  { route: "pets/[petId]/photos/[photoId]", method: "GET", target: "/admin/api/pets/999/photos/1" },
  { route: "pets/[petId]/photos/[photoId]", method: "PATCH", target: "/admin/api/pets/999/photos/1", body: "{}" },
  { route: "pets/[petId]/photos/[photoId]", method: "DELETE", target: "/admin/api/pets/999/photos/1" },
  { route: "pets/[petId]/restore", method: "POST", target: "/admin/api/pets/999/restore" },
  { route: "pets/batch", method: "POST", target: "/admin/api/pets/batch", body: "{}" },
  { route: "pets/counts", method: "GET", target: "/admin/api/pets/counts" },
  { route: "pets/covers", method: "GET", target: "/admin/api/pets/covers?ids=1" },
  { route: "pets/export", method: "GET", target: "/admin/api/pets/export" },
  { route: "pets/imports", method: "POST", target: "/admin/api/pets/imports", body: "name\nRex\n", type: CSV },
  {
    route: "pets/imports/[importId]",
    method: "GET",
    target: "/admin/api/pets/imports/00000000-0000-8000-8000-000000000000",
  },
  {
    route: "pets/imports/[importId]",
    method: "PUT",
    target: "/admin/api/pets/imports/00000000-0000-8000-8000-000000000000",
    body: "name\nRex\n",
    type: CSV,
  },
  {
    route: "pets/imports/bad-rows",
    method: "POST",
    target: "/admin/api/pets/imports/bad-rows",
    body: "name\n\n",
    type: CSV,
  },
  { route: "staff", method: "GET", target: "/admin/api/staff" },
  { route: "staff", method: "POST", target: "/admin/api/staff", body: "{}" },
  { route: "staff/[staffId]/disable", method: "POST", target: "/admin/api/staff/999/disable" },
  { route: "staff/[staffId]/enable", method: "POST", target: "/admin/api/staff/999/enable" },
  { route: "staff/[staffId]/password", method: "PUT", target: "/admin/api/staff/999/password", body: "{}" },
  { route: "staff/[staffId]/role", method: "PUT", target: "/admin/api/staff/999/role", body: "{}" },
  { route: "staff/[staffId]/unlock", method: "POST", target: "/admin/api/staff/999/unlock" },
  { route: "webhooks", method: "GET", target: "/admin/api/webhooks" },
  { route: "webhooks", method: "POST", target: "/admin/api/webhooks", body: "{}" },
  { route: "webhooks/[endpointId]", method: "GET", target: "/admin/api/webhooks/999" },
  { route: "webhooks/[endpointId]", method: "PATCH", target: "/admin/api/webhooks/999", body: "{}" },
  { route: "webhooks/[endpointId]", method: "DELETE", target: "/admin/api/webhooks/999" },
  { route: "webhooks/[endpointId]/secret", method: "GET", target: "/admin/api/webhooks/999/secret" },
  { route: "webhooks/[endpointId]/secret", method: "POST", target: "/admin/api/webhooks/999/secret" },
  { route: "webhooks/[endpointId]/deliveries", method: "GET", target: "/admin/api/webhooks/999/deliveries" },
  { route: "webhooks/[endpointId]/deliveries", method: "POST", target: "/admin/api/webhooks/999/deliveries" },
  {
    route: "webhooks/[endpointId]/deliveries/[deliveryId]/resend",
    method: "POST",
    target: "/admin/api/webhooks/999/deliveries/1/resend",
  },
];
// Sign-in and sign-out are not counted: sign-in has its own throttle. A path no endpoint has ([...missing]) is a
// 404 before anyone is identified, so it is not counted either (asserted below, once the bucket is spent).
const UNCOUNTED_ROUTES = ["session", "[...missing]"];
/** Routes whose answer does not end (the live stream): counted like the rest, and sent by the test itself. */
const STREAMED_ROUTES = ["events"];

/** The folders of app/admin/api that hold a route.ts, relative to it. */
function adminRouteFolders(dir = ADMIN_ROUTES): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isFile()) return entry.name === "route.ts" ? [path.relative(ADMIN_ROUTES, dir)] : [];
    return entry.isDirectory() ? adminRouteFolders(path.join(dir, entry.name)) : [];
  });
}

const remainingOf = (reply: Reply) => Number(/r=(\d+)/.exec(reply.headers.get("ratelimit") ?? "")?.[1]);

/** The 429 of a spent per-staff bucket, exactly as /v1 answers it. */
function assertStaffRateLimited(reply: Reply, name: string): void {
  assertError(reply, 429, "rate_limited");
  assert.match(reply.body.message, /this staff member/, name);
  const retryAfter = Number(reply.headers.get("retry-after"));
  assert.ok(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 3600, `${name}: Retry-After ${retryAfter}`);
  assert.equal(reply.headers.get("ratelimit"), `"per-staff";r=0;t=${retryAfter}`, name);
  assert.equal(reply.headers.get("ratelimit-policy"), `"per-staff";q=${ADMIN_QUOTA};w=3600`, name);
}

// Above the number of admin operations (each is sent once by the counting test), and below the cost of the largest
// import (80), which the last test needs.
const ADMIN_QUOTA = 60;

for (const provider of providers) {
  describe(`every admin endpoint counts against the staff member's bucket on ${provider}`, () => {
    let database: TestDatabase;
    let server: RunningServer;
    const send = (cookie: string, operation: (typeof adminOperations)[number]) =>
      call(server.baseUrl, operation.method, operation.target, {
        headers: {
          Cookie: cookie,
          Origin: server.baseUrl,
          ...(operation.body === undefined ? {} : { "Content-Type": operation.type ?? "application/json" }),
        },
        body: operation.body,
      });
    const csvOf = (bytes: number) => `name,categoryId\n"${"x".repeat(bytes - 21)}",1\n`;

    before(async () => {
      database = await createMigratedDatabase(provider);
      await createStaff(database.url, "boss@animal-store.example", "the boss's long password", "admin");
      await createStaff(database.url, "cleo@animal-store.example", "cleo's long password");
      await createStaff(database.url, "dan@animal-store.example", "dan's long password");
      await createStaff(database.url, "eve@animal-store.example", "eve's long password");
      server = await startServer("custom", database.url, {
        RATE_LIMIT_REQUESTS: String(ADMIN_QUOTA),
        RATE_LIMIT_WINDOW_SECONDS: "3600",
      });
    });
    after(async () => {
      await server?.stop();
      await database?.drop();
    });

    test("the table names every route of app/admin/api", () => {
      assert.deepEqual(
        adminRouteFolders().sort(),
        [
          ...new Set([...adminOperations.map((operation) => operation.route), ...UNCOUNTED_ROUTES, ...STREAMED_ROUTES]),
        ].sort(),
      );
    });

    test("each request counts once (a forward to /v1 too); once spent, every endpoint answers 429", async () => {
      const boss = await signInStaff(server.baseUrl, "boss@animal-store.example", "the boss's long password");
      let remaining = ADMIN_QUOTA;
      for (const operation of adminOperations) {
        const name = `${operation.method} ${operation.target}`;
        const reply = await send(boss, operation);
        assert.ok(
          reply.status < 500 && ![401, 403, 429].includes(reply.status),
          `${name}: ${reply.status} ${reply.text}`,
        );
        remaining--;
        assert.equal(remainingOf(reply), remaining, `${name} counts one: ${reply.headers.get("ratelimit")}`);
        assert.equal(reply.headers.get("ratelimit-policy"), `"per-staff";q=${ADMIN_QUOTA};w=3600`, name);
      }
      // The live stream counts one too: its answer's headers say so, and its body is left unread.
      const stream = await fetch(`${server.baseUrl}/admin/api/events`, { headers: { Cookie: boss } });
      assert.equal(stream.status, 200);
      remaining--;
      assert.equal(stream.headers.get("ratelimit")?.match(/r=(\d+)/)?.[1], String(remaining), "the stream counts one");
      await stream.body?.cancel();
      // Signing in again is not counted.
      const again = await signInStaff(server.baseUrl, "boss@animal-store.example", "the boss's long password");
      while (remaining > 0) {
        assert.equal((await send(again, adminOperations[0])).status, 200);
        remaining--;
      }
      for (const operation of adminOperations)
        assertStaffRateLimited(await send(again, operation), `${operation.method} ${operation.target}`);
      assertStaffRateLimited(
        await call(server.baseUrl, "GET", "/admin/api/events", { headers: { Cookie: again } }),
        "the stream",
      );
      const unknown = await call(server.baseUrl, "GET", "/admin/api/no-such-endpoint", { headers: { Cookie: again } });
      assert.equal(unknown.status, 404, `a path no endpoint has is not counted: ${unknown.text}`);
    });

    test("an import costs one request per started 64 KiB; one too large for what is left costs nothing", async () => {
      const cleo = await signInStaff(server.baseUrl, "cleo@animal-store.example", "cleo's long password");
      const dryRun = (body: string) =>
        call(server.baseUrl, "POST", "/admin/api/pets/imports", {
          headers: { Cookie: cleo, Origin: server.baseUrl, "Content-Type": CSV },
          body,
        });
      const unit = 64 * 1024;
      const costs: [number, number][] = [
        [unit, 1],
        [unit + 1, 2],
        [5 * unit, 5],
        [20 * unit - 100, 20],
      ];
      let remaining = ADMIN_QUOTA;
      for (const [bytes, cost] of costs) {
        const reply = await dryRun(csvOf(bytes));
        assert.notEqual(reply.status, 429, reply.text);
        remaining -= cost;
        assert.equal(remainingOf(reply), remaining, `${bytes} bytes cost ${cost}: ${reply.headers.get("ratelimit")}`);
      }
      assert.equal(remaining, 32);
      // 33 units do not fit in the 32 left: refused, and nothing of it is counted.
      // Refused from its head alone: the body is never sent (Node 26's fetch cannot read an answer given before it).
      const refused = await headOnlyCall(server.baseUrl, {
        method: "POST",
        path: "/admin/api/pets/imports",
        headers: { Cookie: cleo, Origin: server.baseUrl, "Content-Type": CSV },
        contentLength: 33 * unit,
      });
      assertError(refused, 429, "rate_limited");
      assert.equal(remainingOf(refused), 32);
      assert.ok(Number(refused.headers.get("retry-after")) > 0);
      const list = await call(server.baseUrl, "GET", "/admin/api/pets?limit=1", { headers: { Cookie: cleo } });
      assert.equal(list.status, 200);
      assert.equal(remainingOf(list), 31);
      // A file sent without Content-Length costs as much as the largest file an import takes (80).
      const chunked = asReply(
        await rawCall(server.baseUrl, {
          method: "POST",
          path: "/admin/api/pets/imports",
          headers: { Cookie: cleo, Origin: server.baseUrl, "Content-Type": CSV, "Transfer-Encoding": "chunked" },
          chunks: [Buffer.from("name\nRex\n")],
        }),
      );
      assertError(chunked, 429, "rate_limited");
      assert.equal(remainingOf(chunked), 31);
    });

    test("an upload costing more than the whole quota costs the whole quota: admitted in a fresh window", async () => {
      const eve = await signInStaff(server.baseUrl, "eve@animal-store.example", "eve's long password");
      // Chunked, it would cost 80 (the largest file), more than ADMIN_QUOTA: never admitted, whatever the wait.
      const chunked = asReply(
        await rawCall(server.baseUrl, {
          method: "POST",
          path: "/admin/api/pets/imports",
          headers: { Cookie: eve, Origin: server.baseUrl, "Content-Type": CSV, "Transfer-Encoding": "chunked" },
          chunks: [Buffer.from("name,categoryId\nRex,1\n")],
        }),
      );
      assert.equal(chunked.status, 200, chunked.text);
      assert.equal(remainingOf(chunked), 0);
    });

    test("a staff member's budget is one, whichever endpoint spends it; another's is untouched", async () => {
      const dan = await signInStaff(server.baseUrl, "dan@animal-store.example", "dan's long password");
      const history = adminOperations.find((operation) => operation.route === "pets/[petId]/history")!;
      for (let index = 0; index < ADMIN_QUOTA; index++) assert.equal((await send(dan, history)).status, 200);
      const forward = await call(server.baseUrl, "GET", "/admin/api/pets?limit=1", { headers: { Cookie: dan } });
      assertStaffRateLimited(forward, "the forward to /v1 after the history");
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
