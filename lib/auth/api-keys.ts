import "server-only";
import { randomBytes } from "node:crypto";
import { db } from "@/lib/db/client";
import { findKeyById, findKeyByHash, type KeyRow } from "@/lib/auth/key-lookup";
import { sha256Hex } from "@/lib/hash";
import type { ApiKeyPurpose } from "@/lib/generated/sqlite/client";

// API keys: `ask_` and 32 random base64url characters (192 bits). Only the SHA-256 of a key is stored,
// with its first characters as a prefix to recognise it by; the key itself is shown once, at creation.
// A key serves API clients, or the admin app (purpose admin_app, at most one live: a partial unique
// index of the 0006 migration), whose forwards to /v1 name it by id in-process (lib/auth/admin-key.ts).

const KEY_PATTERN = /^ask_[A-Za-z0-9_-]{32}$/;
const PREFIX_LENGTH = 12;
// "Last used" is written at most this often per key, so authenticating is a read, not a write.
const LAST_USED_RESOLUTION_MS = 60_000;
const stamped = new Map<number, number>(); // when this process last wrote each key's stamp

export type ApiKeyInfo = {
  id: number;
  name: string;
  prefix: string;
  purpose: ApiKeyPurpose;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};
/** A key that may be used: its id, and its name for the audit trail. */
export type AuthenticatedKey = { id: number; name: string };

const infoFields = {
  id: true,
  name: true,
  prefix: true,
  purpose: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const;

/** The characters of a key shown in listings. */
export function keyPrefix(key: string): string {
  return key.slice(0, PREFIX_LENGTH);
}

function hashKey(key: string): string {
  return sha256Hex(key);
}

function newKey() {
  const key = `ask_${randomBytes(24).toString("base64url")}`;
  return { key, prefix: keyPrefix(key), hash: hashKey(key) };
}

export async function createApiKey(name: string): Promise<{ info: ApiKeyInfo; key: string }> {
  const { key, prefix, hash } = newKey();
  const info = await db().apiKey.create({ data: { name, prefix, hash }, select: infoFields });
  return { info, key };
}

export async function listApiKeys(): Promise<ApiKeyInfo[]> {
  return db().apiKey.findMany({ select: infoFields, orderBy: { id: "asc" } });
}

/** Revokes the key with this id or prefix; returns the revoked key, or undefined when none matches. */
export async function revokeApiKey(idOrPrefix: string): Promise<ApiKeyInfo | undefined> {
  const where = /^[0-9]+$/.test(idOrPrefix) ? { id: Number(idOrPrefix) } : { prefix: idOrPrefix };
  const key = await db().apiKey.findFirst({ where, select: { id: true } });
  if (!key) return undefined;
  return db().apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() }, select: infoFields });
}

/** Active keys of API clients (the admin app's own left out). */
export async function countActiveClientKeys(): Promise<number> {
  return db().apiKey.count({ where: { revokedAt: null, purpose: "client" } });
}

/** The admin app's live key, if it has one. */
export async function liveAdminAppKey(): Promise<ApiKeyInfo | undefined> {
  return (
    (await db().apiKey.findFirst({ where: { purpose: "admin_app", revokedAt: null }, select: infoFields })) ?? undefined
  );
}

/**
 * Creates the admin app's key and forgets its secret at once: the admin app names its key by id
 * in-process, so no one needs to hold it. Fails on the unique index when the app already has a live key.
 */
export async function createAdminAppKey(): Promise<ApiKeyInfo> {
  const { prefix, hash } = newKey();
  return db().apiKey.create({ data: { name: "admin app", prefix, hash, purpose: "admin_app" }, select: infoFields });
}

/**
 * Makes the key with this id the admin app's (ADMIN_API_KEY): the key the app used before, if another, is
 * revoked in the same transaction, as a key marked for the admin app serves it alone. Returns the revoked keys.
 */
export async function makeAdminAppKey(id: number): Promise<ApiKeyInfo[]> {
  return db().$transaction(async (tx) => {
    const previous = await tx.apiKey.findMany({
      where: { purpose: "admin_app", revokedAt: null, id: { not: id } },
      select: infoFields,
    });
    if (previous.length > 0) {
      await tx.apiKey.updateMany({
        where: { id: { in: previous.map((key) => key.id) }, revokedAt: null },
        data: { revokedAt: new Date() },
      });
    }
    await tx.apiKey.update({ where: { id }, data: { purpose: "admin_app" } });
    return previous;
  });
}

/** The key's record when the key is well-formed, known and not revoked; undefined otherwise. */
export async function authenticateApiKey(key: string): Promise<AuthenticatedKey | undefined> {
  if (!KEY_PATTERN.test(key)) return undefined;
  return authenticated(await findKeyByHash(hashKey(key)));
}

/** The same for a key named by id, as the admin app names its own in-process. */
export async function authenticateApiKeyId(id: number): Promise<AuthenticatedKey | undefined> {
  return authenticated(await findKeyById(id));
}

function authenticated(record: KeyRow | undefined): AuthenticatedKey | undefined {
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
  return { id: record.id, name: record.name };
}
