import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import { databaseConfig } from "@/lib/config";
import { createDatabase, type Database as Client } from "@/lib/db/client";
import { runHousekeeping } from "@/lib/housekeeping";
import { encodeCursor } from "@/lib/pets/cursor";
import type { PetSort, PetStatus } from "@/lib/pets/schema";
import { foldStatusCountDeltas, POSTGRES_STATUS_COUNTS } from "@/lib/pets/status-counts";
import type { ListOptions } from "@/lib/pets/store";
import { explainListing, seedPlanPets } from "@/scripts/harness/plans";
import { nextPath, sorted, type Pet } from "@/scripts/harness/pet-order";
import { assertError, call, signInStaff } from "@/scripts/harness/http";
import {
  createMigratedDatabase,
  startServer,
  testProviders,
  type RunningServer,
  type TestDatabase,
} from "@/scripts/harness/servers";
import { createKey, createStaff } from "@/scripts/harness/fixtures";

// listPets' orders (issue 12) and countPets, over HTTP against the production build on SQLite and PostgreSQL:
// every order and filter paged through to the end and compared with a sort done here, cursors that belong to
// one order refused in another, status counts exact after any change (concurrent ones too), searches counted,
// and the plans of the queries listPets sends, read from each database: index walks, never a sort of the table.
// On PostgreSQL the counts are base rows plus deltas that folds move into the base: exact before, during and
// after a fold, with writers and other folds at once.

const SORTS: PetSort[] = ["id", "-id", "name", "-name", "status", "-status", "category", "-category"];
const STAFF = { email: "sorting@animal-store.example", password: "a staff member's password" };

/** Names that test the order: ties, names differing only by case, non-ASCII letters, punctuation, astral. */
const NAMES = [
  "Rex",
  "rex",
  "REX",
  "Rex",
  "rexa",
  "Rex a",
  "Émile",
  "émile",
  "Emile",
  "Zoë",
  "zoe",
  "Ångström",
  "straße",
  "STRASSE",
  "_under",
  "[bracket",
  "Bella 1",
  "bella 10",
  "Bella 2",
  "日本",
  "🐕 dog",
  "Ｆullwidth",
  "a",
  "Z",
];
const STATUSES: (PetStatus | undefined)[] = ["available", "pending", "sold", undefined];

/** Whether a name contains q as the API matches it (ignoring case; the test's q are simple enough for this). */
function contains(name: string, q: string): boolean {
  return name.toLowerCase().includes(q.toLowerCase());
}

const providers = await testProviders();

