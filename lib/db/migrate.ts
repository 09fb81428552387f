import "server-only";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import type { DatabaseConfig } from "@/lib/config";
import { prismaDir, withSchemaEngine } from "@/lib/db/schema-engine";
import { privateSqliteFiles } from "@/lib/private-files";

const noFilters = { externalTables: [], externalEnums: [] };

/** The checked-in migrations of a provider, in Prisma's layout, read for the engine. */
function migrationsList(provider: DatabaseConfig["provider"]) {
  const baseDir = path.join(prismaDir, provider, "migrations");
  const lockPath = path.join(baseDir, "migration_lock.toml");
  return {
    baseDir,
    shadowDbInitScript: "",
    lockfile: {
      path: "migration_lock.toml",
      content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, "utf8") : null,
    },
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

/** The names of the migrations recorded as applied, read without the schema engine. */
async function appliedMigrations(database: DatabaseConfig): Promise<Set<string>> {
  const sql = "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL";
  try {
    if (database.provider === "sqlite") {
      const sqlite = new Database(database.file, { readonly: true, fileMustExist: true, timeout: 10_000 });
      try {
        return new Set((sqlite.prepare(sql).all() as { migration_name: string }[]).map((row) => row.migration_name));
      } finally {
        sqlite.close();
      }
    }
    const client = new pg.Client({ connectionString: database.url, connectionTimeoutMillis: 10_000 });
    await client.connect();
    try {
      return new Set((await client.query<{ migration_name: string }>(sql)).rows.map((row) => row.migration_name));
    } finally {
      await client.end();
    }
  } catch (error) {
    if (/no such table|does not exist|unable to open/i.test(String(error))) return new Set(); // a new database
    throw error;
  }
}

/** The checked-in migrations this database has not applied yet. */
export async function pendingMigrations(database: DatabaseConfig): Promise<string[]> {
  const applied = await appliedMigrations(database);
  return migrationsList(database.provider)
    .migrationDirectories.map((entry) => entry.path)
    .filter((name) => !applied.has(name));
}

/**
 * Applies the migrations the database lacks and records them in `_prisma_migrations`, as
 * `prisma migrate deploy` does; returns the names it applied. When nothing is pending the schema
 * engine is not started at all: on SQLite it needs the file to itself (locking_mode=EXCLUSIVE), so the
 * key tool must not need it while a server has the file open. Processes that start together do not
 * both apply a migration: the engine holds a PostgreSQL advisory lock, or SQLite's exclusive lock, and
 * one that loses the race finds the work done.
 */
export async function migrate(database: DatabaseConfig): Promise<string[]> {
  if (database.provider === "sqlite") prepareSqliteFile(database.file);
  if ((await pendingMigrations(database)).length === 0) return [];
  try {
    return await withSchemaEngine(database, async (engine) => {
      const { appliedMigrationNames } = await engine.applyMigrations({
        migrationsList: migrationsList(database.provider),
        filters: noFilters,
      });
      return appliedMigrationNames;
    });
  } catch (error) {
    const pending = await pendingMigrations(database);
    if (pending.length === 0) return []; // another process applied them meanwhile
    if (database.provider === "sqlite" && /SQLITE_BUSY|SocketTimeout|locked/.test(String(error))) {
      throw new Error(
        `cannot apply ${pending.join(", ")}: another process has ${database.file} open; ` +
          "stop the server and run npm run db:migrate",
      );
    }
    throw error;
  }
}

/**
 * Creates the SQLite file and its folder on first run, for the app's user only, in WAL mode so readers
 * never wait for the writer. This is the first open of the file in every process that writes to it.
 */
function prepareSqliteFile(file: string): void {
  privateSqliteFiles(file);
  const sqlite = new Database(file, { timeout: 10_000 });
  try {
    sqlite.pragma("journal_mode = WAL"); // persistent: stored in the file itself
  } finally {
    sqlite.close();
  }
}
