import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { assertError, call, type Reply } from "@/scripts/harness/http";
import { createMigratedDatabase, runScript, testProviders, type TestDatabase } from "@/scripts/harness/servers";
import { storeServer, type Api } from "@/scripts/harness/store-server";
import Database from "better-sqlite3";
import { COMMAND_LINE } from "@/lib/audit/record";
import { databaseConfig } from "@/lib/config";
import { withDatabase } from "@/lib/db/client";
import { findOrder, forgetNextLapse, placeOrder, settleExpiredHolds } from "@/lib/orders/store";
import { createPet, findPet } from "@/lib/pets/store";
import pg from "pg";

// Orders over HTTP through server.ts on SQLite and PostgreSQL: placing one holds its pet (pending) and never sells
// one pet twice, the transitions and what each does to the pet, the pet's status and deletion locked while an order
// is open, expiry (lazily on any read, with a short hold), listing and paging, the inventory, bad input, and the
// races (20 concurrent orders for one pet; a deliver against a cancel).

const providers = await testProviders();
/** The hold of the expiry server: long enough to see an order placed, short enough to wait out. */
const SHORT_HOLD_SECONDS = 2;

/** Adds a pet with this status (none for null). */
async function addPet(api: Api, status: string | null = "available", name = "Biscuit"): Promise<bigint> {
  const reply = await api("POST", "/v1/pets", { body: { name, categoryId: 1, ...(status ? { status } : {}) } });
  assert.equal(reply.status, 201, reply.text);
  return reply.body.id as bigint;
}

async function petStatus(api: Api, id: bigint): Promise<string | undefined> {
  const reply = await api("GET", `/v1/pets/${id}`);
  assert.equal(reply.status, 200, reply.text);
  return reply.body.status as string | undefined;
}

async function place(api: Api, petId: bigint, customerName = "Ada Lovelace"): Promise<Reply> {
  return api("POST", "/v1/store/orders", { body: { petId, customerName } });
}

/** The audit records of a target, oldest first, read from the database itself. */
async function recordsOf(database: TestDatabase, type: string, id: bigint): Promise<{ action: string }[]> {
  const sql = "SELECT action FROM audit_events WHERE target_type = $1 AND target_id = $2 ORDER BY id";
  if (database.provider === "sqlite") {
    const sqlite = new Database(database.url.replace(/^file:/, ""), { readonly: true });
    try {
      return sqlite.prepare(sql.replace("$1", "?").replace("$2", "?")).all(type, String(id)) as { action: string }[];
    } finally {
      sqlite.close();
    }
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query<{ action: string }>(sql, [type, String(id)])).rows;
  } finally {
    await client.end();
  }
}

