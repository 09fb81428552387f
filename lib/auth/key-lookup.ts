import "server-only";
import Database from "better-sqlite3";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";

// The one read every /v1 request makes before anything else: the API key's row by its hash (a client's
// bearer key) or by its id (the admin app's key, named in-process by its forwards).
// On SQLite it is a prepared statement on a read-only connection of its own rather than a Prisma
// query: profiled under load, Prisma's per-query work was the largest single cost of a request, and
// this lookup is the one query every operation repeats (the figures: docs/performance.md). It reads
// committed data (WAL), so a revocation by the key tool counts from the next request. On PostgreSQL it
// stays a Prisma query: there the pool round trip dominates.
// Writes to keys always go through Prisma (lib/auth/api-keys.ts).

export type KeyRow = { id: number; name: string; revoked: boolean; lastUsedAt: Date | null };
type RawRow = { id: number | bigint; name: string; revoked_at: unknown; last_used_at: unknown };
type Lookups = { byHash: Database.Statement<[string], RawRow>; byId: Database.Statement<[number], RawRow> };

const holder = globalThis as typeof globalThis & { __animalStoreKeyLookups?: Lookups };

function sqliteLookups(file: string): Lookups {
  if (!holder.__animalStoreKeyLookups) {
    const sqlite = new Database(file, { readonly: true, fileMustExist: true, timeout: 5000 });
    const columns = "SELECT id, name, revoked_at, last_used_at FROM api_keys";
    holder.__animalStoreKeyLookups = {
      byHash: sqlite.prepare<[string], RawRow>(`${columns} WHERE hash = ?`),
      byId: sqlite.prepare<[number], RawRow>(`${columns} WHERE id = ?`),
    };
  }
  return holder.__animalStoreKeyLookups;
}

function keyRow(row: RawRow | undefined): KeyRow | undefined {
  if (!row) return undefined;
  return {
    id: Number(row.id),
    name: row.name,
    revoked: row.revoked_at !== null,
    lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at as string | number | Date),
  };
}

export async function findKeyByHash(hash: string): Promise<KeyRow | undefined> {
  const { database } = config();
  if (database.provider === "sqlite") return keyRow(sqliteLookups(database.file).byHash.get(hash));
  return keyRow(
    (await db().$queryRaw<RawRow[]>`SELECT id, name, revoked_at, last_used_at FROM api_keys WHERE hash = ${hash}`)[0],
  );
}

export async function findKeyById(id: number): Promise<KeyRow | undefined> {
  const { database } = config();
  if (database.provider === "sqlite") return keyRow(sqliteLookups(database.file).byId.get(id));
  return keyRow(
    (await db().$queryRaw<RawRow[]>`SELECT id, name, revoked_at, last_used_at FROM api_keys WHERE id = ${id}`)[0],
  );
}
