import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { BATCH_MAX_PETS } from "@/lib/pets/batch-schema";
import { asReply, assertError, rawCall, type Reply } from "@/scripts/harness/http";
import { seedPlanPets } from "@/scripts/harness/plans";
import { testProviders } from "@/scripts/harness/servers";
import { storeServer } from "@/scripts/harness/store-server";

// batchPets (POST /v1/pets/batch, issue 24's bulk actions), over HTTP against the production server on SQLite and
// PostgreSQL: a status or a category set on many pets, or many deleted, in one request that changes every pet named
// or none; each pet's own record (as the staff member, through the admin app) and event; the pets that stand in the
// way named by their place; bad bodies refused before any work; 1,000 pets in one request; Idempotency-Key; and,
// against concurrent orders and batches, exactly one winner and no deadlock.

type Pet = { id: bigint; name: string; categoryId: bigint; status?: string };
const ADMIN = { email: "batch@animal-store.example", password: "a batch admin's password" };
const SEEDED = 1000; // seedPlanPets' pets take ids 1 to 1,000

const providers = await testProviders();

for (const provider of providers) {
  describe(`batchPets on ${provider}`, () => {
    const { api, admin, state } = storeServer(provider, { admin: ADMIN });
    const makePet = async (name: string, status?: string, categoryId = 1n): Promise<Pet> => {
      const reply = await api("POST", "/v1/pets", { body: { name, categoryId, ...(status ? { status } : {}) } });
      assert.equal(reply.status, 201, reply.text);
      return reply.body as Pet;
    };
    const readPet = async (id: bigint): Promise<Pet | undefined> => {
      const reply = await api("GET", `/v1/pets/${id}`);
      if (reply.status === 404) return undefined;
      assert.equal(reply.status, 200, reply.text);
      return reply.body as Pet;
    };
    const batch = (body: unknown, headers?: Record<string, string>) => api("POST", "/v1/pets/batch", { body, headers });
    const eventsAfter = async (after: bigint): Promise<{ id: bigint; type: string; data: Pet }[]> => {
      const reply = await api("GET", `/v1/events?after=${after}&limit=100`);
      assert.equal(reply.status, 200, reply.text);
      return reply.body;
    };
    const lastEventId = async (): Promise<bigint> => {
      let last = 0n;
      for (let page = await eventsAfter(0n); page.length; page = await eventsAfter(last)) last = page.at(-1)!.id;
      return last;
    };

    // Pets 1 to 1,000, made before any test's own (seedPlanPets writes them straight to the database).
    before(() => seedPlanPets(state.database, SEEDED));

    test("sets a status on many pets: each changed pet says what it was, one already so is left alone", async () => {
      const pets = [await makePet("Batch A", "available"), await makePet("Batch B"), await makePet("Batch C", "sold")];
      const since = await lastEventId();
      const reply = await batch({ action: "update", ids: pets.map((pet) => pet.id), set: { status: "sold" } });
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.body.action, "update");
      assert.equal(reply.body.changed, 2n);
      assert.deepEqual(
        reply.body.results.map((result: { id: bigint; changed: boolean; previous?: object }) => [
          result.id,
          result.changed,
          result.previous,
        ]),
        [
          [pets[0].id, true, { status: "available" }],
          [pets[1].id, true, { status: null }],
          [pets[2].id, false, undefined],
        ],
      );
      for (const pet of pets) assert.equal((await readPet(pet.id))?.status, "sold");
      const events = await eventsAfter(since);
      assert.deepEqual(
        events.map((event) => [event.type, event.data.id]),
        [
          ["pet.updated", pets[0].id],
          ["pet.updated", pets[1].id],
        ],
        "one event per changed pet, none for the one left alone",
      );
    });

    test("through the admin app each pet's record names the staff member; a category and no status", async () => {
      const pets = [await makePet("Batch D", "pending"), await makePet("Batch E", "available", 2n)];
      const reply = await admin("POST", "/admin/api/pets/batch", {
        body: { action: "update", ids: pets.map((pet) => pet.id), set: { categoryId: 7n, status: null } },
      });
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.body.changed, 2n);
      for (const pet of pets) {
        const now = await readPet(pet.id);
        assert.equal(now?.categoryId, 7n);
        assert.equal(now?.status, undefined);
        const history = await admin("GET", `/admin/api/pets/${pet.id}/history`);
        assert.equal(history.status, 200, history.text);
        assert.match(history.text, new RegExp(ADMIN.email.replace(".", "\\.")), "the staff member made the change");
      }
    });

    test("deletes many pets in one request; each can be brought back by the admin app's Undo", async () => {
      const pets = [await makePet("Batch F", "sold"), await makePet("Batch G")];
      const since = await lastEventId();
      const reply = await admin("POST", "/admin/api/pets/batch", {
        body: { action: "delete", ids: pets.map((pet) => pet.id) },
      });
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.body.changed, 2n);
      assert.deepEqual(
        reply.body.results.map((result: { pet: Pet }) => result.pet.name),
        ["Batch F", "Batch G"],
      );
      for (const pet of pets) assert.equal(await readPet(pet.id), undefined);
      assert.deepEqual(
        (await eventsAfter(since)).map((event) => event.type),
        ["pet.deleted", "pet.deleted"],
      );
      for (const pet of pets) {
        const restored = await admin("POST", `/admin/api/pets/${pet.id}/restore`);
        assert.equal(restored.status, 200, restored.text);
      }
      assert.equal((await readPet(pets[0].id))?.status, "sold");
    });

    test("a pet that is not there, or that an open order holds, refuses the whole batch and is named", async () => {
      const free = await makePet("Batch H", "available");
      const held = await makePet("Batch I", "available");
      const order = await api("POST", "/v1/store/orders", { body: { petId: held.id, customerName: "Ada" } });
      assert.equal(order.status, 201, order.text);
      const missing = 9_000_000_000n;
      const since = await lastEventId();
      for (const body of [
        { action: "update", ids: [free.id, held.id, missing], set: { status: "sold" } },
        { action: "delete", ids: [free.id, held.id, missing] },
      ]) {
        const reply = await batch(body);
        assertError(reply, 409, "batch_refused", "ids.1");
        assert.deepEqual(
          reply.body.errors.map((error: { path: string }) => error.path),
          ["ids.1", "ids.2"],
          reply.text,
        );
        assert.match(reply.body.errors[0].message, new RegExp(`Order #${order.body.id} holds pet #${held.id}`));
        assert.match(reply.body.errors[1].message, /No pet has id 9000000000\./);
      }
      assert.equal((await readPet(free.id))?.status, "available", "nothing changed");
      assert.equal((await readPet(held.id))?.status, "pending");
      assert.deepEqual(await eventsAfter(since), [], "no event for a refused batch");
      // A change that leaves the held pet's status alone is not in the order's way.
      const category = await batch({ action: "update", ids: [free.id, held.id], set: { categoryId: 3n } });
      assert.equal(category.status, 200, category.text);
      assert.equal(category.body.changed, 2n);
    });

    const tooMany = Array.from({ length: BATCH_MAX_PETS + 1 }, (_, index) => BigInt(index + 1));
    for (const [title, body, path] of [
      ["no action", { ids: [1n] }, "action"],
      ["an unknown action", { action: "sell", ids: [1n] }, "action"],
      ["no ids", { action: "delete" }, "ids"],
      ["ids empty", { action: "delete", ids: [] }, "ids"],
      ["ids not an array", { action: "delete", ids: "1,2" }, "ids"],
      ["an id twice", { action: "delete", ids: [1n, 1n] }, "ids"],
      ["an id of 0", { action: "delete", ids: [0n] }, "ids.0"],
      ["an id that is not an integer", { action: "delete", ids: [1.5] }, "ids.0"],
      ["an id beyond int64", { action: "delete", ids: [2n ** 63n] }, "ids.0"],
      [`${BATCH_MAX_PETS + 1} ids`, { action: "delete", ids: tooMany }, "ids"],
      ["an update without set", { action: "update", ids: [1n] }, "set"],
      ["an empty set", { action: "update", ids: [1n], set: {} }, "set"],
      ["a set of the name", { action: "update", ids: [1n], set: { name: "Rex" } }, "set.name"],
      ["an unknown status", { action: "update", ids: [1n], set: { status: "lost" } }, "set.status"],
      ["a delete with a set", { action: "delete", ids: [1n], set: { status: "sold" } }, "set"],
      ["an unknown member", { action: "delete", ids: [1n], why: "x" }, "why"],
      ["not an object", [1, 2], ""],
    ] as const) {
      test(`400 for ${title}`, async () => {
        assertError(await batch(body), 400, "invalid_body", path);
      });
    }

    test("a body over 32 KiB is 413 before it is read; one not JSON is 415", async () => {
      const big = `{"action":"delete","ids":[${"1,".repeat(17_000)}1]}`;
      const reply = await batch(big);
      assertError(reply, 413, "payload_too_large");
      assert.equal(reply.body.message, "The request body is larger than 32 KiB.");
      assertError(await batch("ids=1", { "Content-Type": "text/plain" }), 415, "unsupported_media_type");
    });

    test("sent in chunks without a length: about 20 KiB is read, past 32 KiB is 413 as it passes", async () => {
      const body = (count: number) => {
        // A real batch padded with spaces (valid JSON): its size, not its pets, is what is judged here.
        const text = JSON.stringify({ action: "update", ids: [1], set: { categoryId: 9 } });
        return Buffer.from(text.slice(0, -1) + " ".repeat(count) + "}");
      };
      const send = (bytes: Buffer) =>
        rawCall(state.server.baseUrl, {
          method: "POST",
          path: "/v1/pets/batch",
          headers: { Authorization: `Bearer ${state.key}`, "Content-Type": "application/json" },
          chunks: [bytes.subarray(0, 8192), bytes.subarray(8192, 16384), bytes.subarray(16384)],
        });
      const accepted = asReply(await send(body(20_000)));
      assert.equal(accepted.status, 200, accepted.text);
      assert.equal(accepted.body.results[0].pet.categoryId, 9n);
      const refused = asReply(await send(body(33 * 1024)));
      assertError(refused, 413, "payload_too_large");
      assert.equal(refused.body.message, "The request body is larger than 32 KiB.");
    });

    test(`${BATCH_MAX_PETS} pets in one request, once for an Idempotency-Key`, async () => {
      const ids = Array.from({ length: BATCH_MAX_PETS }, (_, index) => BigInt(index + 1));
      const body = { action: "update", ids, set: { categoryId: 42n } };
      const key = { "Idempotency-Key": `batch-${provider}` };
      const first = await batch(body, key);
      assert.equal(first.status, 200, first.text.slice(0, 500));
      assert.equal(first.body.changed, BigInt(BATCH_MAX_PETS));
      assert.equal(first.body.results.length, BATCH_MAX_PETS);
      const replayed = await batch(body, key);
      assert.equal(replayed.status, 200);
      assert.equal(replayed.headers.get("idempotent-replayed"), "true");
      assert.equal(replayed.text, first.text);
      const counts = await api("GET", "/v1/pets/counts?categoryId=42");
      assert.equal(counts.body.total, BigInt(BATCH_MAX_PETS));
    });

    test("a batch and orders for its pets at once: each pet is sold by the batch or held by one order", async () => {
      const pets = await Promise.all(Array.from({ length: 6 }, (_, index) => makePet(`Race ${index}`, "available")));
      const [sell, ...orders] = await Promise.all([
        batch({ action: "update", ids: pets.map((pet) => pet.id), set: { status: "sold" } }),
        ...pets.map((pet) => api("POST", "/v1/store/orders", { body: { petId: pet.id, customerName: "Grace" } })),
      ]);
      for (const reply of orders) assert.ok([201, 409].includes(reply.status), reply.text);
      const placed = orders.filter((reply) => reply.status === 201).length;
      const statuses = (await Promise.all(pets.map((pet) => readPet(pet.id)))).map((pet) => pet?.status);
      if (sell.status === 200) {
        assert.equal(placed, 0, "no order for a pet the batch sold");
        assert.deepEqual(statuses, Array(6).fill("sold"));
      } else {
        assertError(sell, 409, "batch_refused");
        assert.ok(placed > 0, "only a held pet refuses the sale");
        assert.equal(statuses.filter((status) => status === "pending").length, placed, String(statuses));
        assert.equal(statuses.filter((status) => status === "available").length, 6 - placed, String(statuses));
      }
    });

    test("two batches over the same pets in opposite orders both finish, one after the other", async () => {
      // 300 of the seeded pets: more than one chunk of 100, whose locks must still be taken in one order.
      const ids = Array.from({ length: 300 }, (_, index) => BigInt(index + 1));
      const replies: Reply[] = await Promise.all([
        batch({ action: "update", ids, set: { categoryId: 5n } }),
        batch({ action: "update", ids: [...ids].reverse(), set: { categoryId: 6n } }),
      ]);
      for (const reply of replies) assert.equal(reply.status, 200, reply.text);
      const listed = await api("GET", "/v1/pets/counts?categoryId=5,6");
      const five = await api("GET", "/v1/pets/counts?categoryId=5");
      assert.ok(
        [0n, 300n].includes(five.body.total) && listed.body.total === 300n,
        `all 300 from one batch or all from the other, never a mix: ${five.text} ${listed.text}`,
      );
    });
  });
}

describe("batchPets through next start", () => {
  // Where server.ts's dispatch to the route table is not in front, app/v1/pets/batch must take the path, not
  // app/v1/pets/[petId] (which has no POST).
  const { api } = storeServer("sqlite", { entry: "next" });

  test("a batch answers as through server.ts", async () => {
    const pet = await api("POST", "/v1/pets", { body: { name: "Through Next", categoryId: 1n } });
    assert.equal(pet.status, 201, pet.text);
    const reply = await api("POST", "/v1/pets/batch", {
      body: { action: "update", ids: [pet.body.id], set: { status: "sold" } },
    });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.changed, 1n);
    assertError(
      await api("POST", "/v1/pets/batch", { body: { action: "update", ids: [] } }),
      400,
      "invalid_body",
      "ids",
    );
  });
});