for (const provider of providers) {
  describe(`orders on ${provider} (server.ts)`, () => {
    const { api, state } = storeServer(provider);

    test("placing an order holds the pet: 201 with the Order, Location and ETag; the pet is pending", async () => {
      const petId = await addPet(api);
      const before = Date.now();
      const reply = await api("POST", "/v1/store/orders", {
        body: { petId, customerName: "  Ada Lovelace  ", customerEmail: "ada@example.com" },
      });
      assert.equal(reply.status, 201, reply.text);
      const order = reply.body;
      assert.equal(typeof order.id, "bigint");
      assert.equal(order.petId, petId);
      assert.equal(order.status, "placed");
      assert.equal(order.customerName, "Ada Lovelace", "trimmed");
      assert.equal(order.customerEmail, "ada@example.com");
      const placedAt = Date.parse(order.placedAt);
      assert.ok(placedAt >= before - 1000 && placedAt <= Date.now() + 1000, order.placedAt);
      assert.equal(Date.parse(order.expiresAt) - placedAt, 172_800_000, "two days by default");
      assert.equal(reply.headers.get("location"), `/v1/store/orders/${order.id}`);
      assert.match(reply.headers.get("etag") ?? "", /^"[0-9]+\.[0-9]+"$/);
      assert.equal(await petStatus(api, petId), "pending");

      const read = await api("GET", `/v1/store/orders/${order.id}`);
      assert.equal(read.status, 200);
      assert.deepEqual(read.body, order);
      assert.equal(read.headers.get("etag"), reply.headers.get("etag"));
      const unchanged = await api("GET", `/v1/store/orders/${order.id}`, {
        headers: { "If-None-Match": reply.headers.get("etag")! },
      });
      assert.equal(unchanged.status, 304);

      assert.deepEqual(
        (await recordsOf(state.database, "order", order.id)).map((record) => record.action),
        ["order.placed"],
      );
      assert.deepEqual(
        (await recordsOf(state.database, "pet", petId)).map((record) => record.action),
        ["pet.created", "pet.updated"],
      );
    });

    test("a pet that is not available is a 409 pet_not_available, and nothing changes", async () => {
      for (const status of ["pending", "sold", undefined]) {
        const petId = await addPet(api, status ?? null);
        const reply = await place(api, petId);
        assertError(reply, 409, "pet_not_available");
        assert.match(reply.body.message, new RegExp(status ?? "without a status"));
        assert.equal(await petStatus(api, petId), status);
        assert.deepEqual(await api("GET", `/v1/store/orders?petId=${petId}`).then((r) => r.body), []);
      }
    });

    test("a petId naming no pet, or a deleted one, is a 400 unknown_pet naming petId", async () => {
      assertError(await place(api, 9_000_000_000_000_000_000n), 400, "unknown_pet", "petId");
      const petId = await addPet(api);
      assert.equal((await api("DELETE", `/v1/pets/${petId}`)).status, 204);
      assertError(await place(api, petId), 400, "unknown_pet", "petId");
    });

    test("bad bodies are 400s naming the member", async () => {
      const petId = await addPet(api);
      const bad: [string, unknown, string][] = [
        ["no petId", { customerName: "Ada" }, "petId"],
        ["petId a string", { petId: String(petId), customerName: "Ada" }, "petId"],
        ["petId a fraction", { petId: 1.5, customerName: "Ada" }, "petId"],
        ["petId past int64", '{"petId":9223372036854775808,"customerName":"Ada"}', "petId"],
        ["no customerName", { petId }, "customerName"],
        ["customerName blank", { petId, customerName: "   " }, "customerName"],
        ["customerName invisible only", { petId, customerName: "\u200b\u200b" }, "customerName"],
        ["customerName with a control character", { petId, customerName: "Ada\u0007" }, "customerName"],
        ["customerName of 101 characters", { petId, customerName: "a".repeat(101) }, "customerName"],
        ["customerName a number", { petId, customerName: 7 }, "customerName"],
        ["customerEmail not an address", { petId, customerName: "Ada", customerEmail: "ada" }, "customerEmail"],
        ["customerEmail null", { petId, customerName: "Ada", customerEmail: null }, "customerEmail"],
        ["an unknown member", { petId, customerName: "Ada", status: "placed" }, "status"],
      ];
      for (const [what, body, member] of bad) {
        const reply = await api("POST", "/v1/store/orders", { body });
        assert.equal(reply.status, 400, `${what}: ${reply.text}`);
        assertError(reply, 400, "invalid_body", member);
      }
      assert.equal((await place(api, petId, "a".repeat(100))).status, 201, "100 characters are fine");
      assertError(await api("POST", "/v1/store/orders", { body: "[" }), 400, "invalid_json");
      assertError(await api("POST", "/v1/store/orders", { body: [] }), 400, "invalid_body");
      const text = await api("POST", "/v1/store/orders", {
        body: "{}",
        headers: { "Content-Type": "text/plain" },
      });
      assertError(text, 415, "unsupported_media_type");
      assertError(
        await api("POST", "/v1/store/orders", { body: { petId, customerName: "x".repeat(20_000) } }),
        413,
        "payload_too_large",
      );
      assertError(
        await call(state.server.baseUrl, "POST", "/v1/store/orders", { body: { petId, customerName: "A" } }),
        401,
        "unauthorized",
      );
    });

    test("Idempotency-Key replays the first answer and places one order", async () => {
      const petId = await addPet(api);
      const headers = { "Idempotency-Key": `order-${petId}` };
      const body = { petId, customerName: "Grace Hopper" };
      const first = await api("POST", "/v1/store/orders", { body, headers });
      const again = await api("POST", "/v1/store/orders", { body, headers });
      assert.equal(first.status, 201);
      assert.equal(again.status, 201);
      assert.equal(again.headers.get("idempotent-replayed"), "true");
      assert.deepEqual(again.body, first.body);
      assert.equal((await api("GET", `/v1/store/orders?petId=${petId}`)).body.length, 1);
      assertError(
        await api("POST", "/v1/store/orders", { body: { ...body, customerName: "Someone else" }, headers }),
        422,
        "idempotency_key_reused",
      );
    });

    test("approve, deliver and cancel move the order and the pet; other moves are 409s naming the status", async () => {
      // placed → approved → delivered: the pet ends sold.
      const sold = await addPet(api);
      const order = (await place(api, sold)).body;
      const approved = await api("POST", `/v1/store/orders/${order.id}/approve`);
      assert.equal(approved.status, 200, approved.text);
      assert.equal(approved.body.status, "approved");
      assert.ok(approved.body.approvedAt);
      assert.equal(approved.body.expiresAt, undefined, "an approved order does not expire");
      assert.equal(await petStatus(api, sold), "pending");
      const twice = await api("POST", `/v1/store/orders/${order.id}/approve`);
      assertError(twice, 409, "order_status_conflict");
      assert.match(twice.body.message, /is approved/);
      const delivered = await api("POST", `/v1/store/orders/${order.id}/deliver`);
      assert.equal(delivered.status, 200, delivered.text);
      assert.equal(delivered.body.status, "delivered");
      assert.equal(await petStatus(api, sold), "sold");
      for (const verb of ["approve", "deliver", "cancel"]) {
        const refused = await api("POST", `/v1/store/orders/${order.id}/${verb}`);
        assertError(refused, 409, "order_status_conflict");
        assert.match(refused.body.message, /is delivered/);
      }
      assert.equal(await petStatus(api, sold), "sold", "nothing changed");
      assert.deepEqual(
        (await recordsOf(state.database, "order", order.id)).map((record) => record.action),
        ["order.placed", "order.approved", "order.delivered"],
      );

      // placed → delivered directly; placed → cancelled: the pet is available and orderable at once.
      const direct = await addPet(api);
      const directOrder = (await place(api, direct)).body;
      assert.equal((await api("POST", `/v1/store/orders/${directOrder.id}/deliver`)).body.status, "delivered");
      assert.equal(await petStatus(api, direct), "sold");

      const freed = await addPet(api);
      const cancelled = (await place(api, freed)).body;
      const cancel = await api("POST", `/v1/store/orders/${cancelled.id}/cancel`);
      assert.equal(cancel.status, 200, cancel.text);
      assert.equal(cancel.body.status, "cancelled");
      assert.ok(cancel.body.cancelledAt);
      assert.equal(await petStatus(api, freed), "available");
      for (const verb of ["approve", "deliver", "cancel"]) {
        const refused = await api("POST", `/v1/store/orders/${cancelled.id}/${verb}`);
        assertError(refused, 409, "order_status_conflict");
        assert.match(refused.body.message, /is cancelled/);
      }
      assert.equal((await place(api, freed, "Next customer")).status, 201, "orderable again at once");

      // approved → cancelled.
      const third = await addPet(api);
      const thirdOrder = (await place(api, third)).body;
      await api("POST", `/v1/store/orders/${thirdOrder.id}/approve`);
      assert.equal((await api("POST", `/v1/store/orders/${thirdOrder.id}/cancel`)).body.status, "cancelled");
      assert.equal(await petStatus(api, third), "available");
    });

    test("If-Match on a transition: a stale tag is a 412 and nothing changes; the current one applies", async () => {
      const petId = await addPet(api);
      const placed = await place(api, petId);
      const tag = placed.headers.get("etag")!;
      const approved = await api("POST", `/v1/store/orders/${placed.body.id}/approve`, {
        headers: { "If-Match": tag },
      });
      assert.equal(approved.status, 200, approved.text);
      const stale = await api("POST", `/v1/store/orders/${placed.body.id}/cancel`, { headers: { "If-Match": tag } });
      assertError(stale, 412, "precondition_failed");
      assert.equal((await api("GET", `/v1/store/orders/${placed.body.id}`)).body.status, "approved");
      assert.equal(await petStatus(api, petId), "pending");
      const current = approved.headers.get("etag")!;
      assert.notEqual(current, tag);
      const delivered = await api("POST", `/v1/store/orders/${placed.body.id}/deliver`, {
        headers: { "If-Match": current },
      });
      assert.equal(delivered.status, 200, delivered.text);
      assertError(
        await api("POST", `/v1/store/orders/${placed.body.id}/cancel`, { headers: { "If-Match": "not a tag" } }),
        400,
        "invalid_header",
      );
    });

    test("while an order is open, its pet.s status and deletion are refused; other members change", async () => {
      const petId = await addPet(api);
      const order = (await place(api, petId)).body;
      for (const status of ["available", "sold", null]) {
        const patch = await api("PATCH", `/v1/pets/${petId}`, { body: { status } });
        assertError(patch, 409, "pet_on_hold");
        assert.match(patch.body.message, new RegExp(`Order #${order.id}`));
      }
      const renamed = await api("PATCH", `/v1/pets/${petId}`, { body: { name: "Renamed", status: "pending" } });
      assert.equal(renamed.status, 200, "the same status is no change: " + renamed.text);
      assert.equal(renamed.body.name, "Renamed");
      const deleted = await api("DELETE", `/v1/pets/${petId}`);
      assertError(deleted, 409, "pet_on_hold");
      assert.equal(await petStatus(api, petId), "pending");
      await api("POST", `/v1/store/orders/${order.id}/approve`);
      assertError(await api("DELETE", `/v1/pets/${petId}`), 409, "pet_on_hold");
      await api("POST", `/v1/store/orders/${order.id}/deliver`);
      assert.equal((await api("PATCH", `/v1/pets/${petId}`, { body: { status: "available" } })).status, 200);
      assert.equal((await api("DELETE", `/v1/pets/${petId}`)).status, 204, "free again after delivery");
    });

    test("getOrder: 404 for an unknown order, 400 for an id that is not an int64", async () => {
      assertError(await api("GET", "/v1/store/orders/9223372036854775807"), 404, "not_found");
      for (const id of ["0", "-1", "abc", "9223372036854775808", "1.5"])
        assertError(await api("GET", `/v1/store/orders/${id}`), 400, "invalid_path");
      assertError(await api("POST", "/v1/store/orders/9223372036854775807/cancel"), 404, "not_found");
      assertError(await api("POST", "/v1/store/orders/abc/approve"), 400, "invalid_path");
      const wrongMethod = await api("DELETE", "/v1/store/orders/1");
      assertError(wrongMethod, 405, "method_not_allowed");
    });

    test("listOrders: id order, filters, limit, Link paging, newest first; bad parameters 400", async () => {
      const petIds = [await addPet(api), await addPet(api), await addPet(api)];
      const placed: bigint[] = [];
      for (const [index, petId] of petIds.entries())
        placed.push((await place(api, petId, `Lister ${index} Zebra`)).body.id as bigint);
      await api("POST", `/v1/store/orders/${placed[1]}/approve`);

      const all = await api("GET", "/v1/store/orders?limit=100");
      assert.equal(all.status, 200);
      const ids = (all.body as { id: bigint }[]).map((order) => order.id);
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => (a < b ? -1 : 1)),
        "ascending ids",
      );

      const mine = await api("GET", "/v1/store/orders?q=zebra&limit=2");
      assert.deepEqual(
        mine.body.map((order: { id: bigint }) => order.id),
        placed.slice(0, 2),
      );
      const link = mine.headers.get("link");
      assert.match(link ?? "", /^<\/v1\/store\/orders\?limit=2&q=zebra&cursor=[A-Za-z0-9_-]+>; rel="next"$/);
      const next = await api("GET", /<([^>]+)>/.exec(link!)![1]);
      assert.deepEqual(
        next.body.map((order: { id: bigint }) => order.id),
        [placed[2]],
      );
      assert.equal(next.headers.get("link"), null, "the last page has no next link");

      const newest = await api("GET", "/v1/store/orders?q=zebra&sort=-id");
      assert.deepEqual(
        newest.body.map((order: { id: bigint }) => order.id),
        [...placed].reverse(),
      );
      const approved = await api("GET", "/v1/store/orders?status=approved&q=Zebra");
      assert.deepEqual(
        approved.body.map((order: { id: bigint }) => order.id),
        [placed[1]],
      );
      const ofPet = await api("GET", `/v1/store/orders?petId=${petIds[2]}`);
      assert.deepEqual(
        ofPet.body.map((order: { id: bigint }) => order.id),
        [placed[2]],
      );
      assert.equal((await api("GET", "/v1/store/orders")).body.length <= 20, true, "20 by default");

      for (const query of [
        "limit=0",
        "limit=101",
        "limit=abc",
        "status=lost",
        "petId=0",
        "petId=abc",
        "sort=name",
        "cursor=nonsense!",
        "colour=red",
        "limit=1&limit=2",
        `q=${"a".repeat(101)}`,
      ])
        assertError(await api("GET", `/v1/store/orders?${query}`), 400, "invalid_query");
      const cursor = new URL(/<([^>]+)>/.exec(link!)![1], "http://x").searchParams.get("cursor");
      assertError(await api("GET", `/v1/store/orders?sort=-id&cursor=${cursor}`), 400, "invalid_query");
    });

    test("the customer search takes % and _ as text, not as wildcards", async () => {
      const named = ["100% Fish Ltd", "A_B Pets", "Fully Ordinary"];
      const ids: bigint[] = [];
      for (const name of named) ids.push((await place(api, await addPet(api), name)).body.id as bigint);
      const found = async (q: string) =>
        ((await api("GET", `/v1/store/orders?limit=100&q=${encodeURIComponent(q)}`)).body as { id: bigint }[])
          .map((order) => order.id)
          .filter((id) => ids.includes(id));
      assert.deepEqual(await found("%"), [ids[0]]);
      assert.deepEqual(await found("_"), [ids[1]]);
      assert.deepEqual(await found("a_b"), [ids[1]], "ignoring case");
      assert.deepEqual(await found("ORDINARY"), [ids[2]]);
    });

    test("an order keeps the pet's name it was placed with, and its ETag, when the pet is renamed", async () => {
      const petId = await addPet(api, "available", "Before the rename");
      const placed = await place(api, petId);
      assert.equal(placed.body.petName, "Before the rename");
      assert.equal((await api("PATCH", `/v1/pets/${petId}`, { body: { name: "After" } })).status, 200);
      const read = await api("GET", `/v1/store/orders/${placed.body.id}`);
      assert.equal(read.body.petName, "Before the rename");
      assert.equal(read.headers.get("etag"), placed.headers.get("etag"));
    });

    test("inventory and the order counts are exact and follow every change", async () => {
      const before = (await api("GET", "/v1/store/inventory")).body;
      const counts = (await api("GET", "/v1/store/orders/counts")).body;
      const petId = await addPet(api);
      const order = (await place(api, petId)).body;
      const after = (await api("GET", "/v1/store/inventory")).body;
      assert.deepEqual(after, { ...before, pending: before.pending + 1n });
      await api("POST", `/v1/store/orders/${order.id}/deliver`);
      assert.deepEqual((await api("GET", "/v1/store/inventory")).body, { ...before, sold: before.sold + 1n });
      const countsAfter = (await api("GET", "/v1/store/orders/counts")).body;
      assert.equal(countsAfter.total, counts.total + 1n);
      assert.equal(countsAfter.byStatus.delivered, counts.byStatus.delivered + 1n);
      assertError(await api("GET", "/v1/store/inventory?status=sold"), 400, "invalid_query");
    });

    test("20 concurrent orders for one pet: exactly one is placed, the others are 409", async () => {
      const petId = await addPet(api);
      const replies = await Promise.all(Array.from({ length: 20 }, (_, index) => place(api, petId, `Racer ${index}`)));
      const statuses = replies.map((reply) => reply.status).sort();
      assert.deepEqual(statuses, [201, ...Array(19).fill(409)], replies.map((reply) => reply.text).join("\n"));
      for (const reply of replies) if (reply.status === 409) assertError(reply, 409, "pet_not_available");
      assert.equal((await api("GET", `/v1/store/orders?petId=${petId}`)).body.length, 1);
      assert.equal(await petStatus(api, petId), "pending");
    });

    test("a concurrent deliver and cancel of one order: exactly one wins and the pet agrees with it", async () => {
      for (let round = 0; round < 5; round++) {
        const petId = await addPet(api);
        const order = (await place(api, petId)).body;
        const [deliver, cancel] = await Promise.all([
          api("POST", `/v1/store/orders/${order.id}/deliver`),
          api("POST", `/v1/store/orders/${order.id}/cancel`),
        ]);
        const winners = [deliver, cancel].filter((reply) => reply.status === 200);
        assert.equal(winners.length, 1, `${deliver.text}\n${cancel.text}`);
        const loser = deliver.status === 200 ? cancel : deliver;
        assertError(loser, 409, "order_status_conflict");
        const final = (await api("GET", `/v1/store/orders/${order.id}`)).body.status;
        assert.equal(final, winners[0].body.status);
        assert.equal(await petStatus(api, petId), final === "delivered" ? "sold" : "available");
      }
    });
  });

  describe(`order expiry on ${provider} (server.ts, ORDER_HOLD_SECONDS=${SHORT_HOLD_SECONDS})`, () => {
    const { api, state } = storeServer(provider, { env: { ORDER_HOLD_SECONDS: String(SHORT_HOLD_SECONDS) } });

    test("a placed order past its hold reads as expired and its pet as available, on the first read", async () => {
      const petId = await addPet(api);
      const placed = (await place(api, petId)).body;
      const approvedPet = await addPet(api);
      const approved = (await place(api, approvedPet)).body;
      await api("POST", `/v1/store/orders/${approved.id}/approve`);
      assert.equal(Date.parse(placed.expiresAt) - Date.parse(placed.placedAt), SHORT_HOLD_SECONDS * 1000);
      await sleep(Date.parse(placed.expiresAt) - Date.now() + 50);
      // The very first read after the hold, of the pet: it is available.
      assert.equal(await petStatus(api, petId), "available");
      const expired = (await api("GET", `/v1/store/orders/${placed.id}`)).body;
      assert.equal(expired.status, "expired");
      assert.equal(expired.expiresAt, undefined, "expiresAt only while placed");
      assert.equal(expired.expiredAt, placed.expiresAt, "it expired when its hold ended");
      for (const verb of ["approve", "deliver", "cancel"]) {
        const refused = await api("POST", `/v1/store/orders/${placed.id}/${verb}`);
        assertError(refused, 409, "order_status_conflict");
        assert.match(refused.body.message, /is expired/);
      }
      assert.equal((await api("GET", `/v1/store/orders/${approved.id}`)).body.status, "approved", "approved stays");
      assert.equal(await petStatus(api, approvedPet), "pending");
      assert.equal((await place(api, petId, "Second customer")).status, 201, "orderable again");
      assert.deepEqual(
        (await recordsOf(state.database, "order", placed.id)).map((record) => record.action),
        ["order.placed", "order.expired"],
      );
    });

    test("no list shows a placed order past its hold", async () => {
      const petId = await addPet(api);
      const placed = (await place(api, petId)).body;
      await sleep(Date.parse(placed.expiresAt) - Date.now() + 50);
      const listed = (await api("GET", "/v1/store/orders?status=placed&limit=100")).body as { id: bigint }[];
      assert.ok(!listed.some((order) => order.id === placed.id), "not listed as placed");
      const pending = (await api("GET", "/v1/pets?status=pending&limit=100")).body as { id: bigint }[];
      assert.ok(!pending.some((pet) => pet.id === petId), "its pet is not listed as pending");
    });
  });

  describe(`the demo store's orders on ${provider}`, () => {
    const { api, state } = storeServer(provider, { env: { DEMO_SEED: "on" } });

    /** Every order and pet of the demo agree: pending pets held by open orders, sold ones by delivered orders. */
    async function assertDemoOrders(): Promise<void> {
      const counts = (await api("GET", "/v1/store/orders/counts")).body;
      for (const status of ["placed", "approved", "delivered", "cancelled", "expired"])
        assert.ok(
          counts.byStatus[status] >= 1n,
          `a ${status} order: ${JSON.stringify(counts.byStatus, (_, v) => String(v))}`,
        );
      const orders = (await api("GET", "/v1/store/orders?limit=100")).body as { petId: bigint; status: string }[];
      const pets = (await api("GET", "/v1/pets?limit=100")).body as { id: bigint; status?: string }[];
      for (const pet of pets) {
        const open = orders.filter((order) => order.petId === pet.id && ["placed", "approved"].includes(order.status));
        assert.equal(open.length, pet.status === "pending" ? 1 : 0, `pet #${pet.id} (${pet.status})`);
        if (pet.status === "sold")
          assert.ok(
            orders.some((order) => order.petId === pet.id && order.status === "delivered"),
            `sold #${pet.id}`,
          );
      }
      const inventory = (await api("GET", "/v1/store/inventory")).body;
      assert.equal(Number(inventory.pending), pets.filter((pet) => pet.status === "pending").length);
    }

    test("first start seeds orders in every state, consistent with the pets' statuses", async () => {
      await assertDemoOrders();
    });

    test("db:reset-demo puts the demo's orders back with its pets", async () => {
      const output = await runScript("db-reset-demo.ts", [], state.database.url);
      assert.match(output, /34 demo pets added/);
      await assertDemoOrders();
    });
  });
}

