import "server-only";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { authenticateApiKey, createApiKey } from "@/lib/auth/api-keys";
import { config, ConfigError, type DatabaseConfig } from "@/lib/config";
import { log } from "@/lib/log";
import { privateFile, privateFolder } from "@/lib/private-files";

// The API key the admin app's endpoints use to call /v1 for the browser. Only the server holds it:
// ADMIN_API_KEY when set (checked against the database), otherwise a key the app creates for itself
// on first start and keeps in a file readable by its owner only, so it survives restarts. It is an
// ordinary key: `npm run key -- list` shows it, and revoking it makes the app create a new one.

/**
 * Where a created key is kept: beside the SQLite database (data/ by default), or for PostgreSQL in
 * ./data under a name of that database's own, so switching DATABASE_URL never overwrites another's key.
 */
export function adminKeyFile(database: DatabaseConfig): string {
  if (database.provider === "sqlite") return path.join(path.dirname(database.file), "admin-api-key");
  const { host, pathname } = new URL(database.url);
  const name = `${host}${pathname}`.replace(/[^A-Za-z0-9._-]+/g, "_");
  return path.resolve("data", `admin-api-key.postgresql.${name}`);
}

export type AdminKey = { key: string; source: "ADMIN_API_KEY" | "file" | "created"; file?: string };

function readKeyFile(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8").trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function writeKeyFile(file: string, key: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${key}\n`, { mode: 0o600 });
  fs.renameSync(temporary, file); // atomic: a concurrent reader sees the old key or the new one
}

async function resolveAdminKey(database: DatabaseConfig): Promise<AdminKey> {
  const configured = process.env.ADMIN_API_KEY?.trim();
  if (configured) {
    if (!(await authenticateApiKey(configured))) {
      throw new ConfigError(
        "Invalid configuration: ADMIN_API_KEY is not an active API key of this database " +
          '(create one with npm run key -- create "admin app", or unset it)',
      );
    }
    return { key: configured, source: "ADMIN_API_KEY" };
  }
  const file = adminKeyFile(database);
  privateFolder(path.dirname(file));
  privateFile(file);
  const stored = readKeyFile(file);
  if (stored && (await authenticateApiKey(stored))) return { key: stored, source: "file", file };
  const { info, key } = await createApiKey(`admin app (${os.hostname()})`);
  writeKeyFile(file, key);
  log(
    "info",
    stored ? "admin app API key replaced (the stored one is unknown or revoked)" : "admin app API key created",
    { keyId: info.id, prefix: info.prefix, file },
  );
  return { key, source: "created", file };
}

// One resolution per process, shared through globalThis by server.ts and Next's bundles of the routes.
const holder = globalThis as typeof globalThis & { __animalStoreAdminKey?: Promise<AdminKey> };

export function adminApiKey(): Promise<AdminKey> {
  holder.__animalStoreAdminKey ??= resolveAdminKey(config().database).catch((error: unknown) => {
    holder.__animalStoreAdminKey = undefined; // the next request tries again
    throw error;
  });
  return holder.__animalStoreAdminKey;
}

/** Forgets the key after /v1 refused it (revoked meanwhile): the next request resolves it afresh. */
export function forgetAdminApiKey(): void {
  holder.__animalStoreAdminKey = undefined;
}
