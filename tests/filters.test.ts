import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { parse } from "csv-parse/sync";
import { INT64_MAX, INT64_MIN } from "@/lib/http/int64";
import type { PetSort, PetStatus } from "@/lib/pets/schema";
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

// listPets' filters on every field (issue 24): `status=none` (the pets without a status) and `categoryId` (one
// category or several, comma-separated), over HTTP against the production build on SQLite and PostgreSQL. Every
// combination with status, q and each sort is paged through with the Link header and compared with a filter
// and sort done here; countPets and exportPets take the same filters; bad values are 400 invalid_query naming
// the parameter; and the plans of the queries walk the category indexes, a bounded read per category.

const SORTS: PetSort[] = ["id", "-id", "name", "-name", "status", "-status", "category", "-category"];
const STAFF = { email: "filters@animal-store.example", password: "a staff member's password" };
const CATEGORIES = [1n, 2n, 3n, -5n, 0n, INT64_MAX, INT64_MIN];
const NAMES = ["Rex", "rex", "Bella", "bella 2", "Émile", "Zoë", "Coco", "Rexa", "Max", "luna", "Ziggy", "a"];
const STATUSES: (PetStatus | undefined)[] = ["available", undefined, "pending", "sold", undefined];

const providers = await testProviders();

for (const provider of providers) {
  describe(`filtering pets by status none and category on ${provider}`, () => {
    let database: TestDatabase;
    let server: RunningServer;
    let key: string;
    const created: Pet[] = [];
    const api = (method: string, path: string, body?: unknown) => call(server.baseUrl, method, path, { key, body });
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
    const wanted = (filters: { status?: string; categories?: bigint[]; q?: string }) =>
      created.filter(
        (pet) =>
          (filters.status === undefined || (pet.status ?? "none") === filters.status) &&
          (filters.categories === undefined || filters.categories.includes(pet.categoryId)) &&
          (filters.q === undefined || pet.name.toLowerCase().includes(filters.q.toLowerCase())),
      );

    before(async () => {
      database = await createMigratedDatabase(provider);
      key = await createKey(database.url);
      await createStaff(database.url, STAFF.email, STAFF.password);
      server = await startServer("custom", database.url, { ADMIN_API_KEY: key });
      for (let index = 0; index < 42; index++) {
        const status = STATUSES[index % STATUSES.length];
        const pet = { name: NAMES[index % NAMES.length], categoryId: CATEGORIES[index % CATEGORIES.length] };
        const reply = await api("POST", "/v1/pets", { ...pet, ...(status ? { status } : {}) });
        assert.equal(reply.status, 201, reply.text);
        created.push(reply.body as Pet);
      }
    });

    after(async () => {
      await server?.stop();
      await database?.drop();
    });

    test("status=none, categoryId, q and every sort page through exactly the pets filtered here", async () => {
      const categorySets = [undefined, [2n], [3n, 1n], [INT64_MIN, 0n, INT64_MAX, -5n], [99n]];
      for (const sort of SORTS) {
        for (const status of [undefined, "none", "sold"]) {
          for (const categories of categorySets) {
            for (const q of [undefined, "re", "rex"]) {
              const query = new URLSearchParams({ limit: "2", sort });
              if (status) query.set("status", status);
              if (categories) query.set("categoryId", categories.join(","));
              if (q) query.set("q", q);
              const label = query.toString();
              const { pets, paths } = await walk(`/v1/pets?${query}`);
              assert.deepEqual(
                pets.map((pet) => `${pet.id} ${pet.name}`),
                sorted(wanted({ status, categories, q }), sort).map((pet) => `${pet.id} ${pet.name}`),
                label,
              );
              // Every next link keeps every filter (the ids ascending, as the server read them).
              for (const path of paths.slice(1)) {
                const next = new URL(path, "http://x").searchParams;
                assert.equal(next.get("status"), status ?? null, label);
                assert.equal(next.get("q"), q ?? null, label);
                assert.equal(
                  next.get("categoryId"),
                  categories ? [...categories].sort((a, b) => (a < b ? -1 : 1)).join(",") : null,
                  label,
                );
              }
            }
          }
        }
      }
    });

    test("status=none lists only pets without a status; repeated category ids count once", async () => {
      const { pets } = await walk("/v1/pets?status=none&limit=100");
      assert.ok(pets.length > 0);
      for (const pet of pets) assert.equal(pet.status, undefined);
      const once = await api("GET", "/v1/pets?categoryId=2,2,2&limit=100");
      assert.deepEqual(
        (once.body as Pet[]).map((pet) => pet.id),
        wanted({ categories: [2n] }).map((pet) => pet.id),
      );
    });

    test("countPets counts the categories' pets by status, with and without q", async () => {
      for (const categories of [[2n], [3n, INT64_MIN], [99n]]) {
        for (const q of [undefined, "re"]) {
          const query = new URLSearchParams({ categoryId: categories.join(",") });
          if (q) query.set("q", q);
          const reply = await api("GET", `/v1/pets/counts?${query}`);
          assert.equal(reply.status, 200, reply.text);
          const byStatus = { available: 0n, pending: 0n, sold: 0n, none: 0n };
          const pets = wanted({ categories, q });
          for (const pet of pets) byStatus[pet.status ?? "none"] += 1n;
          assert.deepEqual(reply.body, { total: BigInt(pets.length), byStatus, exact: true }, String(query));
        }
      }
    });

    test("exportPets takes the same filters: the file is the filtered list", async () => {
      const reply = await api("GET", "/v1/pets/export?status=none&categoryId=3,-5&sort=-name");
      assert.equal(reply.status, 200, reply.text);
      assert.match(reply.headers.get("content-disposition")!, /filename="pets-no-status-category--5-3-by-name-desc/);
      const rows: { id: string }[] = parse(reply.text, { columns: true });
      assert.deepEqual(
        rows.map((row) => BigInt(row.id)),
        sorted(wanted({ status: "none", categories: [3n, -5n] }), "-name").map((pet) => pet.id),
      );
      // The status and category orders export as they list, with and without filters.
      const exports: [string, PetSort, { status?: string; categories?: bigint[] }][] = [
        ["sort=status", "status", {}],
        ["sort=-status&categoryId=1,3", "-status", { categories: [1n, 3n] }],
        ["sort=category", "category", {}],
        ["sort=-category&status=none", "-category", { status: "none" }],
      ];
      for (const [query, sort, filter] of exports) {
        const file = await api("GET", `/v1/pets/export?${query}`);
        assert.equal(file.status, 200, file.text);
        const ids = parse<{ id: string }>(file.text, { columns: true }).map((row) => BigInt(row.id));
        assert.deepEqual(
          ids,
          sorted(wanted(filter), sort).map((pet) => pet.id),
          query,
        );
        assert.match(file.headers.get("content-disposition")!, /-by-(status|category)(-descending)?-/, query);
      }
    });

    test("bad filters are 400 invalid_query naming the parameter, on all three operations", async () => {
      const many = Array.from({ length: 21 }, (_, index) => index + 1).join(",");
      const bad: [query: string, parameter: string][] = [
        ["categoryId=", "categoryId"],
        ["categoryId=a", "categoryId"],
        ["categoryId=1,,2", "categoryId"],
        ["categoryId=1,", "categoryId"],
        ["categoryId=1.5", "categoryId"],
        ["categoryId=01", "categoryId"],
        ["categoryId=-0", "categoryId"],
        ["categoryId=+3", "categoryId"],
        ["categoryId=%201", "categoryId"],
        ["categoryId=1e3", "categoryId"],
        [`categoryId=${INT64_MAX + 1n}`, "categoryId"],
        [`categoryId=${INT64_MIN - 1n}`, "categoryId"],
        [`categoryId=${many}`, "categoryId"],
        ["categoryId=1&categoryId=2", "categoryId"],
        ["categoryID=1", ""],
        ["category=1", ""],
      ];
      for (const [query, parameter] of bad) {
        for (const path of ["/v1/pets", "/v1/pets/counts", "/v1/pets/export"])
          assertError(await api("GET", `${path}?${query}`), 400, "invalid_query", parameter || undefined);
      }
      for (const status of ["None", "null", "", "none,sold", "unknown"]) {
        for (const path of ["/v1/pets", "/v1/pets/export"])
          assertError(await api("GET", `${path}?status=${status}`), 400, "invalid_query", "status");
      }
      // Twenty categories are allowed.
      const twenty = Array.from({ length: 20 }, (_, index) => index - 10).join(",");
      assert.equal((await api("GET", `/v1/pets?categoryId=${twenty}`)).status, 200);
      // countPets still takes no status: it counts every status at once.
      assertError(await api("GET", "/v1/pets/counts?status=none"), 400, "invalid_query");
    });

    test("a cursor continues any filters: taken from a filtered page, it pages the filtered list", async () => {
      const first = await api("GET", "/v1/pets?limit=1&categoryId=1,2&status=available");
      const cursor = new URL(nextPath(first)!, "http://x").searchParams.get("cursor")!;
      const rest = await api("GET", `/v1/pets?limit=100&categoryId=1,2&status=available&cursor=${cursor}`);
      assert.deepEqual(
        [...(first.body as Pet[]), ...(rest.body as Pet[])].map((pet) => pet.id),
        wanted({ status: "available", categories: [1n, 2n] }).map((pet) => pet.id),
      );
    });

    test("the OpenAPI document describes the new parameters", async () => {
      const document = (await call(server.baseUrl, "GET", "/v1/openapi.json")).body;
      for (const path of ["/pets", "/pets/counts", "/pets/export"]) {
        const parameters = document.paths[path].get.parameters as { name: string; schema: Record<string, unknown> }[];
        const categoryId = parameters.find((parameter) => parameter.name === "categoryId");
        assert.equal(categoryId?.schema.type, "string", path);
      }
      const status = (document.paths["/pets"].get.parameters as { name: string; schema: { enum: string[] } }[]).find(
        (parameter) => parameter.name === "status",
      );
      assert.deepEqual(status?.schema.enum, ["available", "pending", "sold", "none"]);
    });

    test("the admin app filters through its own endpoints, the cursor in X-Next-Cursor", async () => {
      const cookie = await signInStaff(server.baseUrl, STAFF.email, STAFF.password);
      const admin = (path: string) => call(server.baseUrl, "GET", path, { headers: { Cookie: cookie } });
      const first = await admin("/admin/api/pets?limit=2&categoryId=1,3&status=none");
      assert.equal(first.status, 200, first.text);
      const cursor = first.headers.get("x-next-cursor")!;
      const second = await admin(`/admin/api/pets?limit=100&categoryId=1,3&status=none&cursor=${cursor}`);
      assert.deepEqual(
        [...(first.body as Pet[]), ...(second.body as Pet[])].map((pet) => pet.id),
        wanted({ status: "none", categories: [1n, 3n] }).map((pet) => pet.id),
      );
      const counts = await admin("/admin/api/pets/counts?categoryId=1,3");
      assert.equal(counts.status, 200, counts.text);
      assert.equal(counts.body.total, BigInt(wanted({ categories: [1n, 3n] }).length));
    });
  });

  describe(`the plans of filtered listPets queries on ${provider}`, () => {
    let database: TestDatabase;
    const PETS = 20_000;

    before(async () => {
      database = await createMigratedDatabase(provider);
      await seedPlanPets(database, PETS);
    });

    after(async () => database?.drop());

    const explain = (options: ListOptions & { sort: PetSort }) => explainListing(database, options);
    /** A cursor in the middle, holding every order's key. */
    const PLAN_CURSOR = { id: BigInt(PETS / 2), name: "luna 1234", status: "pending", categoryId: 3n } as const;

    test("one category or several, any order and status: a bounded walk of a category index per category", async () => {
      for (const sort of SORTS) {
        for (const categoryIds of [[2n], [2n, 5n], [1n, 3n, 4n, 6n]]) {
          for (const status of [undefined, "none", "sold"] as const) {
            for (const after of [undefined, PLAN_CURSOR]) {
              // A status order's cursor holds the status the list is filtered by, as a real one would.
              const held: PetStatus | null = status === "none" ? null : (status ?? "pending");
              const position = after && { ...after, status: held };
              const plan = await explain({ limit: 20, sort, status, categoryIds, after: position });
              const label = `sort=${sort} categories=${categoryIds.join(",")} status=${status} after=${after?.id}`;
              const described = `${label}\n${plan}`;
              // A status order walks each status from the cursor's on (pending: 3 ascending, 2 descending).
              const statuses = !sort.endsWith("status") || status ? 1 : !after ? 4 : sort === "status" ? 3 : 2;
              // A category order from a cursor (category 3) walks the categories from the cursor's on, and merges.
              const fromCursor = sort.endsWith("category") && after !== undefined;
              const remaining = fromCursor
                ? categoryIds.filter((id) => (sort === "category" ? id >= 3n : id <= 3n)).length
                : categoryIds.length;
              const expected = remaining * statuses;
              const merged = expected > 1 || (fromCursor && expected === 1);
              if (provider === "sqlite") {
                assert.doesNotMatch(plan, /^SCAN pets$/m, described);
                // Each walk is a search of its category in an index, in the index's order: no sort of its pets.
                const walks = plan.match(/SEARCH pets USING (COVERING )?INDEX \S+/g) ?? [];
                assert.equal(walks.length, expected, described);
                if (!merged) assert.doesNotMatch(plan, /TEMP B-TREE/, described);
              } else {
                assert.doesNotMatch(plan, /Seq Scan/, described);
                const walks = plan.match(/Index (Only )?Scan( Backward)? using pets_\S+/g) ?? [];
                assert.ok(walks.length >= expected, described);
                // A sort, if any, is of the walks' few rows (each under a Limit), never of a category's pets.
                const limits = plan.match(/Limit/g) ?? [];
                assert.equal(limits.length, merged ? expected + 1 : expected && 1, described);
              }
            }
          }
        }
      }
    });
  });
}
