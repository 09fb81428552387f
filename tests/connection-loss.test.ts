import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import { assertError, call, type Reply } from "@/scripts/harness/http";
import {
  createTestDatabase,
  postgresAvailable,
  startServer,
  type RunningServer,
  type TestDatabase,
} from "@/scripts/harness/servers";
import { createKey } from "@/scripts/harness/fixtures";

// Issue 20, item 6: PostgreSQL connections lost mid-request, over real HTTP against the production server. While
// writers create pets (each create an interactive transaction: the pet, then its audit record), another session
// terminates every backend of the test database again and again, so that connections die in the middle of queries
// and between the queries of a transaction. Every answer is then a 201 or a 503 `service_unavailable` Error body
// with Retry-After (a client retries it), never a 500; and once the terminations stop, the server answers 201
// again by itself (pg's pool replaces the dead connections).

const postgres = await postgresAvailable();
const adminUrl = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

describe("PostgreSQL connections lost mid-request (server.ts)", { skip: !postgres }, () => {
  let database: TestDatabase;
  let server: RunningServer;
  let key: string;
  let killer: pg.Client;

  before(async () => {
    database = await createTestDatabase("postgresql");
    server = await startServer("custom", database.url);
    key = await createKey(database.url, "for the connection-loss test");
    killer = new pg.Client({ connectionString: adminUrl });
    await killer.connect();
  });

  after(async () => {
    await killer?.end();
    await server?.stop();
    await database?.drop();
  });

  const create = (name: string): Promise<Reply> =>
    call(server.baseUrl, "POST", "/v1/pets", { key, body: { name, categoryId: 1 } });

  test("terminated backends answer 503 with Retry-After, never 500; the server recovers", async () => {
    const databaseName = new URL(database.url).pathname.slice(1);
    const terminate = () =>
      killer.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
        [databaseName],
      );
    assert.equal((await create("Before")).status, 201);

    const statuses = new Map<number, number>();
    const unexpected: string[] = [];
    let running = true;
    let terminations = 0;
    const killing = (async () => {
      while (running) {
        await terminate();
        terminations++;
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
    })();
    const writer = async (writerIndex: number) => {
      for (let index = 0; running; index++) {
        const reply = await create(`Writer ${writerIndex} pet ${index}`);
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        if (reply.status === 201) continue;
        try {
          assertError(reply, 503, "service_unavailable");
          assert.equal(reply.headers.get("retry-after"), "1");
        } catch {
          if (unexpected.length < 5) unexpected.push(`${reply.status} ${reply.text}`);
        }
      }
    };
    const writers = Array.from({ length: 8 }, (_, index) => writer(index));
    await new Promise((resolve) => setTimeout(resolve, 4000));
    running = false;
    await Promise.all([killing, ...writers]);
    console.log(`connection loss: ${terminations} terminations, answers ${JSON.stringify([...statuses])}`);

    if (unexpected.length) {
      const errors = server.logs().match(/"status":500,.*?"error":"[^"]*/g) ?? [];
      console.log([...new Set(errors.map((line) => line.replace(/^.*"error":"/, "")))].join("\n"));
    }
    assert.deepEqual(unexpected, [], "every failure is a 503 Error body with Retry-After");
    assert.ok((statuses.get(503) ?? 0) > 0, "connections were lost while requests ran");

    // Recovery: with nothing terminating them, new connections serve requests again, soon, and then every one.
    const since = Date.now();
    let first = await create("First after");
    while (first.status !== 201 && Date.now() - since < 10_000) {
      assertError(first, 503, "service_unavailable");
      await new Promise((resolve) => setTimeout(resolve, 100));
      first = await create("First after");
    }
    assert.equal(first.status, 201, `recovered within 10 s: ${first.text}`);
    const recovered = await Promise.all(Array.from({ length: 8 }, (_, index) => create(`After ${index}`)));
    assert.deepEqual(
      recovered.map((reply) => reply.status),
      recovered.map(() => 201),
      recovered.map((reply) => reply.text).join("\n"),
    );
    const list = await call(server.baseUrl, "GET", "/v1/pets?limit=1", { key });
    assert.equal(list.status, 200, list.text);
  });
});
