import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { PET_NAMES } from "@/bench/pet-names";
import { EVENTS_LOCK } from "@/lib/events/outbox";

// The benchmark's fresh databases: a SQLite file in a temporary folder, or a PostgreSQL database on the
// local server that drop() removes. The app migrates them; this file only fills their tables in bulk, and reads back
// what the webhook rows check.

export type Provider = "sqlite" | "postgresql";

export type BenchDatabase = {
  provider: Provider;
  url: string;
  /**
   * Replaces every pet with `count` new ones: ids from 1; half available, a quarter pending, a quarter sold;
   * named like "Bella 42" (see petName).
   */
  seed(count: number): Promise<void>;
  /** Adds `count` pets after the existing ones, named and filled as seed does; returns the first new id. */
  append(count: number): Promise<bigint>;
  /**
   * Adds `count` available pets for placeOrder to hold and returns the first new pet's id; or, with `placed`, `count`
   * pending pets each held by a placed order (holding it past the run) for deliverOrder, returning the first new
   * order's id. Request k of a run then works on pet or order `first + k`.
   */
  appendForOrders(count: number, placed: boolean): Promise<bigint>;
  /** The id in the middle of the table, for a cursor deep into the list. */
  middleId(): Promise<bigint>;
  /**
   * Replaces the events feed with `count` events, as a store's month of changes reads: ids from 1, nine in ten
   * `pet.updated`, the rest `order.placed`; returns the last id.
   */
  seedEvents(count: number): Promise<bigint>;
  /**
   * Adds `count` pet.created events after the existing ones, in one transaction (on PostgreSQL under the outbox's
   * lock, as the app writes them); returns the first and last new ids. The webhook worker fans them out to the
   * endpoints that exist.
   */
  appendEvents(count: number): Promise<{ first: bigint; last: bigint }>;
  /** The webhook deliveries by state, and how many took more than one attempt. */
  deliveryStates(): Promise<{ byState: Record<string, number>; retried: number }>;
  /**
   * Brings the table to the state a live database reaches soon after a bulk load: on PostgreSQL, VACUUM ANALYZE,
   * which autovacuum would otherwise run in the middle of the measurements (sets the visibility map, so index-only
   * scans skip the heap). Nothing on SQLite.
   */
  settle(): Promise<void>;
  /** The pet in the middle of the name order (ASCII letters ignoring case), for a cursor deep into it. */
  middleByName(): Promise<{ id: bigint; name: string }>;
  drop(): Promise<void>;
};

const POSTGRES_SERVER = "postgresql://postgres@127.0.0.1:5432";
/** Event i's type: one in ten an order placed, the rest a pet updated. */
const EVENT_TYPE_OF_I = "CASE WHEN i % 10 = 0 THEN 'order.placed' ELSE 'pet.updated' END";
/** Event i's data: a pet as its /v1 read shows it (the same text on both databases). */
const eventData = (i: string) => `'{"id":' || ${i} || ',"name":"Bench ' || ${i} || '","categoryId":1,"status":"sold"}'`;
/** The text of a pet.created event's data: the pet as its /v1 read shows it. */
const createdData = (i: string) =>
  `'{"id":' || ${i} || ',"name":"Backlog ' || ${i} || '","categoryId":1,"status":"available"}'`;
const STATUS_OF_I = "CASE i % 4 WHEN 0 THEN 'pending' WHEN 1 THEN 'sold' ELSE 'available' END";

/**
 * The SQL of pet i's name (`i` a 64-bit integer expression, `nameAt(k)` the k-th of PET_NAMES from 0): a first
 * name and a number from 1 to 100. The first name is picked by Fibonacci hashing of i, so every name goes to
 * the same share of pets, spread evenly over the ids and independent of status and category (which follow
 * i % 4 and i % 6). The same arithmetic on both databases gives the same names.
 */
function petName(i: string, nameAt: (k: string) => string): string {
  return `${nameAt(`(${i} * 2654435761 % 4294967296) * ${PET_NAMES.length} / 4294967296`)} || ' ' || (1 + ${i} % 100)`;
}

