import "server-only";
import { randomBytes } from "node:crypto";
import { db } from "@/lib/db/client";
import { findKeyByHash } from "@/lib/auth/key-lookup";
import { sha256Hex } from "@/lib/hash";

// API keys: `ask_` and 32 random base64url characters (192 bits). Only the SHA-256 of a key is stored,
// with its first characters as a prefix to recognise it by; the key itself is shown once, at creation.

const KEY_PATTERN = /^ask_[A-Za-z0-9_-]{32}$/;
const PREFIX_LENGTH = 12;
// "Last used" is written at most this often per key, so authenticating is a read, not a write.
const LAST_USED_RESOLUTION_MS = 60_000;
const stamped = new Map<number, number>(); // when this process last wrote each key's stamp

export type ApiKeyInfo = {
  id: number;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};
export type AuthenticatedKey = { id: number };

/** The characters of a key shown in listings. */
export function keyPrefix(key: string): string {
  return key.slice(0, PREFIX_LENGTH);
}

function hashKey(key: string): string {
  return sha256Hex(key);
}

export async function createApiKey(name: string): Promise<{ info: ApiKeyInfo; key: string }> {
  const key = `ask_${randomBytes(24).toString("base64url")}`;
  const info = await db().apiKey.create({
    data: { name, prefix: keyPrefix(key), hash: hashKey(key) },
    select: { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true },
  });
  return { info, key };
}

export async function listApiKeys(): Promise<ApiKeyInfo[]> {
  return db().apiKey.findMany({
    select: { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true },
    orderBy: { id: "asc" },
  });
}

/** Revokes the key with this id or prefix; returns the revoked key, or undefined when none matches. */
export async function revokeApiKey(idOrPrefix: string): Promise<ApiKeyInfo | undefined> {
  const where = /^[0-9]+$/.test(idOrPrefix) ? { id: Number(idOrPrefix) } : { prefix: idOrPrefix };
  const key = await db().apiKey.findFirst({ where, select: { id: true } });
  if (!key) return undefined;
  return db().apiKey.update({
    where: { id: key.id },
    data: { revokedAt: new Date() },
    select: { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true },
  });
}

/** Active keys, leaving out the one with this prefix (the admin app's own). */
export async function countActiveApiKeys(exceptPrefix?: string): Promise<number> {
  return db().apiKey.count({ where: { revokedAt: null, ...(exceptPrefix ? { prefix: { not: exceptPrefix } } : {}) } });
}

/** The key's record when the key is well-formed, known and not revoked; undefined otherwise. */
export async function authenticateApiKey(key: string): Promise<AuthenticatedKey | undefined> {
  if (!KEY_PATTERN.test(key)) return undefined;
  const record = await findKeyByHash(hashKey(key));
  if (!record || record.revoked) return undefined;
  const now = Date.now();
  const last = Math.max(record.lastUsedAt?.getTime() ?? 0, stamped.get(record.id) ?? 0);
  if (now - last > LAST_USED_RESOLUTION_MS) {
    stamped.set(record.id, now); // the requests that follow, before this write lands, do not write again
    // Not awaited: a lost "last used" stamp is harmless, a slower request is not.
    db()
      .apiKey.update({ where: { id: record.id }, data: { lastUsedAt: new Date(now) } })
      .catch(() => {});
  }
  return { id: record.id };
}
