import Database from "better-sqlite3";
import pg from "pg";
import type { PetSort } from "@/lib/pets/schema";
import { listingSql, type ListOptions } from "@/lib/pets/store";
import type { TestDatabase } from "@/scripts/harness/servers";

// The query-plan tests' fixture (tests/sorting.test.ts, tests/filters.test.ts): a catalogue of `pets` pets of eight
// names, six categories and every status, analysed, and the plan each database chooses for a listPets query.

/** Inserts `pets` pets in one statement and analyses the table, so the planner sees a real catalogue. */
export async function seedPlanPets(database: TestDatabase, pets: number): Promise<void> {
  const names = ["Bella", "Max", "luna", "Charlie", "Émile", "rex", "Zoë", "Coco"].map((name) => `('${name}')`);
  const statusOf = "CASE i % 4 WHEN 0 THEN 'pending' WHEN 1 THEN 'sold' WHEN 2 THEN 'available' END";
  if (database.provider === "sqlite") {
    const sqlite = new Database(database.url.replace(/^file:/, ""));
    sqlite.exec(
      `INSERT INTO pets (name, category_id, status)
       WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${pets / names.length})
       SELECT n.column1 || ' ' || i, 1 + i % 6, ${statusOf} FROM s, (VALUES ${names.join(", ")}) AS n`,
    );
    sqlite.exec("ANALYZE");
    sqlite.close();
    return;
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query(
    `INSERT INTO pets (name, category_id, status)
     SELECT n.name || ' ' || i, 1 + i % 6, (${statusOf})::"PetStatus"
     FROM generate_series(1, ${pets / names.length}) AS i, (VALUES ${names.join(", ")}) AS n(name)`,
  );
  await client.query("ANALYZE pets");
  await client.end();
}

/** The plan of listPets' query for `options` (a page of 20), as the database explains it. */
export async function explainListing(
  database: TestDatabase,
  options: ListOptions & { sort: PetSort },
): Promise<string> {
  const { text, params } = listingSql(database.provider, options, 21);
  if (database.provider === "sqlite") {
    const sqlite = new Database(database.url.replace(/^file:/, ""), { readonly: true });
    // As lib/db/sqlite-adapter.ts registers it for the app (only its name matters to a plan).
    sqlite.function("contains_folded", { deterministic: true, varargs: true }, () => 0);
    try {
      const rows = (() => {
        try {
          return sqlite.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...(params as (string | bigint | number)[]));
        } catch (error) {
          throw new Error(`${String(error)} in ${text}`);
        }
      })();
      return (rows as { detail: string }[]).map((row) => row.detail).join("\n");
    } finally {
      sqlite.close();
    }
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    // Every plan must stay an index walk even where the planner would otherwise weigh a scan of the table.
    await client.query("SET enable_seqscan = off");
    const { rows } = await client.query<{ "QUERY PLAN": string }>(
      `EXPLAIN ${text}`,
      params.map((value) => (typeof value === "bigint" ? value.toString() : value)),
    );
    return rows.map((row) => row["QUERY PLAN"]).join("\n");
  } finally {
    await client.end();
  }
}
