import "server-only";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";
import * as engineBindings from "@prisma/schema-engine-wasm/schema_engine_bg";
import pg from "pg";
import type { DatabaseConfig } from "@/lib/config";

// Prisma's schema engine, from its WebAssembly build: the native engine binary that `prisma migrate`
// downloads cannot be fetched on our machines. The package is a wasm-bindgen "bundler" build, so it
// is instantiated by hand: each wasm import is the export of the same name from schema_engine_bg.

export type SchemaEngine = engineBindings.SchemaEngine;

let instantiated = false;

function instantiate(): void {
  if (instantiated) return;
  const require = createRequire(import.meta.url);
  const dir = path.dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg"));
  const wasmModule = new WebAssembly.Module(fs.readFileSync(path.join(dir, "schema_engine_bg.wasm")));
  const bindings = engineBindings as unknown as Record<string, WebAssembly.ImportValue>;
  const imports: WebAssembly.Imports = {};
  for (const { module: from, name } of WebAssembly.Module.imports(wasmModule)) {
    (imports[from] ??= {})[name] = bindings[name];
  }
  const instance = new WebAssembly.Instance(wasmModule, imports);
  engineBindings.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  instantiated = true;
}

export const prismaDir = path.resolve("prisma");

/** The schema files of a provider, as the engine wants them: [name, text] pairs. */
export function schemaFiles(provider: DatabaseConfig["provider"]): [string, string][] {
  const dir = path.join(prismaDir, provider);
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".prisma"))
    .sort()
    .map((name) => [path.join(dir, name), fs.readFileSync(path.join(dir, name), "utf8")]);
}

/**
 * Opens the schema engine on a database and runs `work` with it, then releases every connection.
 * On PostgreSQL the engine holds an advisory lock on a pooled session for the pool's life, so the pool
 * is ours and is ended here.
 */
export async function withSchemaEngine<T>(
  database: DatabaseConfig,
  work: (engine: SchemaEngine) => Promise<T>,
  log: (message: string) => void = () => {},
): Promise<T> {
  instantiate();
  const pool = database.provider === "postgresql" ? new pg.Pool({ connectionString: database.url, max: 2 }) : undefined;
  const factory =
    database.provider === "sqlite"
      ? new PrismaBetterSqlite3({ url: database.file, timeout: 10_000 })
      : new PrismaPg(pool!);
  // The engine never closes the connections it opens (on SQLite one keeps the file locked), so they
  // are tracked here and closed when the work is done.
  const opened: SqlDriverAdapter[] = [];
  const track = async (connecting: Promise<SqlDriverAdapter>) => {
    const adapter = await connecting;
    opened.push(adapter);
    return adapter;
  };
  const tracked: SqlMigrationAwareDriverAdapterFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: () => track(factory.connect()),
    connectToShadowDb: () => track(factory.connectToShadowDb()),
  };
  const engine = await engineBindings.SchemaEngine.new(
    { datamodels: schemaFiles(database.provider) },
    (message: string) => log(message),
    bindMigrationAwareSqlAdapterFactory(tracked),
  );
  try {
    return await work(engine);
  } finally {
    engine.free();
    await Promise.all(opened.map((adapter) => adapter.dispose().catch(() => {})));
    await pool?.end();
  }
}
