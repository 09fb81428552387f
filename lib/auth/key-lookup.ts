import "server-only";
import Database from "better-sqlite3";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";

// The one read every /v1 request makes before anything else: the API key's row by its hash.
// On SQLite it is a prepared statement on a read-only connection of its own rather than a Prisma
// query: profiled under load, Prisma's per-query work was the largest single cost of a request, and
// this lookup (3 µs prepared, against 30 µs as a Prisma raw query and 75 µs as findUnique) is the one
// query every operation repeats. It reads committed data (WAL), so a revocation by the key tool counts
// from the next request. On PostgreSQL it stays a Prisma query: there the pool round trip dominates.
// Writes to keys always go through Prisma (lib/auth/api-keys.ts).

export type KeyRow = { id: number; revoked: boolean; lastUsedAt: Date | null };
type RawRow = { id: number | bigint; revoked_at: unknown; last_used_at: unknown };

const holder = globalThis as typeof globalThis & { __animalStoreKeyLookup?: Database.Statement<[string], RawRow> };

function sqliteLookup(file: string) {
  holder.__animalStoreKeyLookup ??= new Database(file, { readonly: true, fileMustExist: true, timeout: 5000 }).prepare<
    [string],
    RawRow
  >("SELECT id, revoked_at, last_used_at FROM api_keys WHERE hash = ?");
  return holder.__animalStoreKeyLookup;
}

export async function findKeyByHash(hash: string): Promise<KeyRow | undefined> {
  const { database } = config();
  const row =
    database.provider === "sqlite"
      ? sqliteLookup(database.file).get(hash)
      : (await db().$queryRaw<RawRow[]>`SELECT id, revoked_at, last_used_at FROM api_keys WHERE hash = ${hash}`)[0];
  if (!row) return undefined;
  return {
    id: Number(row.id),
    revoked: row.revoked_at !== null,
    lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at as string | number | Date),
  };
}
