import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { DatabaseConfig } from "@/lib/config";
import { prismaDir, withSchemaEngine } from "@/lib/db/schema-engine";

const noFilters = { externalTables: [], externalEnums: [] };

/** The checked-in migrations of a provider, in Prisma's layout, read for the engine. */
function migrationsList(provider: DatabaseConfig["provider"]) {
  const baseDir = path.join(prismaDir, provider, "migrations");
  const lockPath = path.join(baseDir, "migration_lock.toml");
  return {
    baseDir,
    shadowDbInitScript: "",
    lockfile: { path: "migration_lock.toml", content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, "utf8") : null },
    migrationDirectories: fs
      .readdirSync(baseDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort()
      .map((name) => ({
        path: name,
        migrationFile: {
          path: "migration.sql",
          content: { tag: "ok" as const, value: fs.readFileSync(path.join(baseDir, name, "migration.sql"), "utf8") },
        },
      })),
  };
}

/**
 * Applies the migrations the database lacks and records them in `_prisma_migrations`, as
 * `prisma migrate deploy` does. Safe to run from several processes at once: the engine holds a
 * PostgreSQL advisory lock, or SQLite's write lock, while it works. Returns the names it applied.
 */
export async function migrate(database: DatabaseConfig): Promise<string[]> {
  if (database.provider === "sqlite") prepareSqliteFile(database.file);
  return withSchemaEngine(database, async (engine) => {
    const { appliedMigrationNames } = await engine.applyMigrations({
      migrationsList: migrationsList(database.provider),
      filters: noFilters,
    });
    return appliedMigrationNames;
  });
}

/** Creates the SQLite file and its folder on first run, in WAL mode so readers never wait for the writer. */
function prepareSqliteFile(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file, { timeout: 10_000 });
  try {
    sqlite.pragma("journal_mode = WAL"); // persistent: stored in the file itself
  } finally {
    sqlite.close();
  }
}
