// npm run db:diff -- <migration_name> [--from <git revision>]
// Writes the next migration of each provider: the SQL that takes the models as they were at the
// git revision (default HEAD; nothing if the file did not exist) to the models in the working tree.
// It diffs datamodel to datamodel, which needs no shadow database.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { DatabaseConfig } from "@/lib/config";
import { parseOrExit, parseToolLine, UsageError } from "@/scripts/cli";
import { prismaDir, schemaFiles, withSchemaEngine } from "@/lib/db/schema-engine";

const tool = {
  run: "npm run db:diff",
  about:
    "Writes the next migration of each provider (prisma/<provider>/migrations/NNNN_<name>/migration.sql): the SQL\n" +
    "that takes prisma/models.prisma as it was at the git revision (--from, default HEAD) to the working tree's.",
};

const { name, from } = parseOrExit(() => {
  const { args, values } = parseToolLine(tool, {
    usage: "<migration_name> [--from <git revision>]",
    args: ["migration_name"],
    options: { from: { type: "string", default: "HEAD" } },
    missing: () => "db:diff needs the new migration's name, in snake_case",
    extra: (given) => `db:diff takes one migration name; got ${given.map((word) => `'${word}'`).join(", ")}`,
  });
  if (!/^[a-z0-9_]+$/.test(args[0]))
    throw new UsageError(`The migration name is snake_case (a-z, 0-9, _), not "${args[0]}".`);
  return { name: args[0], from: String(values.from) };
});

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

const oldModels = modelsAt(from);
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
  // One past the highest number, not the count: the numbers have a gap (no 0011), and a new migration must sort last.
  const highest = Math.max(0, ...fs.readdirSync(dir).map((entry) => Number(/^(\d{4})_/.exec(entry)?.[1] ?? 0)));
  const target = path.join(dir, `${String(highest + 1).padStart(4, "0")}_${name}`);
  fs.mkdirSync(target);
  fs.writeFileSync(path.join(target, "migration.sql"), sql);
  fs.writeFileSync(
    path.join(dir, "migration_lock.toml"),
    `# Written by npm run db:diff; must match the datasource provider.\nprovider = "${database.provider}"\n`,
  );
  console.log(`${database.provider}: wrote ${path.relative(process.cwd(), target)}/migration.sql`);
}
process.exit(0); // the engine leaves a timer pending after talking to PostgreSQL
