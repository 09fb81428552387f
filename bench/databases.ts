import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";

// The benchmark's fresh databases: a SQLite file in a temporary folder, or a PostgreSQL database on the
// local server that drop() removes. The app migrates them; this file only fills the pets table, in bulk.

export type Provider = "sqlite" | "postgresql";

export type BenchDatabase = {
  provider: Provider;
  url: string;
  /** Replaces every pet with `count` new ones (ids from 1; half available, a quarter pending, a quarter sold). */
  seed(count: number): Promise<void>;
  /** The id in the middle of the table, for a cursor deep into the list. */
  middleId(): Promise<bigint>;
  drop(): Promise<void>;
};

const POSTGRES_SERVER = "postgresql://postgres@127.0.0.1:5432";
const STATUS_OF_I = "CASE i % 4 WHEN 0 THEN 'pending' WHEN 1 THEN 'sold' ELSE 'available' END";

// SQLite: a recursive CTE inserts every row in one statement; the WAL is checkpointed afterwards, as
// SQLite's auto-checkpoint would do on a live database.
export function sqliteDatabase(folder: string): BenchDatabase {
  const file = path.join(folder, "bench.db");
  const open = () => new Database(file, { timeout: 10_000 });
  return {
    provider: "sqlite",
    url: `file:${file}`,
    async seed(count) {
      const sqlite = open();
      try {
        sqlite.transaction(() => {
          sqlite.exec("DELETE FROM pets; DELETE FROM sqlite_sequence WHERE name = 'pets'");
          sqlite
            .prepare(
              `INSERT INTO pets (name, category_id, status)
               WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
               SELECT 'Pet ' || i, 1 + i % 6, ${STATUS_OF_I} FROM n`,
            )
            .run(count);
        })();
        sqlite.pragma("wal_checkpoint(TRUNCATE)");
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
    async drop() {
      fs.rmSync(folder, { recursive: true, force: true });
    },
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

// PostgreSQL: a database of its own, generate_series for the rows, ANALYZE as autovacuum would.
export async function postgresDatabase(name: string): Promise<BenchDatabase> {
  const url = `${POSTGRES_SERVER}/${name}`;
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
        await client.query(
          `INSERT INTO pets (name, category_id, status)
           SELECT 'Pet ' || i, 1 + i % 6, (${STATUS_OF_I})::"PetStatus" FROM generate_series(1, $1::int) AS i`,
          [count],
        );
        await client.query("ANALYZE pets");
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
    async drop() {
      await withClient(`${POSTGRES_SERVER}/postgres`, (client) =>
        client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      );
    },
  };
}
