import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { assertError, call, signInStaff } from "@/scripts/harness/http";
import { createStaff } from "@/scripts/harness/fixtures";
import {
  createMigratedDatabase,
  runScript,
  startServer,
  testProviders,
  type RunningServer,
} from "@/scripts/harness/servers";
import { storeServer, type Api } from "@/scripts/harness/store-server";
import { COMMAND_LINE } from "@/lib/audit/record";
import { databaseConfig } from "@/lib/config";
import { transaction, withDatabase } from "@/lib/db/client";
import { EVENTS_LOCK } from "@/lib/events/outbox";
import { EVENT_TYPES } from "@/lib/events/schema";
import { listEvents } from "@/lib/events/store";
import { createPets } from "@/lib/pets/store";
import pg from "pg";

// The events feed (GET /v1/events) over HTTP through server.ts on SQLite and PostgreSQL: every change to a pet, an
// order or a category writes exactly one event per resource it changes, in its own transaction (a refused change
// none), with the resource as its /v1 read shows it; the feed's paging, filters and bad queries; and the follower's
// promise under concurrent writers: asking for `after=<the last id seen>` sees every committed event exactly once,
// in id order.

const providers = await testProviders();
const ADMIN = { email: "events-admin@example.com", password: "a long enough password" };

type Event = { id: bigint; type: string; occurredAt: string; data: Record<string, unknown>; previous?: object };

/** Every event after `after`, following the feed's Link rel="next" until a page comes back empty. */
async function follow(api: Api, after: bigint, query = ""): Promise<Event[]> {
  const seen: Event[] = [];
  let target = `/v1/events?after=${after}&limit=100${query}`;
  for (;;) {
    const reply = await api("GET", target);
    assert.equal(reply.status, 200, reply.text);
    const page = reply.body as Event[];
    seen.push(...page);
    const link = /<([^>]+)>; rel="next"/.exec(reply.headers.get("link") ?? "")?.[1];
    assert.ok(link, "a Link rel=next on every page");
    if (page.length === 0) {
      assert.equal(
        new URL(link, "http://x").searchParams.get("after"),
        new URL(target, "http://x").searchParams.get("after"),
      );
      return seen;
    }
    assert.equal(new URL(link, "http://x").searchParams.get("after"), String(page.at(-1)!.id));
    target = link;
  }
}

/**
 * A transaction that writes one event as the outbox does on PostgreSQL (its advisory lock, then the row) and
 * commits `holdMs` later; resolves once it has its row, with the promise of its commit.
 */
async function slowEventWriter(url: string, holdMs: number): Promise<{ committed: Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("BEGIN");
  await client.query("SELECT pg_advisory_xact_lock($1)", [EVENTS_LOCK.toString()]);
  await client.query(
    `INSERT INTO events (type, occurred_at, data) VALUES ('category.created', now(), '{"id":999,"name":"Slow"}')`,
  );
  const committed = (async () => {
    await sleep(holdMs);
    await client.query("COMMIT");
    await client.end();
  })();
  return { committed };
}

/** The id of the newest event, 0 when none. */
async function lastEventId(api: Api): Promise<bigint> {
  const events = await follow(api, 0n);
  return events.at(-1)?.id ?? 0n;
}