// Next's own entry serves the same route functions through the route files under app/v1/store: each path once.
describe("orders through next start (SQLite)", () => {
  const { api } = storeServer("sqlite", { entry: "next" });

  test("every store path answers through its route file", async () => {
    const petId = await addPet(api);
    const placed = await place(api, petId);
    assert.equal(placed.status, 201, placed.text);
    const id = placed.body.id as bigint;
    assert.equal((await api("GET", `/v1/store/orders/${id}`)).body.status, "placed");
    assert.equal((await api("GET", "/v1/store/orders")).body.length, 1);
    assert.equal((await api("GET", "/v1/store/orders/counts")).body.byStatus.placed, 1n);
    assert.equal((await api("GET", "/v1/store/inventory")).body.pending, 1n);
    assert.equal((await api("POST", `/v1/store/orders/${id}/approve`)).body.status, "approved");
    assert.equal((await api("POST", `/v1/store/orders/${id}/deliver`)).body.status, "delivered");
    const other = (await place(api, await addPet(api))).body.id as bigint;
    assert.equal((await api("POST", `/v1/store/orders/${other}/cancel`)).body.status, "cancelled");
  });
});

// The remembered next lapse, as production runs it (the default hold of two days, which the short-hold servers above
// cannot use): in the test process, on SQLite, with the clock passed in.
describe("a hold's end with the default hold, in-process (SQLite)", () => {
  test("a settle before expiresAt changes nothing and remembers it; the first at expiresAt expires it", async () => {
    const database = await createMigratedDatabase("sqlite");
    try {
      await withDatabase(databaseConfig(database.url), async () => {
        const { pet } = await createPet({ name: "Slow hold", categoryId: 1n, status: "available" }, COMMAND_LINE);
        const { order } = await placeOrder({ petId: pet.id, customerName: "Ada Lovelace" }, COMMAND_LINE);
        const end = Date.parse(order.expiresAt!);
        assert.equal(end - Date.parse(order.placedAt), 172_800_000);
        forgetNextLapse();
        await settleExpiredHolds(end - 60_000); // looks, and remembers that nothing lapses before `end`
        await settleExpiredHolds(end - 1); // does not look
        assert.equal((await findOrder(order.id))!.order.status, "placed");
        assert.equal((await findPet(pet.id))!.pet.status, "pending");
        await settleExpiredHolds(end);
        const expired = (await findOrder(order.id))!.order;
        assert.equal(expired.status, "expired");
        assert.equal(expired.expiredAt, order.expiresAt);
        assert.equal((await findPet(pet.id))!.pet.status, "available");
      });
    } finally {
      await database.drop();
    }
  });
});
