import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { databaseConfig } from "@/lib/config";
import { createDatabase, type Database as Client } from "@/lib/db/client";
import { POSTGRES_STATUS_COUNTS } from "@/lib/pets/status-counts";
import { movableClock, type MovableClock } from "@/scripts/harness/clock";
import { assertError, call, signInStaff } from "@/scripts/harness/http";
import {
  createMigratedDatabase,
  runScript,
  startServer,
  testProviders,
  type RunningServer,
  type TestDatabase,
} from "@/scripts/harness/servers";
import { createKey, createStaff } from "@/scripts/harness/fixtures";

// The admin app's Undo of a deletion (issue 12): POST /admin/api/pets/{id}/restore brings back the very pet a
// deletion removed (same id, name, category and status) from its pet.deleted record, within a minute, with one
// pet.restored record, the status counts exact and new pets' ids still never reused. Against the production
// build on SQLite and PostgreSQL, with the server's clock moved for "too late".

const STAFF = { email: "restore@animal-store.example", password: "a staff member's password" };
const MERGE_PATCH = { "Content-Type": "application/merge-patch+json" };

type Pet = { id: bigint; name: string; categoryId: bigint; status?: string };

const providers = await testProviders();

for (const provider of providers) {
  describe(`restoring a deleted pet on ${provider}`, () => {
    let database: TestDatabase;
    let server: RunningServer;
    let client: Client;
    let clock: MovableClock;
    let key: string;
    let cookie: string;
    const api = (method: string, path: string, options: Parameters<typeof call>[3] = {}) =>
      call(server.baseUrl, method, path, { key, ...options });
    const admin = (method: string, path: string, options: Parameters<typeof call>[3] = {}) =>
      call(server.baseUrl, method, path, {
        ...options,
        headers: { Cookie: cookie, Origin: server.baseUrl, ...options.headers },
      });
    const restore = (id: bigint) => admin("POST", `/admin/api/pets/${id}/restore`);
    const create = async (pet: Record<string, unknown>): Promise<Pet> => {
      const reply = await api("POST", "/v1/pets", { body: pet });
      assert.equal(reply.status, 201, reply.text);
      return reply.body as Pet;
    };
    const remove = async (id: bigint) => {
      const reply = await admin("DELETE", `/admin/api/pets/${id}`);
      assert.equal(reply.status, 204, reply.text);
      return reply;
    };
    /** The counts the database keeps, beside a recount of the pets, read in one statement (one snapshot). */
    const keptAndRecounted = async () => {
      const kept =
        provider === "postgresql"
          ? `SELECT "status", CAST("count" AS TEXT) AS "count" FROM (${POSTGRES_STATUS_COUNTS}) AS "kept"`
          : `SELECT "status", CAST("count" AS TEXT) AS "count" FROM "pet_status_counts"`;
      const status = provider === "postgresql" ? `coalesce("status"::text, 'none')` : `coalesce("status", 'none')`;
      const rows: { status: string; count: string; source: string }[] = await client.$queryRawUnsafe(
        `SELECT "status", "count", 'kept' AS "source" FROM (${kept}) AS "k"
         UNION ALL SELECT ${status}, CAST(count(*) AS TEXT), 'recount' FROM "pets" GROUP BY 1`,
      );
      const of = (source: string) =>
        Object.fromEntries(
          ["available", "pending", "sold", "none"].map((name) => [
            name,
            Number(rows.find((row) => row.source === source && row.status === name)?.count ?? 0),
          ]),
        );
      return { kept: of("kept"), recounted: of("recount") };
    };
    const records = async (id: bigint, action: string) =>
      client.auditEvent.findMany({
        where: { targetType: "pet", targetId: String(id), action },
        select: { actorType: true, actorLabel: true, requestId: true, details: true },
      });

    before(async () => {
      database = await createMigratedDatabase(provider);
      key = await createKey(database.url);
      await createStaff(database.url, STAFF.email, STAFF.password);
      clock = movableClock();
      server = await startServer("custom", database.url, { ADMIN_API_KEY: key, ...clock.env });
      client = createDatabase(databaseConfig(database.url));
      cookie = await signInStaff(server.baseUrl, STAFF.email, STAFF.password);
    });

    after(async () => {
      await client?.$disconnect();
      await server?.stop();
      clock?.remove();
      await database?.drop();
    });

    test("brings back the same pet, one version on, with one record, the counts exact and searchable", async () => {
      const pet = await create({ name: "Lazarus", categoryId: 4, status: "sold" });
      const renamed = await api("PATCH", `/v1/pets/${pet.id}`, { body: { name: "Lazarus II" }, headers: MERGE_PATCH });
      assert.equal(renamed.status, 200, renamed.text);
      const etagBefore = renamed.headers.get("etag")!;
      const before = await keptAndRecounted();
      await remove(pet.id);
      const deletedCounts = await keptAndRecounted();
      assert.equal(deletedCounts.kept.sold, before.kept.sold - 1);

      const reply = await restore(pet.id);
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.text, `{"id":${pet.id},"name":"Lazarus II","categoryId":4,"status":"sold"}`);
      assert.equal(reply.headers.get("etag"), `"${pet.id}.3"`, "created 1, renamed 2, restored 3");
      assert.ok(reply.headers.get("x-request-id"));

      const read = await api("GET", `/v1/pets/${pet.id}`);
      assert.equal(read.status, 200);
      assert.equal(read.body.name, "Lazarus II");
      // An ETag read before the deletion does not match the pet brought back.
      const stale = await api("PATCH", `/v1/pets/${pet.id}`, {
        body: { status: "pending" },
        headers: { ...MERGE_PATCH, "If-Match": etagBefore },
      });
      assertError(stale, 412, "precondition_failed");

      const after = await keptAndRecounted();
      assert.deepEqual(after.kept, after.recounted, "the counts the database keeps are exact");
      assert.deepEqual(after.kept, before.kept, "and back where they were");
      const counts = await api("GET", "/v1/pets/counts");
      assert.equal(counts.body.byStatus.sold, BigInt(before.kept.sold));
      const found = await api("GET", `/v1/pets?q=${encodeURIComponent("lazarus ii")}`);
      assert.deepEqual(
        (found.body as Pet[]).map((each) => each.id),
        [pet.id],
        "the search index has it again",
      );

      const restored = await records(pet.id, "pet.restored");
      assert.equal(restored.length, 1);
      assert.deepEqual(
        [restored[0].actorType, restored[0].actorLabel, restored[0].requestId],
        ["staff", STAFF.email, reply.headers.get("x-request-id")],
      );
      assert.deepEqual(JSON.parse(restored[0].details!), {
        after: { id: Number(pet.id), name: "Lazarus II", categoryId: 4, status: "sold" },
      });
      const activity = await client.auditEvent.findFirst({
        where: { targetType: "pet", targetId: String(pet.id) },
        orderBy: { id: "desc" },
        select: { action: true },
      });
      assert.equal(activity?.action, "pet.restored");
    });

    test("a pet without a status comes back without one; new pets still get new ids", async () => {
      const pet = await create({ name: "Statusless", categoryId: 1 });
      const newest = await create({ name: "Newest", categoryId: 1 });
      await remove(newest.id);
      await remove(pet.id);
      assert.equal((await restore(newest.id)).status, 200);
      const reply = await restore(pet.id);
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.text, `{"id":${pet.id},"name":"Statusless","categoryId":1}`);
      await remove(newest.id); // the highest id issued is gone again
      const next = await create({ name: "After", categoryId: 1 });
      assert.ok(next.id > newest.id, `a new pet gets ${next.id}, after every id issued (${newest.id})`);
      const counts = await keptAndRecounted();
      assert.deepEqual(counts.kept, counts.recounted);
    });

    test("twice is refused: once it is back it exists; at the same time, one wins", async () => {
      const pet = await create({ name: "Twice", categoryId: 2, status: "available" });
      await remove(pet.id);
      assert.equal((await restore(pet.id)).status, 200);
      assertError(await restore(pet.id), 409, "pet_exists");

      const raced = await create({ name: "Raced", categoryId: 2, status: "pending" });
      await remove(raced.id);
      const replies = await Promise.all([1, 2, 3, 4].map(() => restore(raced.id)));
      assert.deepEqual(
        replies.map((reply) => reply.status).sort(),
        [200, 409, 409, 409],
        replies.map((reply) => reply.text).join("\n"),
      );
      for (const reply of replies.filter((each) => each.status !== 200)) assertError(reply, 409, "pet_exists");
      assert.equal((await records(raced.id, "pet.restored")).length, 1);
      const counts = await keptAndRecounted();
      assert.deepEqual(counts.kept, counts.recounted);
    });

    test("a live pet, one never deleted and an id never issued are refused", async () => {
      const live = await create({ name: "Alive", categoryId: 3 });
      assertError(await restore(live.id), 409, "pet_exists");
      assertError(await restore(999_999_999n), 404, "not_found");
      assertError(await admin("POST", "/admin/api/pets/abc/restore"), 400, "invalid_path");
      assert.equal((await records(live.id, "pet.restored")).length, 0);
    });

    test("only one's own deletion: not an API client's nor another staff member's, and nothing changes", async () => {
      const byClient = await create({ name: "Deleted by a client", categoryId: 2 });
      assert.equal((await api("DELETE", `/v1/pets/${byClient.id}`)).status, 204);
      const byColleague = await create({ name: "Deleted by a colleague", categoryId: 2 });
      const colleague = { email: "restore-colleague@animal-store.example", password: "a colleague's password" };
      await createStaff(database.url, colleague.email, colleague.password);
      const colleagueCookie = await signInStaff(server.baseUrl, colleague.email, colleague.password);
      const deleted = await call(server.baseUrl, "DELETE", `/admin/api/pets/${byColleague.id}`, {
        headers: { Cookie: colleagueCookie, Origin: server.baseUrl },
      });
      assert.equal(deleted.status, 204, deleted.text);
      const before = await keptAndRecounted();
      for (const pet of [byClient, byColleague]) {
        assertError(await restore(pet.id), 403, "restore_not_yours");
        assertError(await api("GET", `/v1/pets/${pet.id}`), 404, "not_found");
        assert.equal((await records(pet.id, "pet.restored")).length, 0);
      }
      assert.deepEqual(await keptAndRecounted(), before);
      // The colleague can undo their own.
      const own = await call(server.baseUrl, "POST", `/admin/api/pets/${byColleague.id}/restore`, {
        headers: { Cookie: colleagueCookie, Origin: server.baseUrl },
      });
      assert.equal(own.status, 200, own.text);
    });

    test("too late: a minute after the deletion it is refused, and nothing changes", async () => {
      const pet = await create({ name: "Too late", categoryId: 5, status: "available" });
      await remove(pet.id);
      const before = await keptAndRecounted();
      await clock.set(new Date(Date.now() + 61_000));
      try {
        assertError(await restore(pet.id), 409, "restore_too_late");
      } finally {
        await clock.set(new Date());
      }
      assertError(await api("GET", `/v1/pets/${pet.id}`), 404, "not_found");
      assert.deepEqual(await keptAndRecounted(), before);
      assert.equal((await records(pet.id, "pet.restored")).length, 0);
    });

    test("a pet removed by a reset of the demo catalogue cannot be restored (its record holds no pet)", async () => {
      const pet = await create({ name: "Reset away", categoryId: 1 });
      await runScript("db-reset-demo.ts", [], database.url);
      assertError(await api("GET", `/v1/pets/${pet.id}`), 404, "not_found");
      const reply = await restore(pet.id);
      assertError(reply, 409, "restore_too_late");
      assert.match(reply.body.message, /does not say what it was/);
      const counts = await keptAndRecounted();
      assert.deepEqual(counts.kept, counts.recounted);
    });

    test("a staff session and the app's own Origin are required, as for every admin change", async () => {
      const pet = await create({ name: "Guarded", categoryId: 6 });
      await remove(pet.id);
      const path = `/admin/api/pets/${pet.id}/restore`;
      assertError(
        await call(server.baseUrl, "POST", path, { headers: { Origin: server.baseUrl } }),
        401,
        "session_required",
      );
      // An API key is no session.
      assertError(await call(server.baseUrl, "POST", path, { key }), 401, "session_required");
      assertError(await admin("POST", path, { headers: { Origin: "https://evil.example" } }), 403, "cross_origin");
      const noOrigin = await call(server.baseUrl, "POST", path, { headers: { Cookie: cookie } });
      assertError(noOrigin, 403, "cross_origin");
      assert.equal((await admin("GET", path)).status, 405);
      assertError(await api("POST", `/v1/pets/${pet.id}/restore`), 404, "not_found"); // not part of /v1
      assert.equal((await restore(pet.id)).status, 200);
    });
  });
}