for (const provider of providers) {
  describe(`the events feed on ${provider} (server.ts)`, () => {
    const { api, admin, state } = storeServer(provider, { env: { ORDER_HOLD_SECONDS: "2" }, admin: ADMIN });

    test("pet life: created, updated (and previous), deleted (last state), restored, as /v1 shows it", async () => {
      const from = await lastEventId(api);
      const created = await api("POST", "/v1/pets", { body: { name: "Biscuit", categoryId: 3, status: "available" } });
      assert.equal(created.status, 201, created.text);
      const id = created.body.id as bigint;
      const updated = await api("PATCH", `/v1/pets/${id}`, {
        body: { name: "Biscuit II", status: "sold" },
        headers: { "Content-Type": "application/merge-patch+json" },
      });
      assert.equal(updated.status, 200, updated.text);
      const read = (await api("GET", `/v1/pets/${id}`)).body;
      assert.equal((await admin("DELETE", `/admin/api/pets/${id}`)).status, 204);
      const restored = await admin("POST", `/admin/api/pets/${id}/restore`);
      assert.equal(restored.status, 200, restored.text);

      const events = await follow(api, from);
      assert.deepEqual(
        events.map((event) => event.type),
        ["pet.created", "pet.updated", "pet.deleted", "pet.restored"],
      );
      assert.deepEqual(events[0].data, created.body);
      assert.deepEqual(events[1].data, read);
      assert.deepEqual(events[1].previous, { name: "Biscuit", status: "available" });
      assert.deepEqual(events[2].data, read, "a deleted pet's event has its last state");
      assert.equal(events[2].previous, undefined);
      assert.deepEqual(events[3].data, read);
      for (const [index, event] of events.entries()) {
        if (index > 0) assert.ok(event.id > events[index - 1].id, "ascending ids");
        assert.ok(Math.abs(Date.parse(event.occurredAt) - Date.now()) < 60_000, event.occurredAt);
        assert.match(event.occurredAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      }
    });

    test("an order writes its own event and its pet's; expiry too; a refused change writes none", async () => {
      const petId = (await api("POST", "/v1/pets", { body: { name: "Luna", categoryId: 1, status: "available" } })).body
        .id as bigint;
      const from = await lastEventId(api);
      const placed = await api("POST", "/v1/store/orders", { body: { petId, customerName: "Ada Lovelace" } });
      assert.equal(placed.status, 201, placed.text);
      const orderId = placed.body.id as bigint;
      // Refused: the pet is held; a bad body; a transition the status forbids. None writes an event.
      assertError(
        await api("POST", "/v1/store/orders", { body: { petId, customerName: "Grace" } }),
        409,
        "pet_not_available",
      );
      assertError(await api("POST", "/v1/store/orders", { body: { petId, customerName: "" } }), 400, "invalid_body");
      assertError(await api("PATCH", `/v1/pets/${petId}`, { body: { status: "sold" } }), 409, "pet_on_hold");
      const approved = await api("POST", `/v1/store/orders/${orderId}/approve`);
      assert.equal(approved.status, 200, approved.text);
      assertError(await api("POST", `/v1/store/orders/${orderId}/approve`), 409, "order_status_conflict");
      const delivered = await api("POST", `/v1/store/orders/${orderId}/deliver`);
      assert.equal(delivered.status, 200, delivered.text);

      const events = await follow(api, from);
      assert.deepEqual(
        events.map((event) => event.type),
        ["order.placed", "pet.updated", "order.approved", "order.delivered", "pet.updated"],
      );
      assert.deepEqual(events[0].data, placed.body);
      assert.equal(events[0].previous, undefined);
      assert.deepEqual(events[1].data, { id: petId, name: "Luna", categoryId: 1n, status: "pending" });
      assert.deepEqual(events[1].previous, { status: "available" });
      assert.deepEqual(events[2].data, approved.body);
      assert.deepEqual(events[2].previous, { status: "placed", expiresAt: placed.body.expiresAt, approvedAt: null });
      assert.deepEqual(events[3].data, delivered.body);
      assert.deepEqual(events[3].previous, { status: "approved", deliveredAt: null });
      assert.deepEqual(events[4].data, (await api("GET", `/v1/pets/${petId}`)).body);
      assert.deepEqual(events[4].previous, { status: "pending" });

      // A 2 s hold, run out: order.expired and the pet available again, written by the first request after it.
      const otherPet = (await api("POST", "/v1/pets", { body: { name: "Pip", categoryId: 1, status: "available" } }))
        .body.id as bigint;
      const held = (await api("POST", "/v1/store/orders", { body: { petId: otherPet, customerName: "Alan" } })).body;
      const beforeExpiry = await lastEventId(api);
      await sleep(Date.parse(held.expiresAt as string) - Date.now() + 50);
      const expired = await follow(api, beforeExpiry);
      assert.deepEqual(
        expired.map((event) => [event.type, event.data.id]),
        [
          ["order.expired", held.id],
          ["pet.updated", otherPet],
        ],
      );
      assert.equal(expired[0].data.status, "expired");
      assert.deepEqual(expired[1].previous, { status: "pending" });
    });

    test("categories: created and renamed (previous name), through the admin app", async () => {
      const from = await lastEventId(api);
      const added = await admin("POST", "/admin/api/categories", { body: { name: "Ferrets" } });
      assert.equal(added.status, 201, added.text);
      const id = added.body.id as bigint;
      const renamed = await admin("PATCH", `/admin/api/categories/${id}`, { body: { name: "Ferrets & co" } });
      assert.equal(renamed.status, 200, renamed.text);
      assertError(
        await admin("POST", "/admin/api/categories", { body: { name: "ferrets & CO" } }),
        409,
        "category_name_taken",
      );
      const events = await follow(api, from);
      assert.deepEqual(
        events.map((event) => [event.type, event.data, event.previous]),
        [
          ["category.created", { id, name: "Ferrets" }, undefined],
          ["category.renamed", { id, name: "Ferrets & co" }, { name: "Ferrets" }],
        ],
      );
    });

    test("paging, type and prefix filters, limit; bad queries are 400 naming the parameter", async () => {
      const from = await lastEventId(api);
      for (const name of ["A", "B", "C"])
        await api("POST", "/v1/pets", { body: { name, categoryId: 1, status: "available" } });
      const first = await api("GET", `/v1/events?after=${from}&limit=2`);
      assert.equal(first.status, 200);
      assert.deepEqual(
        (first.body as Event[]).map((event) => event.data.name),
        ["A", "B"],
      );
      const last = (first.body as Event[])[1].id;
      assert.equal(first.headers.get("link"), `</v1/events?after=${last}&limit=2>; rel="next"`);
      const empty = await api("GET", `/v1/events?after=${last + 1000n}&type=order.*`);
      assert.deepEqual(empty.body, []);
      assert.equal(empty.headers.get("link"), `</v1/events?after=${last + 1000n}&limit=20&type=order.*>; rel="next"`);

      const all = await follow(api, 0n);
      const pets = await follow(api, 0n, "&type=pet.*");
      assert.deepEqual(
        pets,
        all.filter((event) => event.type.startsWith("pet.")),
      );
      const placed = await follow(api, 0n, "&type=order.placed");
      assert.ok(placed.length > 0);
      assert.deepEqual(
        placed,
        all.filter((event) => event.type === "order.placed"),
      );
      assert.equal((await api("GET", "/v1/events")).body.length, 20, "the default limit");
      assert.deepEqual((await api("GET", "/v1/events?limit=1")).body, all.slice(0, 1), "from the oldest");

      for (const [query, path] of [
        ["type=pet", "type"],
        ["type=pet.*.*", "type"],
        ["type=*", "type"],
        ["type=staff.created", "type"],
        ["type=pet.updated&type=pet.created", "type"],
        ["after=-1", "after"],
        ["after=1.5", "after"],
        ["after=9223372036854775808", "after"],
        ["limit=0", "limit"],
        ["limit=101", "limit"],
        ["cursor=abc", "cursor"],
      ]) {
        const reply = await api("GET", `/v1/events?${query}`);
        assertError(reply, 400, "invalid_query");
        assert.ok(
          (reply.body.errors as { path: string }[]).some((error) => error.path === path),
          `${query}: ${reply.text}`,
        );
      }
      assertError(await call(state.server.baseUrl, "GET", "/v1/events"), 401, "unauthorized");
    });

    test("followers see every committed event exactly once, in id order, while 16 clients write at once", async () => {
      const from = await lastEventId(api);
      // Without the outbox's lock, PostgreSQL commits ids out of order and a follower reading in between skips one.
      // With the lock taken out of lib/events/outbox.ts this test failed every run on PostgreSQL (the slow writer
      // below), and one in three without the slow writer.
      const WRITERS = 16;
      const EACH = provider === "postgresql" ? 20 : 8;
      let writing = true;
      const poll = async () => {
        const seen: bigint[] = [];
        let position = from;
        while (writing || position < (await lastEventId(api))) {
          const page = (await api("GET", `/v1/events?after=${position}&limit=100`)).body as Event[];
          for (const event of page) seen.push(event.id);
          position = page.at(-1)?.id ?? position;
        }
        return seen;
      };
      const followers = Promise.all([poll(), poll(), poll()]);
      // On PostgreSQL, one slow writer as the outbox writes (its lock, then its row), committing a second later: the
      // app's writers must queue behind it, or their later ids would be served before its earlier one commits.
      const slow = provider === "postgresql" ? await slowEventWriter(state.database.url, 1000) : undefined;
      await Promise.all(
        Array.from({ length: WRITERS }, async (_, writer) => {
          for (let index = 0; index < EACH; index++) {
            const created = await api("POST", "/v1/pets", {
              body: { name: `w${writer}-${index}`, categoryId: 1, status: "available" },
            });
            assert.equal(created.status, 201, created.text);
            const id = created.body.id as bigint;
            // A second change of the same request's pet, so that transactions of two statements interleave too.
            await api("PATCH", `/v1/pets/${id}`, { body: { status: "sold" } });
          }
        }),
      );
      await slow?.committed;
      writing = false;
      const seen = await followers;
      const committed = (await follow(api, from)).map((event) => event.id);
      assert.equal(committed.length, WRITERS * EACH * 2 + (slow ? 1 : 0));
      for (const ids of seen)
        assert.deepEqual(ids, committed, "a follower saw what was committed, once each, in order");
    });
  });
}

/** The messages of a server-sent events stream as they come: `next()` waits for one (at most `ms`). */
function sseReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const messages: { id?: string; event?: string; data?: string }[] = [];
  let ended = false;
  const pump = (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return void (ended = true);
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf("\n\n")) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const message: Record<string, string> = {};
        for (const line of block.split("\n")) {
          const colon = line.indexOf(":");
          if (colon > 0) message[line.slice(0, colon)] = line.slice(colon + 1).trim();
        }
        if (message.data !== undefined) messages.push(message);
      }
    }
  })();
  return {
    async next(ms = 5000) {
      const until = Date.now() + ms;
      while (messages.length === 0 && !ended && Date.now() < until) await sleep(20);
      return messages.shift();
    },
    ended: async () => {
      await pump;
      return ended;
    },
    cancel: () => reader.cancel().catch(() => {}),
  };
}

