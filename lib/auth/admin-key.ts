import "server-only";
import fs from "node:fs";
import path from "node:path";
import { authenticateApiKey, createAdminAppKey, liveAdminAppKey, makeAdminAppKey } from "@/lib/auth/api-keys";
import { ConfigError, type DatabaseConfig } from "@/lib/config";
import { log } from "@/lib/log";

// The API key the admin app's endpoints use to call /v1 for the browser: the one live key of the
// database marked for the admin app (purpose admin_app; a partial unique index allows no second one,
// however many instances start at once). The forwards to /v1 are in-process and name the key by its
// id (lib/admin/forward.ts), so no instance needs its secret. Without ADMIN_API_KEY the first instance
// to find none creates one and forgets the secret at once; every restart, host, container and other
// instance then uses that same row. With ADMIN_API_KEY, that key is marked as the admin app's, and the
// one marked before it, if another, revoked. Revoking the admin app's key makes the next admin request
// find or create the next one.

export type AdminAppKey = { id: number; source: "ADMIN_API_KEY" | "database" | "created" };

// A race with another instance (the unique index refusing this one's write) ends in one more try.
const ATTEMPTS = 3;

async function configuredKey(configured: string): Promise<AdminAppKey> {
  const key = await authenticateApiKey(configured);
  if (!key) {
    throw new ConfigError(
      "Invalid configuration: ADMIN_API_KEY is not an active API key of this database " +
        "(unset it, and the admin app uses the key it keeps in the database; or create one with npm run key -- create)",
    );
  }
  for (let attempt = 1; ; attempt++) {
    try {
      for (const revoked of await makeAdminAppKey(key.id)) {
        log("info", "admin app API key revoked: ADMIN_API_KEY replaces it", {
          revokedKeyId: revoked.id,
          revokedPrefix: revoked.prefix,
          keyId: key.id,
        });
      }
      return { id: key.id, source: "ADMIN_API_KEY" };
    } catch (error) {
      // Another instance created the admin app's key between this one's revocation and its marking.
      if (attempt === ATTEMPTS) throw error;
    }
  }
}

async function databaseKey(): Promise<AdminAppKey> {
  for (let attempt = 1; ; attempt++) {
    const live = await liveAdminAppKey();
    if (live) return { id: live.id, source: "database" };
    try {
      const created = await createAdminAppKey();
      log("info", "admin app API key created", { keyId: created.id, prefix: created.prefix });
      return { id: created.id, source: "created" };
    } catch (error) {
      // Another instance created it first and the unique index refused this one: the next look finds it.
      if (attempt === ATTEMPTS) throw error;
    }
  }
}

function resolveAdminAppKey(): Promise<AdminAppKey> {
  const configured = process.env.ADMIN_API_KEY?.trim();
  return configured ? configuredKey(configured) : databaseKey();
}

// One resolution per process, shared through globalThis by server.ts and Next's bundles of the routes.
const holder = globalThis as typeof globalThis & { __animalStoreAdminKey?: Promise<AdminAppKey> };

export function adminAppKey(): Promise<AdminAppKey> {
  holder.__animalStoreAdminKey ??= resolveAdminAppKey().catch((error: unknown) => {
    holder.__animalStoreAdminKey = undefined; // the next request tries again
    throw error;
  });
  return holder.__animalStoreAdminKey;
}

/**
 * Forgets the key with this id after /v1 refused it (revoked meanwhile): the next call resolves the
 * admin app's key afresh. Requests that were refused the same key at the same time forget it once.
 */
export async function forgetAdminAppKey(refusedId: number): Promise<void> {
  const current = holder.__animalStoreAdminKey;
  const known = await current?.catch(() => undefined);
  if (known?.id === refusedId && holder.__animalStoreAdminKey === current) holder.__animalStoreAdminKey = undefined;
}

/**
 * Removes the file in which versions before 0006 kept the key they created for the admin app, beside the
 * SQLite database or in ./data for PostgreSQL. The 0006 migration revoked that key; its file held a secret
 * no longer good for anything.
 */
export function removeEarlierKeyFile(database: DatabaseConfig): void {
  let file: string;
  if (database.provider === "sqlite") file = path.join(path.dirname(database.file), "admin-api-key");
  else {
    const { host, pathname } = new URL(database.url);
    file = path.resolve("data", `admin-api-key.postgresql.${`${host}${pathname}`.replace(/[^A-Za-z0-9._-]+/g, "_")}`);
  }
  if (!fs.existsSync(file)) return;
  fs.rmSync(file, { force: true });
  log("info", "removed the admin app key file of an earlier version (its key is revoked)", { file });
}
