import assert from "node:assert/strict";
import http from "node:http";
import { after, before, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { Webhook } from "standardwebhooks";
import { assertError, call, signInStaff } from "@/scripts/harness/http";
import {
  createMigratedDatabase,
  runScript,
  startServer,
  testProviders,
  type RunningServer,
  type TestDatabase,
} from "@/scripts/harness/servers";
import { createStaff } from "@/scripts/harness/fixtures";
import { storeServer, type StoreServer } from "@/scripts/harness/store-server";
import { databaseConfig } from "@/lib/config";
import { parseJson } from "@/lib/http/json";
import { createDatabase, type Database } from "@/lib/db/client";
import { ATTEMPT_TIMEOUT_MS, sendAttempt } from "@/lib/webhooks/send";
import { refusedAddress } from "@/lib/webhooks/address";
import type { DeliveryView } from "@/lib/webhooks/schema";

// Webhooks through server.ts on SQLite and PostgreSQL, to a real receiver on 127.0.0.1 (so these servers run with
// WEBHOOK_ALLOW_PRIVATE_URLS=on): every event after an endpoint's creation is delivered once, signed as Standard
// Webhooks says (verified with the `standardwebhooks` package, not our code), with the feed's own JSON; type
// filters; retries on the schedule with the same webhook-id, then failed; a 410 disables the endpoint; five days of
// failures too; both signatures after a rotation; no redirect followed and an endless answer cut. Then two
// instances on one PostgreSQL with one killed by SIGKILL mid-delivery: each attempt sent by one instance, and a
// resend only of what was in flight at the kill. And with the default settings, private and metadata addresses
// refused when an endpoint is made and again when connecting.

const providers = await testProviders();
const ADMIN = { email: "webhooks-admin@example.com", password: "a long enough password" };
/** Fast retries: attempts at once, after 1 s, after 1 s more. */
const SCHEDULE = "0,1,1";

type Received = { path: string; headers: http.IncomingHttpHeaders; body: string; at: number; answered: boolean };

type Answer = { status: number; body?: string; delayMs?: number; headers?: Record<string, string>; endless?: boolean };

/** A webhook receiver on 127.0.0.1: records every request, answers as `answer` says for its path. */
async function startReceiver(answer: (request: Received, count: number) => Answer = () => ({ status: 204 })) {
  const received: Received[] = [];
  const counts = new Map<string, number>();
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      const entry: Received = {
        path: request.url ?? "",
        headers: request.headers,
        body,
        at: Date.now(),
        answered: false,
      };
      received.push(entry);
      const count = (counts.get(entry.path) ?? 0) + 1;
      counts.set(entry.path, count);
      const { status, body: text = "", delayMs = 0, headers = {}, endless } = answer(entry, count);
      setTimeout(() => {
        if (response.destroyed) return;
        response.writeHead(status, headers);
        if (endless) {
          const chunk = Buffer.alloc(16 * 1024, "x");
          const pump = () => {
            while (!response.destroyed && response.write(chunk));
            if (!response.destroyed) response.once("drain", pump);
          };
          pump();
          return;
        }
        response.end(text, () => (entry.answered = true));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    on: (path: string) => received.filter((entry) => entry.path === path),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function waitFor<T>(what: string, check: () => T | Promise<T>, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** Verifies a delivery with the standardwebhooks package; returns its parsed body. */
function verified(secret: string, entry: Received): Record<string, unknown> {
  const headers = Object.fromEntries(
    ["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => [name, String(entry.headers[name])]),
  );
  return new Webhook(secret).verify(entry.body, headers) as Record<string, unknown>;
}

/** A describe block's store (scripts/harness/store-server.ts) with webhooks allowed to 127.0.0.1, and its database. */
function storeFor(provider: TestDatabase["provider"], env: Record<string, string> = {}) {
  const serverEnv = { WEBHOOK_ALLOW_PRIVATE_URLS: "on", WEBHOOK_RETRY_SCHEDULE: SCHEDULE, ...env };
  const { api, admin, state: store } = storeServer(provider, { env: serverEnv, admin: ADMIN });
  const state = store as StoreServer & { client: Database };
  before(() => {
    state.client = createDatabase(databaseConfig(state.database.url));
  });
  after(async () => {
    await state.client?.$disconnect();
  });
  /** Adds an endpoint through the admin endpoint; its id and secret. */
  const addEndpoint = async (url: string, eventTypes?: string[]) => {
    const reply = await admin("POST", "/admin/api/webhooks", { body: { url, ...(eventTypes && { eventTypes }) } });
    assert.equal(reply.status, 201, reply.text);
    return { id: Number(reply.body.endpoint.id), secret: reply.body.secret as string };
  };
  const addPet = async (name: string) => {
    const reply = await api("POST", "/v1/pets", { body: { name, categoryId: 1, status: "available" } });
    assert.equal(reply.status, 201, reply.text);
    return BigInt(reply.body.id);
  };
  const deliveries = async (endpointId: number) => {
    const reply = await admin("GET", `/admin/api/webhooks/${endpointId}/deliveries`);
    assert.equal(reply.status, 200, reply.text);
    // The harness reads every JSON integer as a bigint.
    return (reply.body.deliveries as Record<string, unknown>[]).map((row) => ({
      ...row,
      attempts: Number(row.attempts),
      lastStatus: row.lastStatus === null ? null : Number(row.lastStatus),
    })) as DeliveryView[];
  };
  return { api, admin, state, addEndpoint, addPet, deliveries, serverEnv };
}

for (const provider of providers) {
  describe(`webhooks (${provider})`, () => {
    const { api, admin, state, addEndpoint, addPet, deliveries, serverEnv } = storeFor(provider);

    test("each later event once, signed (standardwebhooks verifies), as the feed has it; type filters", async () => {
      const receiver = await startReceiver();
      try {
        await addPet("Before the endpoint");
        const head = (await api("GET", "/v1/events?after=0&limit=100")).body as { id: bigint }[];
        const lastBefore = head.at(-1)!.id;
        const all = await addEndpoint(receiver.url("/all"));
        const orders = await addEndpoint(receiver.url("/orders"), ["order.*"]);
        assert.match(all.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
        const pet = await addPet("Webhooked");
        assert.equal((await api("PATCH", `/v1/pets/${pet}`, { body: { status: "sold" } })).status, 200);
        const other = await addPet("Ordered");
        const order = await api("POST", "/v1/store/orders", { body: { petId: other, customerName: "Ada" } });
        assert.equal(order.status, 201, order.text);

        const feed = (await api("GET", `/v1/events?after=${lastBefore}&limit=100`)).body as {
          id: bigint;
          type: string;
        }[];
        assert.equal(feed.length, 5);
        await waitFor("the deliveries to /all", () => receiver.on("/all").length >= feed.length);
        await waitFor("the order deliveries", () => receiver.on("/orders").length >= 1);
        await sleep(1500); // nothing more arrives: no event twice, none from before the endpoint

        const sent = receiver.on("/all").map((entry) => verified(all.secret, entry));
        assert.deepEqual(
          sent.map((event) => event.type),
          feed.map((event) => event.type),
          "each event after the endpoint's creation, once, in order here (one at a time)",
        );
        for (const entry of receiver.on("/all")) {
          const event = parseJson(entry.body) as { id: bigint };
          assert.equal(entry.headers["webhook-id"], `evt_${event.id}`);
          assert.deepEqual(
            event,
            feed.find((candidate) => candidate.id === event.id),
            "the feed's JSON of the event",
          );
          assert.equal(entry.headers["content-type"], "application/json");
          assert.ok(Math.abs(Number(entry.headers["webhook-timestamp"]) - Date.now() / 1000) < 30);
        }
        const ordersSent = receiver.on("/orders").map((entry) => verified(orders.secret, entry));
        assert.deepEqual(
          ordersSent.map((event) => event.type),
          ["order.placed"],
          "an endpoint of order.* gets only order events",
        );
        assert.throws(
          () => verified(orders.secret, receiver.on("/all")[0]),
          "another endpoint's secret does not verify",
        );
        const rows = await deliveries(all.id);
        assert.equal(rows.length, 5);
        assert.ok(rows.every((row) => row.state === "succeeded" && row.attempts === 1 && row.lastStatus === 204));
      } finally {
        await receiver.close();
      }
    });

    // The CLI is the same store functions as the Webhooks page; a process run is its subject, so SQLite alone.
    if (provider === "sqlite")
      test("npm run webhook: create, list, disable, enable, rotate-secret, delete, as the worker sees", async () => {
        const receiver = await startReceiver();
        const webhook = async (...args: string[]) =>
          (await runScript("webhook.ts", args, state.database.url, undefined, serverEnv)).trimEnd();
        const lastLine = (printed: string) => printed.split("\n").at(-1)!;
        const deliveredTo = async (secret: string, name: string, alsoSecret?: string) => {
          const pet = await addPet(name);
          const entry = await waitFor(`the delivery of ${name}`, () =>
            receiver.on("/cli").find((each) => (parseJson(each.body) as { data: { id: bigint } }).data.id === pet),
          );
          assert.equal(verified(secret, entry).type, "pet.created");
          if (alsoSecret) assert.equal(verified(alsoSecret, entry).type, "pet.created", "the other secret signs too");
        };
        try {
          const created = await webhook("create", receiver.url("/cli"), "--events", "pet.created,order.*");
          const secret = lastLine(created);
          assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/, created);
          // A `kind.*` selection is kept as the types it names (lib/webhooks/schema.ts).
          const orderTypes = "order.placed, order.approved, order.delivered, order.cancelled, order.expired";
          const id = new RegExp(
            `^Created webhook endpoint (\\d+) for \\S+ \\(pet\\.created, ${orderTypes}\\)\\. Its signing secret:$`,
            "m",
          ).exec(created)?.[1];
          assert.ok(id, created);
          await deliveredTo(secret, "Told by the CLI's endpoint");
          assert.match(
            await webhook("list"),
            new RegExp(
              `^${id}\\s+${receiver.url("/cli")}\\s+pet\\.created,${orderTypes.replaceAll(", ", ",")}\\s+enabled\\s`,
              "m",
            ),
          );

          assert.equal(await webhook("disable", id), `Webhook endpoint ${id} is now disabled.`);
          assert.equal(await webhook("disable", id), `Webhook endpoint ${id} was already disabled.`);
          assert.match(await webhook("list"), new RegExp(`^${id}\\s.*\\sdisabled: `, "m"));
          const before = receiver.on("/cli").length;
          await addPet("While it is disabled");
          await sleep(1500);
          assert.equal(receiver.on("/cli").length, before, "a disabled endpoint gets nothing");
          assert.equal(await webhook("enable", id), `Webhook endpoint ${id} is now enabled.`);
          await deliveredTo(secret, "After enabling");

          const rotated = await webhook("rotate-secret", id);
          const newSecret = lastLine(rotated);
          assert.match(newSecret, /^whsec_[A-Za-z0-9+/]{43}=$/, rotated);
          assert.notEqual(newSecret, secret);
          assert.match(
            rotated,
            new RegExp(`^Rotated the secret of webhook endpoint ${id}; the old one also signs until `),
          );
          await deliveredTo(newSecret, "After the rotation", secret);

          for (const action of ["webhook.created", "webhook.disabled", "webhook.enabled", "webhook.secret_rotated"]) {
            const records = (await admin("GET", `/admin/api/activity?action=${action}&limit=5`)).body as {
              actor: { type: string; label: string };
            }[];
            assert.ok(
              records.some((record) => record.actor.type === "cli" && record.actor.label === "command line"),
              `${action} recorded as the command line's`,
            );
          }

          assert.equal(await webhook("delete", id), `Deleted webhook endpoint ${id} and its deliveries.`);
          // The endpoints of the tests before this one remain; this one is gone from the list.
          assert.doesNotMatch(await webhook("list"), new RegExp(`^${id}\\s`, "m"));
          const gone = await runScript("webhook.ts", ["delete", id], state.database.url).then(
            () => assert.fail("a second delete was accepted"),
            (error: Error & { code?: number; stderr?: string }) => error,
          );
          assert.equal(gone.code, 2);
          assert.match(gone.stderr!, new RegExp(`No webhook endpoint has id ${id}\\.`));
        } finally {
          await receiver.close();
        }
      });

    // Ten seconds of waiting: SQLite alone, the worker's timer being the subject.
    if (provider === "sqlite")
      test(`an attempt unanswered in ${ATTEMPT_TIMEOUT_MS / 1000} s fails, hung up on, and is retried`, async () => {
        const hungUp: number[] = [];
        const silent = http.createServer((request) => {
          request.resume();
          request.socket.once("close", () => hungUp.push(Date.now())); // never answered
        });
        await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
        const { port } = silent.address() as { port: number };
        try {
          const endpoint = await addEndpoint(`http://127.0.0.1:${port}/silent`, ["pet.created"]);
          await addPet("Never acknowledged");
          const [row] = await waitFor(
            "the first attempt to time out",
            async () => {
              const rows = await deliveries(endpoint.id);
              return rows[0]?.lastError ? rows : undefined;
            },
            ATTEMPT_TIMEOUT_MS + 15_000,
          );
          assert.equal(row.lastError, `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`);
          assert.equal(row.lastStatus, null);
          assert.ok(Number(row.lastDurationMs) >= ATTEMPT_TIMEOUT_MS, `${row.lastDurationMs} ms`);
          assert.equal(row.state, "pending", "tried again on the schedule");
          assert.ok(hungUp.length >= 1, "the connection was closed");
          await admin("DELETE", `/admin/api/webhooks/${endpoint.id}`);
        } finally {
          silent.closeAllConnections();
          await new Promise<void>((resolve) => silent.close(() => resolve()));
        }
      });

    test("a failing endpoint is retried on the schedule with one webhook-id, then the delivery fails", async () => {
      const receiver = await startReceiver((entry, count) => ({
        status: entry.path === "/flaky" && count >= 3 ? 200 : 500,
      }));
      try {
        const flaky = await addEndpoint(receiver.url("/flaky"), ["pet.created"]);
        const broken = await addEndpoint(receiver.url("/broken"), ["pet.created"]);
        await addPet("Retried");
        await waitFor(
          "three attempts each",
          () => receiver.on("/flaky").length >= 3 && receiver.on("/broken").length >= 3,
        );
        await waitFor("the broken delivery to fail", async () => (await deliveries(broken.id))[0]?.state === "failed");
        await sleep(1500);
        for (const path of ["/flaky", "/broken"]) {
          const attempts = receiver.on(path);
          assert.equal(attempts.length, 3, `${path}: the schedule's three attempts, no more`);
          assert.equal(new Set(attempts.map((entry) => entry.headers["webhook-id"])).size, 1, "one webhook-id");
          const gaps = attempts.slice(1).map((entry, index) => entry.at - attempts[index].at);
          assert.ok(
            gaps.every((gap) => gap >= 900),
            `${path}: about a second between attempts: ${gaps.join(", ")}`,
          );
        }
        const [flakyRow] = await deliveries(flaky.id);
        assert.deepEqual([flakyRow.state, flakyRow.attempts, flakyRow.lastStatus], ["succeeded", 3, 200]);
        const [brokenRow] = await deliveries(broken.id);
        assert.deepEqual([brokenRow.state, brokenRow.attempts, brokenRow.lastStatus], ["failed", 3, 500]);
        const endpoint = await admin("GET", `/admin/api/webhooks/${broken.id}`);
        assert.ok(endpoint.body.endpoint.failingSince, "the failing endpoint says since when");
        assert.equal(endpoint.body.endpoint.state, "enabled", "a failed delivery alone does not disable it");
        await admin("DELETE", `/admin/api/webhooks/${flaky.id}`);
        await admin("DELETE", `/admin/api/webhooks/${broken.id}`);
      } finally {
        await receiver.close();
      }
    });

    test("a 410 disables the endpoint at once; five days of failures disable it too, saying why", async () => {
      const receiver = await startReceiver((entry) => ({ status: entry.path === "/gone" ? 410 : 503 }));
      try {
        const gone = await addEndpoint(receiver.url("/gone"), ["pet.created"]);
        const failing = await addEndpoint(receiver.url("/failing"), ["pet.created"]);
        await state.client.webhookEndpoint.update({
          where: { id: failing.id },
          data: { failingSince: new Date(Date.now() - 5 * 24 * 3600 * 1000 - 60_000) },
        });
        await addPet("Gone");
        const disabled = async (id: number) => {
          const reply = await admin("GET", `/admin/api/webhooks/${id}`);
          return reply.body.endpoint.state === "disabled" ? reply.body.endpoint : undefined;
        };
        const goneEndpoint = await waitFor("the 410 to disable", () => disabled(gone.id));
        assert.match(goneEndpoint.disabledReason, /410 Gone/);
        const failingEndpoint = await waitFor("five days to disable", () => disabled(failing.id));
        assert.match(failingEndpoint.disabledReason, /five days.*answered 503/);
        assert.equal(receiver.on("/gone").length, 1, "no retry after a 410");
        assert.equal((await deliveries(gone.id))[0].state, "failed");
        await addPet("After the 410");
        await sleep(1500);
        assert.equal(receiver.on("/gone").length, 1, "a disabled endpoint gets nothing");
        const activity = await admin("GET", "/admin/api/activity?action=webhook.disabled");
        assert.equal(activity.status, 200, activity.text);
        assert.match(activity.text, /410 Gone/);
      } finally {
        await receiver.close();
      }
    });

    test("after a rotation both secrets sign for a day; a test message; a resend keeps the webhook-id", async () => {
      const receiver = await startReceiver();
      try {
        const endpoint = await addEndpoint(receiver.url("/rotated"), ["pet.updated"]);
        const rotated = await admin("POST", `/admin/api/webhooks/${endpoint.id}/secret`);
        assert.equal(rotated.status, 200, rotated.text);
        const secret = rotated.body.secret as string;
        assert.notEqual(secret, endpoint.secret);
        const until = Date.parse(rotated.body.endpoint.previousSecretUntil);
        assert.ok(Math.abs(until - Date.now() - 24 * 3600 * 1000) < 60_000, "the old secret signs for 24 hours");
        assert.equal((await admin("GET", `/admin/api/webhooks/${endpoint.id}/secret`)).body.secret, secret);
        const pet = await addPet("Rotated");
        await api("PATCH", `/v1/pets/${pet}`, { body: { name: "Rotated twice" } });
        const entry = await waitFor("the delivery", () => receiver.on("/rotated")[0]);
        assert.equal(String(entry.headers["webhook-signature"]).split(" ").length, 2);
        verified(secret, entry);
        verified(endpoint.secret, entry);

        const test = await admin("POST", `/admin/api/webhooks/${endpoint.id}/deliveries`);
        assert.equal(test.status, 201, test.text);
        const testEntry = await waitFor("the test message", () =>
          receiver.on("/rotated").find((received) => JSON.parse(received.body).type === "webhook.test"),
        );
        assert.equal((verified(secret, testEntry).data as { endpointId: number }).endpointId, endpoint.id);

        const [first] = (await deliveries(endpoint.id)).filter((row) => row.eventId !== null);
        const resent = await admin("POST", `/admin/api/webhooks/${endpoint.id}/deliveries/${first.id}/resend`);
        assert.equal(resent.status, 201, resent.text);
        await waitFor("the resend", () => receiver.on("/rotated").length === 3);
        const ids = receiver.on("/rotated").map((received) => received.headers["webhook-id"]);
        assert.equal(ids[2], ids[0], "a resend carries the event's webhook-id");
        assertError(
          await admin("POST", `/admin/api/webhooks/${endpoint.id}/deliveries/999999/resend`),
          404,
          "not_found",
        );
      } finally {
        await receiver.close();
      }
    });

    test("no redirect followed; an endless answer is cut at 64 KiB and the status stands", async () => {
      const receiver = await startReceiver((entry) =>
        entry.path === "/moved"
          ? { status: 302, headers: { Location: receiver.url("/target") } }
          : entry.path === "/binary"
            ? { status: 200, body: "\u0000\u0001 binary" }
            : { status: 200, endless: true },
      );
      try {
        const moved = await addEndpoint(receiver.url("/moved"), ["pet.created"]);
        const endless = await addEndpoint(receiver.url("/endless"), ["pet.created"]);
        const binary = await addEndpoint(receiver.url("/binary"), ["pet.created"]);
        const started = Date.now();
        await addPet("Redirected");
        await waitFor(
          "the endless answer's delivery",
          async () => (await deliveries(endless.id))[0]?.state === "succeeded",
        );
        assert.ok(Date.now() - started < 8000, "an endless answer does not hold the attempt");
        await waitFor("the redirect to fail", async () => (await deliveries(moved.id))[0]?.state === "failed");
        assert.equal(receiver.on("/target").length, 0, "the redirect was not followed");
        assert.equal((await deliveries(moved.id))[0].lastStatus, 302);
        // A NUL in an answer (which PostgreSQL's text refuses) is kept as U+FFFD: the outcome is recorded, once.
        await waitFor(
          "the binary answer's delivery",
          async () => (await deliveries(binary.id))[0]?.state === "succeeded",
        );
        assert.equal((await deliveries(binary.id))[0].lastResponse, "\ufffd\ufffd binary");
        assert.equal(receiver.on("/binary").length, 1);
      } finally {
        await receiver.close();
      }
    });

    test("the admin endpoints: bad input named, admins only, deleting removes the deliveries", async () => {
      assertError(
        await admin("POST", "/admin/api/webhooks", { body: { url: "ftp://example.com/" } }),
        400,
        "webhook_url_refused",
      );
      assertError(await admin("POST", "/admin/api/webhooks", { body: { url: 3 } }), 400, "invalid_body", "url");
      assertError(
        await admin("POST", "/admin/api/webhooks", {
          body: { url: "https://example.com/", eventTypes: ["pet.eaten"] },
        }),
        400,
        "invalid_body",
      );
      assertError(await admin("PATCH", "/admin/api/webhooks/1", { body: { state: "paused" } }), 400, "invalid_body");
      assertError(await admin("GET", "/admin/api/webhooks/424242"), 404, "not_found");
      assertError(await call(state.server.baseUrl, "GET", "/admin/api/webhooks"), 401, "session_required");
      await createStaff(state.database.url, "webhooks-staff@example.com", ADMIN.password, "staff");
      const staffCookie = await signInStaff(state.server.baseUrl, "webhooks-staff@example.com", ADMIN.password);
      assertError(
        await call(state.server.baseUrl, "GET", "/admin/api/webhooks", { headers: { Cookie: staffCookie } }),
        403,
        "admin_role_required",
      );
      const endpoint = await addEndpoint("https://example.com/hook");
      const disabled = await admin("PATCH", `/admin/api/webhooks/${endpoint.id}`, { body: { state: "disabled" } });
      assert.deepEqual([disabled.body.endpoint.state, disabled.body.changed], ["disabled", true]);
      assert.equal(
        (await admin("PATCH", `/admin/api/webhooks/${endpoint.id}`, { body: { state: "disabled" } })).body.changed,
        false,
      );
      const parked = await admin("POST", `/admin/api/webhooks/${endpoint.id}/deliveries`);
      assert.equal(parked.status, 201);
      assert.equal(parked.body.delivery.nextAttemptAt, null, "a disabled endpoint's delivery waits, not due");
      assertError(
        await admin("POST", `/admin/api/webhooks/${endpoint.id}/deliveries/99999999999999999999/resend`),
        400,
        "invalid_path",
      );
      assert.equal((await admin("DELETE", `/admin/api/webhooks/${endpoint.id}`)).status, 204);
      assert.equal(await state.client.webhookDelivery.count({ where: { endpointId: endpoint.id } }), 0);
      assertError(await admin("DELETE", `/admin/api/webhooks/${endpoint.id}`), 404, "not_found");
    });
  });
}

if (providers.includes("postgresql")) {
  describe("two instances on one PostgreSQL, one killed with SIGKILL mid-delivery", () => {
    const { state, addEndpoint, addPet, serverEnv } = storeFor("postgresql", { WEBHOOK_LEASE_SECONDS: "15" });

    test("one delivery per event; each attempt sent by one instance; a resend only of what was in flight", async () => {
      const HOLD_MS = 2500;
      const receiver = await startReceiver(() => ({ status: 200, delayMs: HOLD_MS }));
      const second = await startServer("custom", state.database.url, { ...serverEnv, WEBHOOK_LEASE_SECONDS: "15" });
      let restarted: RunningServer | undefined;
      try {
        const endpoint = await addEndpoint(receiver.url("/both"));
        const pets = 40;
        for (let index = 0; index < pets; index++) await addPet(`Pet ${index}`);
        // Wait until the receiver holds a request of a delivery the first instance leased (a lease alone is not
        // enough: the instance reads the endpoint and the event before it sends), then kill it mid-delivery.
        const sendingFirst = async () => {
          const leased = await state.client.webhookDelivery.findMany({
            where: { state: "pending", leaseOwner: { contains: `:${state.server.pid}:` } },
            select: { messageId: true },
          });
          const held = new Set(
            receiver
              .on("/both")
              .filter((entry) => !entry.answered)
              .map((entry) => String(entry.headers["webhook-id"])),
          );
          return leased.some((row) => held.has(row.messageId));
        };
        await waitFor("the first instance to be sending", sendingFirst);
        process.kill(state.server.pid, "SIGKILL");
        await state.server.stop();
        // Taken once the process is gone: whatever it sent, it sent before this.
        const killedAt = Date.now();
        restarted = await startServer("custom", state.database.url, { ...serverEnv, WEBHOOK_LEASE_SECONDS: "15" });
        await waitFor(
          "every delivery to succeed",
          async () =>
            (await state.client.webhookDelivery.count({
              where: { endpointId: endpoint.id, state: { not: "succeeded" } },
            })) === 0,
          60_000,
        );
        const rows = await state.client.webhookDelivery.findMany({ where: { endpointId: endpoint.id } });
        assert.equal(rows.length, pets, "one delivery per event, across two instances");
        assert.equal(new Set(rows.map((row) => String(row.eventId))).size, pets);

        const byId = new Map<string, Received[]>();
        for (const entry of receiver.on("/both")) {
          verified(endpoint.secret, entry);
          const id = String(entry.headers["webhook-id"]);
          byId.set(id, [...(byId.get(id) ?? []), entry]);
        }
        assert.equal(byId.size, pets, "every event reached the receiver");
        const twice = [...byId.values()].filter((entries) => entries.length > 1);
        assert.ok(twice.length > 0, "the killed instance had something in flight, sent again after its lease");
        for (const entries of twice) {
          assert.equal(entries.length, 2, "sent again once");
          assert.ok(entries[0].at <= killedAt, "a message sent twice was first sent before the kill");
        }
        const beforeKill = receiver.received.filter((entry) => entry.at <= killedAt);
        assert.equal(
          new Set(beforeKill.map((entry) => entry.headers["webhook-id"])).size,
          beforeKill.length,
          "while both ran, no message was sent by both",
        );
      } finally {
        await second.stop();
        await restarted?.stop();
        await receiver.close();
      }
    });
  });
}

describe("not a door into the network (the default settings)", () => {
  const refusedUrls = [
    "http://127.0.0.1/hook",
    "http://localhost:8080/",
    "http://10.1.2.3/",
    "http://192.168.0.10/",
    "http://172.16.5.4/",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[fd00::1]/",
    "http://[fe80::1]/",
    "http://0.0.0.0/",
    "http://2130706433/",
    "http://224.0.0.1/",
    "http://100.64.0.1/",
    "file:///etc/passwd",
    "gopher://example.com/",
    "http://user:password@example.com/",
  ];

  test("npm run webhook -- create refuses private, metadata and odd URLs, saying why", async () => {
    const database = await createMigratedDatabase("sqlite");
    try {
      for (const url of refusedUrls) {
        const failure = await runScript("webhook.ts", ["create", url], database.url).then(
          () => assert.fail(`${url} was accepted`),
          (error: Error & { code?: number; stderr?: string }) => error,
        );
        assert.equal(failure.code, 2, `${url}: ${failure.stderr}`);
        assert.match(failure.stderr!, /Refused|Only http and https|user name or password/, url);
      }
      assert.match(await runScript("webhook.ts", ["list"], database.url), /No webhook endpoints/);
    } finally {
      await database.drop();
    }
  });

  test("at connect time too: a name resolving to loopback, or an address literal, is not connected to", async () => {
    let reached = 0;
    const server = http.createServer((_request, response) => {
      reached++;
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      const byName = await sendAttempt(new URL(`http://localhost:${port}/`), {}, "{}");
      assert.equal(byName.ok, false);
      assert.match(byName.error!, /localhost resolves to 127\.0\.0\.1, a loopback address/);
      const literal = await sendAttempt(new URL(`http://127.0.0.1:${port}/`), {}, "{}");
      assert.match(literal.error!, /127\.0\.0\.1 is a loopback address/);
      assert.equal(reached, 0, "nothing reached the private server");
    } finally {
      server.close();
    }
    assert.equal(refusedAddress("93.184.215.14"), undefined, "a public address is fine");
    assert.equal(refusedAddress("2606:2800:21f:cb07:6820:80da:af6b:8b2c"), undefined);
  });
});