for (const provider of providers) {
  describe(`the admin app's live stream on ${provider} (server.ts)`, () => {
    const { api, admin, state } = storeServer(provider, { admin: ADMIN });
    const open = (headers: Record<string, string> = {}, cookie = state.cookie) =>
      fetch(`${state.server.baseUrl}/admin/api/events`, { headers: { Cookie: cookie, ...headers } });

    test("signed-in staff get every change as it happens; without a session, 401", async () => {
      const refused = await fetch(`${state.server.baseUrl}/admin/api/events`);
      assert.equal(refused.status, 401);
      const reply = await open();
      assert.equal(reply.status, 200);
      assert.match(reply.headers.get("content-type") ?? "", /^text\/event-stream/);
      assert.equal(reply.headers.get("cache-control"), "no-store");
      const stream = sseReader(reply.body!);
      try {
        await sleep(200); // connected: what follows is news
        const created = await api("POST", "/v1/pets", { body: { name: "Live", categoryId: 1, status: "available" } });
        const message = await stream.next();
        assert.equal(message?.event, "change");
        assert.deepEqual(JSON.parse(message.data!), { type: "pet.created", id: String(created.body.id) });
        const [event] = await follow(api, BigInt(message.id!) - 1n);
        assert.equal(event.id, BigInt(message.id!), "the message's id is the event's");
        const placed = await api("POST", "/v1/store/orders", { body: { petId: created.body.id, customerName: "Ada" } });
        const order = await stream.next();
        const pet = await stream.next();
        assert.deepEqual(JSON.parse(order!.data!), { type: "order.placed", id: String(placed.body.id) });
        assert.deepEqual(JSON.parse(pet!.data!), { type: "pet.updated", id: String(created.body.id) });
      } finally {
        await stream.cancel();
      }
    });

    test("HEAD answers the headers alone; a position this database never reached is a reset", async () => {
      // Same-origin, as the guard asks of every method but GET.
      const head = await fetch(`${state.server.baseUrl}/admin/api/events`, {
        method: "HEAD",
        headers: { Cookie: state.cookie, Origin: state.server.baseUrl },
      });
      assert.equal(head.status, 200);
      assert.match(head.headers.get("content-type") ?? "", /^text\/event-stream/);
      assert.equal(await head.text(), "");
      const newest = await lastEventId(api);
      const stream = sseReader((await open({ "Last-Event-ID": String(newest + 1000n) })).body!);
      try {
        const reset = await stream.next();
        assert.equal(reset?.event, "reset");
        assert.equal(reset?.id, String(newest), "from the newest on");
      } finally {
        await stream.cancel();
      }
    });

    test("?after= resumes as Last-Event-ID does (the admin app's own reopening)", async () => {
      const from = await lastEventId(api);
      const id = (await api("POST", "/v1/pets", { body: { name: "Missed by query", categoryId: 1 } })).body
        .id as bigint;
      const reply = await fetch(`${state.server.baseUrl}/admin/api/events?after=${from}`, {
        headers: { Cookie: state.cookie },
      });
      const stream = sseReader(reply.body!);
      try {
        assert.deepEqual(JSON.parse((await stream.next(1000))!.data!), { type: "pet.created", id: String(id) });
      } finally {
        await stream.cancel();
      }
    });

    test("Last-Event-ID resumes after that event: what was missed comes first", async () => {
      const from = await lastEventId(api);
      const ids: bigint[] = [];
      for (const name of ["Missed 1", "Missed 2"])
        ids.push((await api("POST", "/v1/pets", { body: { name, categoryId: 1 } })).body.id as bigint);
      const stream = sseReader((await open({ "Last-Event-ID": String(from) })).body!);
      try {
        // From the backlog, not the poller: with no stream open the poller starts at the newest event.
        for (const id of ids)
          assert.deepEqual(JSON.parse((await stream.next())!.data!), { type: "pet.created", id: String(id) });
      } finally {
        await stream.cancel();
      }
    });

    /** Opens a stream as `cookie`, runs `end`, and checks the stream ends at its next session check and stays shut. */
    async function assertStreamEnds(cookie: string, end: () => Promise<void>) {
      const stream = sseReader((await open({}, cookie)).body!);
      try {
        await end();
        const endedAt = Date.now();
        assert.equal(await stream.ended(), true);
        assert.ok(Date.now() - endedAt < 8000, "ended at the next session check (every 5 s)");
        assert.equal((await open({}, cookie)).status, 401);
      } finally {
        await stream.cancel();
      }
    }

    test("a stream whose session is signed out ends within seconds, and cannot be opened again", async () => {
      const cookie = await signInStaff(state.server.baseUrl, ADMIN.email, ADMIN.password);
      await assertStreamEnds(cookie, async () => {
        const out = await fetch(`${state.server.baseUrl}/admin/api/session`, {
          method: "DELETE",
          headers: { Cookie: cookie, Origin: state.server.baseUrl },
        });
        assert.ok(out.ok, `signed out: ${out.status}`);
      });
    });

    test("a stream whose staff account an admin disables ends within seconds, and cannot be opened again", async () => {
      const leaver = { email: `leaver-${provider}@example.com`, password: "the leaver's long password" };
      await createStaff(state.database.url, leaver.email, leaver.password);
      const cookie = await signInStaff(state.server.baseUrl, leaver.email, leaver.password);
      await assertStreamEnds(cookie, async () => {
        const accounts = (await admin("GET", "/admin/api/staff")).body as { id: bigint; email: string }[];
        const account = accounts.find((each) => each.email === leaver.email)!;
        const disabled = await admin("POST", `/admin/api/staff/${account.id}/disable`);
        assert.equal(disabled.status, 200, disabled.text);
      });
    });
  });

  // Two instances on one database: a change made through one reaches the streams of the other, each instance's
  // poller reading the shared events table (docs/decisions/016). The time it took is printed, not asserted (a
  // figure, not a rule): one poll is 500 ms.
  describe(`the live stream across two instances on ${provider} (server.ts)`, () => {
    const { api, state } = storeServer(provider, { admin: ADMIN });
    let other: RunningServer;
    before(async () => {
      other = await startServer("custom", state.database.url);
    });
    after(async () => {
      await other?.stop();
    });

    test("a change made through one instance reaches a stream open on the other, in a poll or two", async () => {
      const stream = sseReader(
        (await fetch(`${other.baseUrl}/admin/api/events`, { headers: { Cookie: state.cookie } })).body!,
      );
      try {
        await sleep(700); // the other instance's poller has started from the newest event
        const lags: number[] = [];
        for (const name of ["Seen elsewhere 1", "Seen elsewhere 2", "Seen elsewhere 3"]) {
          const created = await api("POST", "/v1/pets", { body: { name, categoryId: 1 } });
          const committedAt = Date.now();
          assert.equal(created.status, 201, created.text);
          const message = await stream.next();
          lags.push(Date.now() - committedAt);
          assert.deepEqual(JSON.parse(message!.data!), { type: "pet.created", id: String(created.body.id) });
        }
        console.log(`live stream across instances on ${provider}: ${lags.join(", ")} ms from the answer to the event`);
      } finally {
        await stream.cancel();
      }
    });
  });
}