for (const provider of providers) {
  describe(`sorting and counting pets on ${provider}`, () => {
    let database: TestDatabase;
    let server: RunningServer;
    let key: string;
    let client: Client;
    const created: Pet[] = [];
    /** Rows of a query run on the test database, outside the server. */
    const sql = async <Row>(text: string): Promise<Row[]> => client.$queryRawUnsafe<Row[]>(text);
    const api = (method: string, path: string, body?: unknown) => call(server.baseUrl, method, path, { key, body });
    const create = async (pet: { name: string; categoryId: number; status?: PetStatus }): Promise<Pet> => {
      const reply = await api("POST", "/v1/pets", pet);
      assert.equal(reply.status, 201, reply.text);
      return reply.body as Pet;
    };
    /** Every pet the list returns for this query, following Link rel=next; the paths followed too. */
    const walk = async (path: string) => {
      const pets: Pet[] = [];
      const paths: string[] = [];
      for (let next: string | undefined = path; next;) {
        paths.push(next);
        const reply = await api("GET", next);
        assert.equal(reply.status, 200, reply.text);
        pets.push(...(reply.body as Pet[]));
        next = nextPath(reply);
      }
      return { pets, paths };
    };
    const counts = async (query = "") => {
      const reply = await api("GET", `/v1/pets/counts${query}`);
      assert.equal(reply.status, 200, reply.text);
      return reply.body;
    };
    /** The counts of these pets, as countPets must answer them. */
    const expectedCounts = (pets: Pet[]) => {
      const byStatus = { available: 0n, pending: 0n, sold: 0n, none: 0n };
      for (const pet of pets) byStatus[pet.status ?? "none"] += 1n;
      return { total: BigInt(pets.length), byStatus, exact: true };
    };

    before(async () => {
      database = await createMigratedDatabase(provider);
      key = await createKey(database.url);
      await createStaff(database.url, STAFF.email, STAFF.password);
      server = await startServer("custom", database.url, { ADMIN_API_KEY: key });
      client = createDatabase(databaseConfig(database.url));
      for (const [index, name] of NAMES.entries()) {
        const status = STATUSES[index % STATUSES.length];
        // Categories out of step with the ids and statuses, a negative one among them: ties in every order.
        created.push(await create({ name, categoryId: [2, -5, 0][index % 3], ...(status ? { status } : {}) }));
      }
    });

    after(async () => {
      await client?.$disconnect();
      await server?.stop();
      await database?.drop();
    });

    test("every order, with and without status and q, pages through every pet in the order sorted here", async () => {
      for (const sort of SORTS) {
        for (const status of [undefined, "available", "sold"] as const) {
          for (const q of [undefined, "re", "rex", "émi", "ELL"]) {
            const query = new URLSearchParams({ limit: "3", sort });
            if (status) query.set("status", status);
            if (q) query.set("q", q);
            const { pets, paths } = await walk(`/v1/pets?${query}`);
            const wanted = created.filter((pet) => (!status || pet.status === status) && (!q || contains(pet.name, q)));
            const label = `sort=${sort} status=${status} q=${q}`;
            assert.deepEqual(
              pets.map((pet) => `${pet.id} ${pet.name}`),
              sorted(wanted, sort).map((pet) => `${pet.id} ${pet.name}`),
              label,
            );
            // Every next link keeps the filters and the order.
            for (const path of paths.slice(1)) {
              const next = new URL(path, "http://x").searchParams;
              assert.equal(next.get("sort"), sort, label);
              assert.equal(next.get("status"), status ?? null, label);
              assert.equal(next.get("q"), q ?? null, label);
            }
          }
        }
      }
    });

    test("status and category orders: every pet once at any page size, ties by id, no status last", async () => {
      for (const sort of ["status", "-status", "category", "-category"] as const) {
        for (const limit of [1, 2, 5, 100]) {
          const { pets } = await walk(`/v1/pets?limit=${limit}&sort=${sort}`);
          const label = `sort=${sort} limit=${limit}`;
          assert.equal(new Set(pets.map((pet) => pet.id)).size, created.length, label);
          assert.deepEqual(
            pets.map((pet) => pet.id),
            sorted(created, sort).map((pet) => pet.id),
            label,
          );
          if (sort.endsWith("status")) {
            // The pets without a status end the ascending order and start the descending one.
            const none = created.filter((pet) => pet.status === undefined).length;
            const ends = sort === "status" ? pets.slice(-none) : pets.slice(0, none);
            assert.ok(
              ends.every((pet) => pet.status === undefined),
              label,
            );
          }
        }
      }
      // The extremes of int64 as a category key, in the cursor and in the walk.
      for (const categoryId of ["-9223372036854775808", "9223372036854775807"]) {
        const cursor = Buffer.from(`p2:category:1:${categoryId}`).toString("base64url");
        const reply = await api("GET", `/v1/pets?limit=100&sort=category&cursor=${cursor}`);
        assert.equal(reply.status, 200, reply.text);
        assert.equal(reply.body.length, categoryId.startsWith("-") ? created.length : 0);
      }
    });

    test("without sort: ascending id as before, links without sort, and old cursors still work", async () => {
      const { pets, paths } = await walk("/v1/pets?limit=5");
      assert.deepEqual(
        pets.map((pet) => pet.id),
        sorted(created, "id").map((pet) => pet.id),
      );
      for (const path of paths) assert.doesNotMatch(path, /sort=/);
      // A cursor as listPets wrote it before it could sort: "p1:<id>", base64url.
      const third = created[2].id;
      const old = Buffer.from(`p1:${third}`).toString("base64url");
      for (const query of [`cursor=${old}`, `cursor=${old}&sort=id`]) {
        const reply = await api("GET", `/v1/pets?limit=2&${query}`);
        assert.equal(reply.status, 200, reply.text);
        assert.deepEqual(
          reply.body.map((pet: Pet) => pet.id),
          [created[3].id, created[4].id],
        );
      }
    });

    test("a cursor from one order is refused in another with a 400 naming both", async () => {
      for (const from of SORTS) {
        const first = await api("GET", `/v1/pets?limit=2&sort=${encodeURIComponent(from)}`);
        const cursor = new URL(nextPath(first)!, "http://x").searchParams.get("cursor")!;
        for (const to of SORTS.filter((sort) => sort !== from)) {
          const reply = await api("GET", `/v1/pets?limit=2&sort=${encodeURIComponent(to)}&cursor=${cursor}`);
          assertError(reply, 400, "invalid_query", "cursor");
          assert.match(reply.body.message, new RegExp(`sort=${from} order, not sort=${to}`));
        }
      }
    });

    test("bad sort values and forged cursors are 400 invalid_query, never a 500", async () => {
      const forged = (text: string) => Buffer.from(text).toString("base64url");
      const cases: [string, string][] = [
        ["sort=created", "sort"],
        ["sort=name,-id", "sort"],
        ["sort=NAME", "sort"],
        ["sort=", "sort"],
        ["sort=name&sort=-name", "sort"],
        [`sort=name&cursor=${forged("p2:name:1")}`, "cursor"],
        [`sort=name&cursor=${forged("p2:name:1:")}`, "cursor"],
        [`sort=-id&cursor=${forged("p2:-id:1:Rex")}`, "cursor"],
        [`sort=-id&cursor=${forged("p2:-id:01")}`, "cursor"],
        [`sort=-id&cursor=${forged("p2:-id:9223372036854775808")}`, "cursor"],
        [
          `sort=name&cursor=${Buffer.concat([Buffer.from("p2:name:1:"), Buffer.from([0xff])]).toString("base64url")}`,
          "cursor",
        ],
        [`sort=name&cursor=${"A".repeat(1201)}`, "cursor"],
        ["sort=Status", "sort"],
        ["sort=category,id", "sort"],
        ["sort=categoryId", "sort"],
        [`sort=status&cursor=${forged("p2:status:1")}`, "cursor"],
        [`sort=status&cursor=${forged("p2:status:1:")}`, "cursor"],
        [`sort=status&cursor=${forged("p2:status:1:lost")}`, "cursor"],
        [`sort=-status&cursor=${forged("p2:-status:1:null")}`, "cursor"],
        [`sort=category&cursor=${forged("p2:category:1")}`, "cursor"],
        [`sort=category&cursor=${forged("p2:category:1:x")}`, "cursor"],
        [`sort=category&cursor=${forged("p2:category:1:01")}`, "cursor"],
        [`sort=-category&cursor=${forged("p2:-category:1:-0")}`, "cursor"],
        [`sort=category&cursor=${forged("p2:category:1:9223372036854775808")}`, "cursor"],
        [`sort=category&cursor=${forged("p2:category:1:-9223372036854775809")}`, "cursor"],
      ];
      for (const [query, path] of cases) assertError(await api("GET", `/v1/pets?${query}`), 400, "invalid_query", path);
      // A name cursor carries the name as it is, so a 200-character name of 4-byte characters still fits.
      const long = await create({ name: "🐈".repeat(200), categoryId: 1 });
      const cursor = encodeCursor({ sort: "-name", id: long.id, name: long.name });
      const reply = await api("GET", `/v1/pets?sort=-name&limit=1&cursor=${cursor}`);
      assert.equal(reply.status, 200, reply.text);
      await api("DELETE", `/v1/pets/${long.id}`);
    });

    test("the counts are exact at start, after creates, status changes and deletes, and with q", async () => {
      assert.deepEqual(await counts(), expectedCounts(created));
      const pet = await create({ name: "Counted", categoryId: 1, status: "pending" });
      let now = [...created, pet];
      assert.deepEqual(await counts(), expectedCounts(now));
      for (const status of ["sold", null, "available", "available"] as const) {
        const reply = await call(server.baseUrl, "PATCH", `/v1/pets/${pet.id}`, {
          key,
          body: { status },
          headers: { "Content-Type": "application/merge-patch+json" },
        });
        assert.equal(reply.status, 200, reply.text);
        now = [...created, reply.body as Pet];
        assert.deepEqual(await counts(), expectedCounts(now), `after status ${status}`);
      }
      // A change of name alone leaves the counts as they are.
      const renamed = await call(server.baseUrl, "PATCH", `/v1/pets/${pet.id}`, {
        key,
        body: { name: "Counted again" },
        headers: { "Content-Type": "application/merge-patch+json" },
      });
      assert.equal(renamed.status, 200);
      assert.deepEqual(await counts(), expectedCounts(now));
      assert.equal((await api("DELETE", `/v1/pets/${pet.id}`)).status, 204);
      assert.deepEqual(await counts(), expectedCounts(created));

      for (const q of ["re", "rex", "émi", "ELL", "no such pet"]) {
        const matching = created.filter((candidate) => contains(candidate.name, q));
        assert.deepEqual(await counts(`?q=${encodeURIComponent(q)}`), expectedCounts(matching), q);
      }
    });

    test("concurrent creates, status changes and deletes leave the counts equal to a recount", async () => {
      const extra = await Promise.all(
        Array.from({ length: 24 }, (_, index) => {
          const status = STATUSES[index % STATUSES.length];
          return create({ name: `Crowd ${index}`, categoryId: 2, ...(status ? { status } : {}) });
        }),
      );
      const moves = extra.slice(0, 16).map((pet, index) =>
        call(server.baseUrl, "PATCH", `/v1/pets/${pet.id}`, {
          key,
          // Opposite moves between the same statuses, at once: they must queue, never deadlock.
          body: { status: index % 2 ? "available" : "sold" },
          headers: { "Content-Type": "application/merge-patch+json" },
        }),
      );
      const deletions = extra.slice(16, 22).map((pet) => api("DELETE", `/v1/pets/${pet.id}`));
      const creations = Array.from({ length: 8 }, (_, index) =>
        create({ name: `Late ${index}`, categoryId: 2, status: index % 2 ? "sold" : "pending" }),
      );
      const replies = await Promise.all([...moves, ...deletions]);
      for (const reply of replies) assert.ok(reply.status === 200 || reply.status === 204, reply.text);
      await Promise.all(creations);
      const everyPet = (await walk("/v1/pets?limit=100")).pets;
      assert.deepEqual(await counts(), expectedCounts(everyPet));
      // Back to the catalogue the other tests know.
      const known = new Set(created.map((pet) => pet.id));
      for (const pet of everyPet) if (!known.has(pet.id)) await api("DELETE", `/v1/pets/${pet.id}`);
      assert.deepEqual(await counts(), expectedCounts(created));
    });

    test("200 concurrent creates of one status, then creates, deletes and status changes at once: exact", async () => {
      const crowd = await Promise.all(
        Array.from({ length: 200 }, (_, index) => create({ name: `Same ${index}`, categoryId: 1, status: "pending" })),
      );
      assert.deepEqual(await counts(), expectedCounts([...created, ...crowd]));
      if (provider === "postgresql") {
        // Each create appended its own delta: no counter row was written, so none was waited for.
        const deltas = await sql<{ rows: string }>(
          `SELECT count(*)::text AS rows FROM pet_status_count_deltas WHERE status = 'pending' AND delta = 1`,
        );
        assert.ok(Number(deltas[0].rows) >= 200, deltas[0].rows);
      }
      const mixed = await Promise.all([
        ...crowd.slice(0, 60).map((pet) => api("DELETE", `/v1/pets/${pet.id}`)),
        ...crowd.slice(60, 140).map((pet, index) =>
          call(server.baseUrl, "PATCH", `/v1/pets/${pet.id}`, {
            key,
            body: { status: [null, "sold", "available", "pending"][index % 4] },
            headers: { "Content-Type": "application/merge-patch+json" },
          }),
        ),
        ...Array.from({ length: 60 }, (_, index) =>
          api("POST", "/v1/pets", { name: `Mixed ${index}`, categoryId: 1, status: index % 2 ? "pending" : "sold" }),
        ),
      ]);
      for (const reply of mixed) assert.ok([200, 201, 204].includes(reply.status), reply.text);
      const everyPet = (await walk("/v1/pets?limit=100")).pets;
      assert.equal(everyPet.length, created.length + 200);
      assert.deepEqual(await counts(), expectedCounts(everyPet));
      const known = new Set(created.map((pet) => pet.id));
      await Promise.all(everyPet.filter((pet) => !known.has(pet.id)).map((pet) => api("DELETE", `/v1/pets/${pet.id}`)));
      assert.deepEqual(await counts(), expectedCounts(created));
    });

    test("the counts are exact before, during and after folds of the deltas, with writers at once", async () => {
      const extra = await Promise.all(
        Array.from({ length: 120 }, (_, index) => {
          const status = STATUSES[index % STATUSES.length];
          return create({ name: `Folded ${index}`, categoryId: 2, ...(status ? { status } : {}) });
        }),
      );
      const wanted = expectedCounts([...created, ...extra]);
      assert.deepEqual(await counts(), wanted, "before");
      // Folds of 3 deltas a statement, two at once (as two instances would run them), while the counts are read:
      // every read in between must give the same counts, none a delta twice or none.
      let folding = true;
      const folds = Promise.all([foldStatusCountDeltas(client, 3), foldStatusCountDeltas(client, 3)]).finally(
        () => (folding = false),
      );
      let reads = 0;
      while (folding || reads < 5) {
        assert.deepEqual(await counts(), wanted, `read ${reads} during the folds`);
        reads++;
      }
      const [first, second] = await folds;
      if (provider === "postgresql") {
        assert.ok(first.rows + second.rows >= 120, `${first.rows} + ${second.rows} folded`);
        assert.ok(first.batches + second.batches > 2, `${first.batches} + ${second.batches} statements`);
        console.log(`folds ran ${first.batches} + ${second.batches} statements beside ${reads} reads`);
      } else
        assert.deepEqual(
          [first, second],
          [
            { rows: 0, batches: 0 },
            { rows: 0, batches: 0 },
          ],
        );
      assert.deepEqual(await counts(), wanted, "after");

      if (provider === "postgresql") {
        // Writers (some holding their transaction open a while, so that folds meet uncommitted deltas), folds and
        // reads at once; each read compares the app's statement with a recount of the pets in the same statement,
        // so in one snapshot.
        const pool = new pg.Pool({ connectionString: database.url, max: 12 });
        try {
          const check = async () => {
            const { rows } = await pool.query<{ status: string; count: string; actual: string }>(
              `WITH kept AS (${POSTGRES_STATUS_COUNTS})
               SELECT kept.status, kept.count,
                 (SELECT count(*) FROM pets WHERE coalesce(pets.status::text, 'none') = kept.status)::text AS actual
               FROM kept`,
            );
            assert.equal(rows.length, 4);
            for (const row of rows) assert.equal(row.count, row.actual, `${row.status} during writes and folds`);
          };
          const ids = extra.map((pet) => pet.id);
          const writer = async (worker: number) => {
            for (let step = 0; step < 30; step++) {
              const client = await pool.connect();
              try {
                await client.query("BEGIN");
                const status = ["available", "pending", "sold", null][(worker + step) % 4];
                await client.query(`INSERT INTO pets (name, category_id, status) VALUES ($1, 1, $2)`, [
                  `Writer ${worker} ${step}`,
                  status,
                ]);
                const id = ids[(worker * 30 + step) % ids.length];
                if (step % 3 === 0) await client.query("DELETE FROM pets WHERE id = $1", [id]);
                else
                  await client.query(`UPDATE pets SET status = $1 WHERE id = $2`, [
                    ["sold", null, "pending", "available"][(worker + step) % 4],
                    id,
                  ]);
                if (step % 5 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
                await client.query(step % 7 === 6 ? "ROLLBACK" : "COMMIT");
              } finally {
                client.release();
              }
            }
          };
          let writing = true;
          const writers = Promise.all(Array.from({ length: 8 }, (_, worker) => writer(worker))).finally(
            () => (writing = false),
          );
          let rounds = 0;
          while (writing) {
            await Promise.all([foldStatusCountDeltas(client, 5), check(), check()]);
            rounds++;
          }
          await writers;
          await check();
          assert.ok(rounds > 1, `${rounds} rounds`);
        } finally {
          await pool.end();
        }
      }

      // Housekeeping folds what is left: the delta table is empty after a run, and the counts unchanged.
      await Promise.all(Array.from({ length: 10 }, (_, index) => create({ name: `Unfolded ${index}`, categoryId: 3 })));
      const everyPet = (await walk("/v1/pets?limit=100")).pets;
      const report = await runHousekeeping({ database: client });
      if (provider === "postgresql") {
        assert.ok(report.petStatusCountDeltas.rows >= 10, JSON.stringify(report));
        assert.deepEqual(await sql("SELECT id FROM pet_status_count_deltas"), []);
      } else assert.deepEqual(report.petStatusCountDeltas, { rows: 0, batches: 0 });
      assert.deepEqual(await counts(), expectedCounts(everyPet));

      const known = new Set(created.map((pet) => pet.id));
      await Promise.all(everyPet.filter((pet) => !known.has(pet.id)).map((pet) => api("DELETE", `/v1/pets/${pet.id}`)));
      assert.deepEqual(await counts(), expectedCounts(created));
    });

    test("countPets takes only q, and answers only with a key; the OpenAPI document lists it and sort", async () => {
      for (const query of ["?q=", "?status=sold", "?q=a&q=b", `?q=${"x".repeat(101)}`])
        assertError(await api("GET", `/v1/pets/counts${query}`), 400, "invalid_query");
      assertError(await call(server.baseUrl, "GET", "/v1/pets/counts"), 401, "unauthorized");
      assert.equal((await api("POST", "/v1/pets/counts", {})).status, 405);
      const document = (await call(server.baseUrl, "GET", "/v1/openapi.json")).body;
      assert.equal(document.paths["/pets/counts"].get.operationId, "countPets");
      const sort = document.paths["/pets"].get.parameters.find(
        (parameter: { name: string }) => parameter.name === "sort",
      );
      assert.deepEqual(sort.schema.enum ?? document.components.schemas.PetSort.enum, SORTS);
      assert.ok(document.components.schemas.PetCounts);
    });

    test("the admin app gets the same orders and counts through its own endpoints", async () => {
      const cookie = await signInStaff(server.baseUrl, STAFF.email, STAFF.password);
      const admin = (path: string) => call(server.baseUrl, "GET", path, { headers: { Cookie: cookie } });
      assertError(await call(server.baseUrl, "GET", "/admin/api/pets/counts"), 401, "session_required");
      const viaAdmin = await admin("/admin/api/pets/counts?q=rex");
      assert.equal(viaAdmin.status, 200, viaAdmin.text);
      assert.deepEqual(viaAdmin.body, await counts("?q=rex"));
      const first = await admin("/admin/api/pets?limit=4&sort=-name");
      assert.equal(first.status, 200, first.text);
      const cursor = first.headers.get("x-next-cursor")!;
      const second = await admin(`/admin/api/pets?limit=4&sort=-name&cursor=${cursor}`);
      assert.deepEqual(
        [...first.body, ...second.body].map((pet: Pet) => pet.id),
        sorted(created, "-name")
          .slice(0, 8)
          .map((pet) => pet.id),
      );
    });
  });

  describe(`the plans of listPets' queries on ${provider}`, () => {
    let database: TestDatabase;
    const PETS = 20_000;

    before(async () => {
      database = await createMigratedDatabase(provider);
      await seedPlanPets(database, PETS);
    });

    after(async () => database?.drop());

    test("bulk inserts keep the counts exact; a search counts 10,000 matches exactly, then stops", async () => {
      const key = await createKey(database.url);
      const server = await startServer("custom", database.url);
      try {
        const counts = async (query: string) => {
          const reply = await call(server.baseUrl, "GET", `/v1/pets/counts${query}`, { key });
          assert.equal(reply.status, 200, reply.text);
          return reply.body;
        };
        // i % 4 gives each status (and none) a quarter of the 2,500 numbers of each of the 8 names.
        const quarter = BigInt(PETS / 4);
        const byStatus = { available: quarter, pending: quarter, sold: quarter, none: quarter };
        assert.deepEqual(await counts(""), { total: BigInt(PETS), byStatus, exact: true });
        // "a" is in 4 of the 8 names: exactly 10,000 matches, all counted.
        const eighth = BigInt(PETS / 8);
        assert.deepEqual(await counts("?q=a"), {
          total: 10_000n,
          byStatus: { available: eighth, pending: eighth, sold: eighth, none: eighth },
          exact: true,
        });
        // "2" is in 1,043 of the numbers (8,344 names); "1" in 1,447 (11,576): past the bound.
        assert.equal((await counts("?q=2")).total, 8_344n);
        const bounded = await counts("?q=1");
        assert.equal(bounded.exact, false);
        assert.equal(bounded.total, 10_001n);
      } finally {
        await server.stop();
      }
    });

    const explain = (options: ListOptions & { sort: PetSort }) => explainListing(database, options);
    /** A cursor in the middle, holding every order's key. */
    const PLAN_CURSOR = { id: BigInt(PETS / 2), name: "luna 1234", status: "pending", categoryId: 3n } as const;

    test("every order, first page and deep page, with and without status, walks an index without sorting", async () => {
      for (const sort of SORTS) {
        for (const status of [undefined, "sold"] as const) {
          for (const after of [undefined, PLAN_CURSOR]) {
            // A status order's cursor holds the status the list is filtered by, as a real one would.
            const plan = await explain({
              limit: 20,
              sort,
              status,
              after: after && { ...after, status: status ?? "pending" },
            });
            const label = `sort=${sort} status=${status} after=${after?.id}\n${plan}`;
            // A status order without a status walks (status, id) once per status from the cursor's on (pending:
            // 3 ascending, 2 descending) and merges those few rows.
            // A category order from a cursor walks the rest of the cursor's category, then the categories after it.
            const walks =
              sort.endsWith("status") && !status
                ? !after
                  ? 4
                  : sort === "status"
                    ? 3
                    : 2
                : sort.endsWith("category") && after
                  ? 2
                  : 1;
            if (provider === "sqlite") {
              if (walks === 1) assert.doesNotMatch(plan, /TEMP B-TREE/, label);
              const searches = plan.match(/^ *(SEARCH|SCAN) pets( USING [^\n]*)?$/gm) ?? [];
              assert.equal(searches.length, walks, label);
              for (const search of searches) {
                // A deep page starts from the cursor in the index (SEARCH), never from the table's start.
                if (after || walks > 1)
                  assert.match(search, /SEARCH pets USING (COVERING INDEX|INDEX|INTEGER PRIMARY KEY)/, label);
                else assert.match(search, /(SEARCH|SCAN) pets( USING (COVERING INDEX|INDEX)|$)/, label);
              }
            } else {
              assert.match(plan, /Index (Only )?Scan( Backward)? using pets_/, label);
              assert.doesNotMatch(plan, /Seq Scan/, label);
              // Only the merge of the status walks' few rows may be sorted, above every walk's Limit.
              if (walks === 1) assert.doesNotMatch(plan, /Sort/, label);
              else assert.equal((plan.match(/Limit/g) ?? []).length, walks + 1, label);
              if (after) assert.match(plan, /Index Cond: .*(id|lower)/, label);
            }
          }
        }
      }
    });

    test("a search in any order never scans the table", async () => {
      for (const sort of SORTS) {
        for (const q of ["le", "luna", "Émi"]) {
          const plan = await explain({
            limit: 20,
            sort,
            q,
            after: { id: 100n, name: "Coco 9", status: "sold", categoryId: 2n },
          });
          const label = `sort=${sort} q=${q}\n${plan}`;
          if (provider === "sqlite") assert.doesNotMatch(plan, /^SCAN pets$/m, label);
          else assert.doesNotMatch(plan, /Seq Scan/, label);
          if (sort.replace("-", "") !== "id" && [...q].length >= 3) {
            // The matches, from the trigram index, sorted: as many as the search finds, however many pets.
            if (provider === "sqlite") assert.match(plan, /MATERIALIZE matches\nSCAN pets_search VIRTUAL TABLE/, label);
            else assert.match(plan, /CTE matches[^]*Bitmap Index Scan on pets_name_trgm_idx/, label);
          } else if (provider === "sqlite" && !sort.endsWith("status") && !sort.endsWith("category"))
            // Status orders, and category orders from a cursor, merge a few walks' rows: only those are sorted.
            assert.doesNotMatch(plan, /TEMP B-TREE/, label);
        }
      }
    });
  });
}