// SQLite: a recursive CTE inserts every row in one statement, the names looked up in a temporary table; the
// triggers of the 0004_pet_life migration fill the FTS5 search table row by row as they would for any insert.
// The WAL is checkpointed afterwards, as SQLite's auto-checkpoint would do on a live database.
export function sqliteDatabase(folder: string): BenchDatabase {
  const file = path.join(folder, "bench.db");
  const open = () => new Database(file, { timeout: 10_000 });
  const insert = (sqlite: Database.Database, count: number) => {
    sqlite.exec("CREATE TEMP TABLE IF NOT EXISTS bench_names (k INTEGER PRIMARY KEY, name TEXT NOT NULL)");
    const addName = sqlite.prepare("INSERT OR REPLACE INTO bench_names (k, name) VALUES (?, ?)");
    PET_NAMES.forEach((name, k) => addName.run(k, name));
    const name = petName("i", (k) => `(SELECT name FROM bench_names WHERE k = ${k})`);
    sqlite
      .prepare(
        `INSERT INTO pets (name, category_id, status)
         WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         SELECT ${name}, 1 + i % 6, ${STATUS_OF_I} FROM n`,
      )
      .run(count);
  };
  return {
    provider: "sqlite",
    url: `file:${file}`,
    async seed(count) {
      const sqlite = open();
      try {
        sqlite
          .transaction(() => {
            sqlite.exec("DELETE FROM pets; DELETE FROM sqlite_sequence WHERE name = 'pets'");
            insert(sqlite, count);
          })
          .immediate();
        sqlite.pragma("wal_checkpoint(TRUNCATE)");
      } finally {
        sqlite.close();
      }
    },
    async append(count) {
      const sqlite = open();
      try {
        const first = sqlite
          .transaction(() => {
            const { next } = sqlite
              .prepare("SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'pets'), 0) + 1 AS next")
              .safeIntegers(true)
              .get() as { next: bigint };
            insert(sqlite, count);
            return next;
          })
          .immediate();
        sqlite.pragma("wal_checkpoint(TRUNCATE)");
        return first;
      } finally {
        sqlite.close();
      }
    },
    async appendForOrders(count, placed) {
      const sqlite = open();
      try {
        const first = sqlite
          .transaction(() => {
            const next = (table: string) =>
              (
                sqlite
                  .prepare(`SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = '${table}'), 0) + 1 AS next`)
                  .safeIntegers(true)
                  .get() as { next: bigint }
              ).next;
            const firstPet = next("pets");
            const firstOrder = next("orders");
            sqlite
              .prepare(
                `INSERT INTO pets (name, category_id, status)
               WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
               SELECT 'Ordered ' || i, 1, ? FROM n`,
              )
              .run(count, placed ? "pending" : "available");
            if (placed) {
              sqlite
                .prepare(
                  `INSERT INTO orders (pet_id, pet_name, status, customer_name, placed_at, expires_at)
                 SELECT id, name, 'placed', 'Bench', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'),
                   '2100-01-01T00:00:00.000+00:00'
                 FROM pets WHERE id >= ? ORDER BY id`,
                )
                .run(firstPet);
            }
            return placed ? firstOrder : firstPet;
          })
          .immediate(); // the write lock first: a read upgraded later fails while the servers write
        sqlite.pragma("wal_checkpoint(TRUNCATE)");
        return first;
      } finally {
        sqlite.close();
      }
    },
    async seedEvents(count) {
      const sqlite = open();
      try {
        sqlite.exec("DELETE FROM events");
        sqlite
          .prepare(
            `INSERT INTO events (id, type, occurred_at, data, previous)
             WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
             SELECT i, ${EVENT_TYPE_OF_I}, strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'), ${eventData("i")},
                    '{"status":"available"}' FROM n`,
          )
          .run(count);
        sqlite.pragma("wal_checkpoint(TRUNCATE)");
        return BigInt(count);
      } finally {
        sqlite.close();
      }
    },
    async appendEvents(count) {
      const sqlite = open();
      try {
        const first = sqlite
          .transaction(() => {
            const { next } = sqlite
              .prepare("SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0) + 1 AS next")
              .safeIntegers(true)
              .get() as { next: bigint };
            sqlite
              .prepare(
                `INSERT INTO events (type, occurred_at, data)
                 WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                 SELECT 'pet.created', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'), ${createdData("i")} FROM n`,
              )
              .run(count);
            return next;
          })
          .immediate(); // the write lock first, as appendForOrders
        return { first, last: first + BigInt(count) - 1n };
      } finally {
        sqlite.close();
      }
    },
    async deliveryStates() {
      const sqlite = open();
      try {
        const rows = sqlite
          .prepare(
            "SELECT state, count(*) AS count, sum(attempts > 1) AS retried FROM webhook_deliveries GROUP BY state",
          )
          .all() as { state: string; count: number; retried: number }[];
        return statesOf(rows);
      } finally {
        sqlite.close();
      }
    },
    async middleId() {
      const sqlite = open();
      try {
        const row = sqlite
          .prepare("SELECT id FROM pets ORDER BY id LIMIT 1 OFFSET (SELECT count(*) / 2 FROM pets)")
          .safeIntegers(true)
          .get() as { id: bigint };
        return row.id;
      } finally {
        sqlite.close();
      }
    },
    settle: () => Promise.resolve(), // SQLite has no vacuum debt after an insert
    async middleByName() {
      const sqlite = open();
      try {
        const row = sqlite
          .prepare(
            `SELECT id, name FROM pets ORDER BY name COLLATE NOCASE, id LIMIT 1 OFFSET (SELECT count(*) / 2 FROM pets)`,
          )
          .safeIntegers(true)
          .get() as { id: bigint; name: string };
        return { id: row.id, name: row.name };
      } finally {
        sqlite.close();
      }
    },
    async drop() {
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}

function statesOf(rows: { state: string; count: number; retried: number }[]): {
  byState: Record<string, number>;
  retried: number;
} {
  return {
    byState: Object.fromEntries(rows.map((row) => [row.state, Number(row.count)])),
    retried: rows.reduce((sum, row) => sum + Number(row.retried), 0),
  };
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

// PostgreSQL: a database of its own, generate_series for the rows (the names from an array parameter), and
// ANALYZE after every bulk load, as autovacuum would do soon after, so the planner knows the table.
export async function postgresDatabase(name: string): Promise<BenchDatabase> {
  const url = `${POSTGRES_SERVER}/${name}`;
  const insert = async (client: pg.Client, count: number) => {
    const petNameSql = petName("i::bigint", (k) => `($2::text[])[1 + ${k}]`);
    await client.query(
      `INSERT INTO pets (name, category_id, status)
       SELECT ${petNameSql}, 1 + i % 6, (${STATUS_OF_I})::"PetStatus" FROM generate_series(1, $1::int) AS i`,
      [count, PET_NAMES],
    );
    await client.query("ANALYZE pets");
  };
  await withClient(`${POSTGRES_SERVER}/postgres`, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  });
  return {
    provider: "postgresql",
    url,
    async seed(count) {
      await withClient(url, async (client) => {
        await client.query("TRUNCATE pets RESTART IDENTITY");
        await insert(client, count);
      });
    },
    async append(count) {
      return withClient(url, async (client) => {
        const { rows } = await client.query<{ id: string }>("SELECT (coalesce(max(id), 0) + 1)::text AS id FROM pets");
        await insert(client, count);
        return BigInt(rows[0].id);
      });
    },
    async appendForOrders(count, placed) {
      return withClient(url, async (client) => {
        const { rows } = await client.query<{ pet: string; first_order: string }>(
          `SELECT (coalesce((SELECT max(id) FROM pets), 0) + 1)::text AS pet,
                  (coalesce((SELECT max(id) FROM orders), 0) + 1)::text AS first_order`,
        );
        await client.query(
          `INSERT INTO pets (name, category_id, status)
           SELECT 'Ordered ' || i, 1, $2::"PetStatus" FROM generate_series(1, $1::int) AS i`,
          [count, placed ? "pending" : "available"],
        );
        if (placed) {
          await client.query(
            `INSERT INTO orders (pet_id, pet_name, status, customer_name, placed_at, expires_at)
             SELECT id, name, 'placed', 'Bench', now(), '2100-01-01' FROM pets WHERE id >= $1 ORDER BY id`,
            [rows[0].pet],
          );
        }
        await client.query("ANALYZE pets");
        return BigInt(placed ? rows[0].first_order : rows[0].pet);
      });
    },
    async seedEvents(count) {
      return withClient(url, async (client) => {
        await client.query("TRUNCATE events RESTART IDENTITY");
        await client.query(
          `INSERT INTO events (type, occurred_at, data, previous)
           SELECT ${EVENT_TYPE_OF_I}, now(), ${eventData("i")}, '{"status":"available"}'
           FROM generate_series(1, $1::int) AS i ORDER BY i`,
          [count],
        );
        await client.query("VACUUM ANALYZE events");
        return BigInt(count);
      });
    },
    async appendEvents(count) {
      return withClient(url, async (client) => {
        await client.query("BEGIN");
        try {
          await client.query("SELECT pg_advisory_xact_lock($1)", [EVENTS_LOCK]);
          const { rows } = await client.query<{ first: string; last: string }>(
            `WITH added AS (
               INSERT INTO events (type, occurred_at, data)
               SELECT 'pet.created', now(), ${createdData("i")} FROM generate_series(1, $1::int) AS i ORDER BY i
               RETURNING id)
             SELECT min(id)::text AS first, max(id)::text AS last FROM added`,
            [count],
          );
          await client.query("COMMIT");
          return { first: BigInt(rows[0].first), last: BigInt(rows[0].last) };
        } catch (error) {
          await client.query("ROLLBACK");
          throw error;
        }
      });
    },
    async deliveryStates() {
      return withClient(url, async (client) => {
        const { rows } = await client.query<{ state: string; count: number; retried: number }>(
          `SELECT state, count(*)::int AS count, count(*) FILTER (WHERE attempts > 1)::int AS retried
           FROM webhook_deliveries GROUP BY state`,
        );
        return statesOf(rows);
      });
    },
    async middleId() {
      return withClient(url, async (client) => {
        const { rows } = await client.query<{ id: string | bigint }>(
          "SELECT id FROM pets ORDER BY id LIMIT 1 OFFSET (SELECT count(*) / 2 FROM pets)",
        );
        return BigInt(rows[0].id);
      });
    },
    async settle() {
      await withClient(url, (client) => client.query("VACUUM (ANALYZE) pets"));
    },
    async middleByName() {
      return withClient(url, async (client) => {
        const { rows } = await client.query<{ id: string; name: string }>(
          `SELECT id::text AS id, name FROM pets ORDER BY lower(name COLLATE "C"), id
           LIMIT 1 OFFSET (SELECT count(*) / 2 FROM pets)`,
        );
        return { id: BigInt(rows[0].id), name: rows[0].name };
      });
    },
    async drop() {
      await withClient(`${POSTGRES_SERVER}/postgres`, (client) =>
        client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      );
    },
  };
}
