import pg from "pg";
import { databaseConfig } from "@/lib/config";
import { countPetsByCategory } from "@/lib/categories/store";
import { createDatabase } from "@/lib/db/client";
import { createTestDatabase, runScript, testProviders } from "@/scripts/harness/servers";

// What the Categories page's counts cost at 1,000,000 pets, for docs/staff.md: pets spread over the demo's six ids
// and, one in a hundred, 994 others, inserted into a fresh database of each kind; then countPetsByCategory (the
// one GROUP BY of GET /admin/api/categories/counts) timed 7 times, and the plan each database chooses for it.
// Run: npx tsx --conditions=react-server bench/category-counts.ts [pets]

const PETS = Number(process.argv[2] ?? 1_000_000);
// Ids 1–6 for 99 pets in 100, the others 7–1000.
const CATEGORY = "CASE WHEN n % 100 = 0 THEN 7 + (n / 100) % 994 ELSE 1 + n % 6 END";

for (const provider of await testProviders()) {
  const database = await createTestDatabase(provider);
  try {
    await runScript("db-migrate.ts", ["--create"], database.url);
    const client = createDatabase(databaseConfig(database.url));
    const seeding = performance.now();
    if (provider === "sqlite") {
      await client.$executeRawUnsafe(
        `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${PETS})
         INSERT INTO pets (name, category_id, status, created_at, version)
         SELECT 'Pet ' || n, ${CATEGORY}, 'available', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'), 1 FROM seq`,
      );
      await client.$executeRawUnsafe("ANALYZE");
    } else {
      // Outside the app's pool, whose 5 s statement timeout a million-row insert would pass.
      const seeder = new pg.Client({ connectionString: database.url });
      await seeder.connect();
      await seeder.query(
        `INSERT INTO pets (name, category_id, status) SELECT 'Pet ' || n, ${CATEGORY}, 'available'
         FROM generate_series(1, ${PETS}) AS n`,
      );
      await seeder.query("VACUUM ANALYZE pets");
      await seeder.end();
    }
    const seeded = performance.now() - seeding;
    const times: number[] = [];
    let groups = 0;
    for (let run = 0; run < 7; run++) {
      const start = performance.now();
      groups = (await countPetsByCategory(client)).length;
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const explain =
      provider === "sqlite"
        ? "EXPLAIN QUERY PLAN SELECT category_id, COUNT(*) FROM pets GROUP BY category_id ORDER BY category_id"
        : "EXPLAIN SELECT category_id, COUNT(*) FROM pets GROUP BY category_id ORDER BY category_id";
    const plan: Record<string, unknown>[] = await client.$queryRawUnsafe(explain);
    console.log(
      `${provider}: ${PETS.toLocaleString("en")} pets seeded in ${(seeded / 1000).toFixed(1)} s; ${groups} ids; ` +
        `counts in ${times[0].toFixed(0)}–${times.at(-1)!.toFixed(0)} ms (median ${times[3].toFixed(0)} ms)`,
    );
    for (const row of plan) console.log(`  plan: ${String(row.detail ?? row["QUERY PLAN"])}`);
    await client.$disconnect();
  } finally {
    await database.drop();
  }
}
process.exit(0);
