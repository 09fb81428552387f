// npm run db:diff -- <migration_name> [--from <git revision>]
// Writes the next migration of each provider: the SQL that takes the models as they were at the
// git revision (default HEAD; nothing if the file did not exist) to the models in the working tree.
// It diffs datamodel to datamodel, which needs no shadow database.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { DatabaseConfig } from "@/lib/config";
import { prismaDir, schemaFiles, withSchemaEngine } from "@/lib/db/schema-engine";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { from: { type: "string", default: "HEAD" } },
});
const name = positionals[0];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:diff -- <migration_name in snake_case> [--from <git revision>]");
  process.exit(2);
}

function modelsAt(revision: string): string | undefined {
  try {
    return execFileSync("git", ["show", `${revision}:prisma/models.prisma`], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
  } catch {
    return undefined;
  }
}

const databases: DatabaseConfig[] = [
  { provider: "sqlite", url: "file::memory:", file: ":memory:", synchronous: "normal" },
  { provider: "postgresql", url: process.env.DIFF_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres" },
];

const oldModels = modelsAt(values.from);
for (const database of databases) {
  const now = schemaFiles(database.provider);
  const before =
    oldModels === undefined
      ? undefined
      : now.map(([file, text]): [string, string] => [file, file.endsWith("models.prisma") ? oldModels : text]);
  let sql = await withSchemaEngine(database, async (engine) => {
    const result = await engine.diff({
      from: before
        ? { tag: "schemaDatamodel", files: before.map(([p, content]) => ({ path: p, content })) }
        : { tag: "empty" },
      to: { tag: "schemaDatamodel", files: now.map(([p, content]) => ({ path: p, content })) },
      script: true,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] },
    });
    return result.stdout ?? "";
  });
  if (database.provider === "sqlite") {
    // Prisma writes a BigInt primary key as BIGINT, which is not SQLite's rowid alias, so inserts
    // without an id would fail; INTEGER PRIMARY KEY AUTOINCREMENT holds the same 64-bit values.
    sql = sql.replace(
      /"id" BIGINT NOT NULL PRIMARY KEY AUTOINCREMENT|"id" BIGINT NOT NULL PRIMARY KEY/g,
      '"id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT',
    );
  }
  const dir = path.join(prismaDir, database.provider, "migrations");
  fs.mkdirSync(dir, { recursive: true });
  const count = fs.readdirSync(dir).filter((entry) => /^\d{4}_/.test(entry)).length;
  const target = path.join(dir, `${String(count + 1).padStart(4, "0")}_${name}`);
  fs.mkdirSync(target);
  fs.writeFileSync(path.join(target, "migration.sql"), sql);
  fs.writeFileSync(
    path.join(dir, "migration_lock.toml"),
    `# Written by npm run db:diff; must match the datasource provider.\nprovider = "${database.provider}"\n`,
  );
  console.log(`${database.provider}: wrote ${path.relative(process.cwd(), target)}/migration.sql`);
}
process.exit(0); // the engine leaves a timer pending after talking to PostgreSQL