describe("the live stream at shutdown (server.ts, SQLite)", () => {
  const { state } = storeServer("sqlite", { admin: ADMIN });

  test("an open stream ends at SIGTERM, so the server exits without waiting out its grace", async () => {
    const reply = await fetch(`${state.server.baseUrl}/admin/api/events`, { headers: { Cookie: state.cookie } });
    assert.equal(reply.status, 200);
    const stream = sseReader(reply.body!);
    await sleep(300);
    const started = Date.now();
    const stopping = state.server.stop();
    assert.equal(await stream.ended(), true);
    await stopping;
    // server.ts gives requests in flight 8 s (SHUTDOWN_GRACE_MS); a stream left open would hold it that long.
    assert.ok(Date.now() - started < 5000, `exited ${Date.now() - started} ms after SIGTERM`);
  });
});

// The demo store (first start and db:reset-demo) and an import's batch write their events like any other change.
for (const provider of providers) {
  describe(`the demo's and a batch's events on ${provider}`, () => {
    const { api, state } = storeServer(provider, { env: { DEMO_SEED: "on" }, admin: ADMIN });

    test("the seed's pets, orders and categories are events; a reset adds the deletions and the new demo", async () => {
      const seeded = await follow(api, 0n);
      const count = (events: Event[], type: string) => events.filter((event) => event.type === type).length;
      const pets = (await api("GET", "/v1/pets?limit=100")).body as { id: bigint }[];
      assert.equal(count(seeded, "pet.created"), pets.length);
      assert.equal(count(seeded, "category.created"), 6);
      /** The demo's orders now: each placed once in `events`, whose last event of it is its present state. */
      const assertOrdersIn = async (events: Event[]) => {
        const orders = (await api("GET", "/v1/store/orders?limit=100")).body as { id: bigint; status: string }[];
        assert.ok(orders.length > 0);
        assert.equal(count(events, "order.placed"), orders.length);
        for (const order of orders) {
          const own = events.filter((event) => event.type.startsWith("order.") && event.data.id === order.id);
          assert.deepEqual(own.at(-1)!.data, order);
        }
      };
      await assertOrdersIn(seeded);
      const createdPets = seeded.filter((event) => event.type === "pet.created").map((event) => event.data);
      assert.deepEqual(
        createdPets.toSorted((a, b) => Number((a.id as bigint) - (b.id as bigint))),
        (await api("GET", "/v1/pets?limit=100")).body,
      );

      const last = seeded.at(-1)!.id;
      await runScript("db-reset-demo.ts", [], state.database.url);
      const reset = await follow(api, last);
      const deleted = reset.filter((event) => event.type === "pet.deleted").map((event) => event.data);
      assert.deepEqual(
        deleted.toSorted((a, b) => Number((a.id as bigint) - (b.id as bigint))),
        pets,
        "every pet deleted, as it was",
      );
      assert.equal(count(reset, "pet.created"), pets.length);
      assert.ok(
        reset.findIndex((event) => event.type === "pet.created") >
          reset.findLastIndex((event) => event.type === "pet.deleted"),
      );
      // The old demo's orders are deleted with no event (no event type says so: docs/api.md); the new ones have theirs.
      await assertOrdersIn(reset);
    });
  });
}

