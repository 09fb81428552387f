import Database from "better-sqlite3";
import pg from "pg";
import { databaseConfig } from "@/lib/config";
import { createDatabase } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/sqlite/client";
import { createTestDatabase, runScript, testProviders } from "@/scripts/harness/servers";

// What one activity record costs on disk, table and indexes together, for the sizing (docs/operators.md) of
// AUDIT_RETENTION_DAYS: 100,000 typical records (most of them a pet's status change made in the admin app, some
// pets added and deleted through /v1) inserted into a fresh database of each kind, and the growth measured.
// Run: npx tsx --conditions=react-server bench/audit-size.ts

const RECORDS = 100_000;
const BATCH = 1_000;

function typicalRecord(index: number) {
  const petId = String(1_000 + Math.floor(index / 4));
  const name = `Bella ${index % 997}`;
  const kind = index % 20;
  const at = new Date(Date.UTC(2026, 0, 1) + index * 60_000);
  const fromAdminApp = kind < 14;
  const common = {
    at,
    actor_type: fromAdminApp ? "staff" : "api_key",
    actor_id: fromAdminApp ? 1 + (index % 5) : 1,
    actor_label: fromAdminApp ? `staff${index % 5}@animal-store.example` : "shop",
    target_type: "pet",
    target_id: petId,
    target_label: name,
    client_address: fromAdminApp ? `198.51.100.${index % 250}` : "203.0.113.7",
    request_id: crypto.randomUUID(),
  };
  if (kind < 16)
    return {
      ...common,
      action: "pet.updated",
      details: '{"before":{"status":"available"},"after":{"status":"sold"}}',
    };
  if (kind < 19)
    return {
      ...common,
      action: "pet.created",
      details: `{"after":{"id":${petId},"name":"${name}","categoryId":1,"status":"available"}}`,
    };
  return {
    ...common,
    action: "pet.deleted",
    details: `{"before":{"id":${petId},"name":"${name}","categoryId":1,"status":"sold"}}`,
  };
}

async function sizeOf(provider: "sqlite" | "postgresql", url: string): Promise<number> {
  if (provider === "sqlite") {
    const sqlite = new Database(url.slice("file:".length));
    sqlite.pragma("wal_checkpoint(TRUNCATE)");
    const pages = Number(sqlite.pragma("page_count", { simple: true }));
    const free = Number(sqlite.pragma("freelist_count", { simple: true }));
    const size = Number(sqlite.pragma("page_size", { simple: true }));
    sqlite.close();
    return (pages - free) * size;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("VACUUM ANALYZE audit_events");
  const { rows } = await client.query<{ size: string }>("SELECT pg_total_relation_size('audit_events')::text AS size");
  await client.end();
  return Number(rows[0].size);
}

for (const provider of await testProviders()) {
  const database = await createTestDatabase(provider);
  try {
    await runScript("db-migrate.ts", ["--create"], database.url);
    const client = createDatabase(databaseConfig(database.url));
    const before = await sizeOf(provider, database.url);
    const columns = Prisma.raw(
      Object.keys(typicalRecord(0))
        .map((column) => `"${column}"`)
        .join(", "),
    );
    for (let start = 0; start < RECORDS; start += BATCH) {
      const values = Array.from({ length: BATCH }, (_, offset) => {
        const row = typicalRecord(start + offset);
        return Prisma.sql`(${Prisma.join(Object.values(row))})`;
      });
      await client.$executeRaw`INSERT INTO "audit_events" (${columns}) VALUES ${Prisma.join(values)}`;
    }
    await client.$disconnect();
    const after = await sizeOf(provider, database.url);
    console.log(
      `${provider}: ${RECORDS} records, ${((after - before) / 1024 / 1024).toFixed(1)} MiB, ` +
        `${Math.round((after - before) / RECORDS)} bytes a record (table and indexes)`,
    );
  } finally {
    await database.drop();
  }
}