// An import's batch (createPets, one INSERT for many pets) writes one pet.created per pet, in the batch's order, in the
// test process against SQLite, as lib/pets/import.ts calls it.
describe("a batch of pets writes an event per pet (in-process, SQLite)", () => {
  test("createPets: one pet.created per pet, in order, data as the pets were created", async () => {
    const database = await createMigratedDatabase("sqlite");
    try {
      await withDatabase(databaseConfig(database.url), async () => {
        const items = ["One", "Two", "Three"].map((name) => ({
          input: { name, categoryId: 2n, status: "available" as const },
          audit: COMMAND_LINE,
        }));
        const created = await transaction((tx) => createPets(items, tx));
        const events = await listEvents({ after: 0n, limit: 100 });
        assert.deepEqual(
          events.map((event) => [event.type, event.data]),
          created.map(({ pet }) => [
            "pet.created",
            `{"id":${pet.id},"name":"${pet.name}","categoryId":2,"status":"available"}`,
          ]),
        );
        await assert.rejects(
          transaction(async (tx) => {
            await createPets(items, tx);
            throw new Error("rolled back");
          }),
          /rolled back/,
        );
        assert.equal((await listEvents({ after: 0n, limit: 100 })).length, 3, "a rolled-back batch writes none");
        assert.equal(EVENT_TYPES.length, 11);
      });
    } finally {
      await database.drop();
    }
  });
});
