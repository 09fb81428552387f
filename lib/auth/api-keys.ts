import "server-only";
import { randomBytes } from "node:crypto";
import { db } from "@/lib/db/client";
import { findKeyById, findKeyByHash, type KeyRow } from "@/lib/auth/key-lookup";
import { recordAudit, THE_APP, type AuditContext } from "@/lib/audit/record";
import type { Transaction } from "@/lib/db/client";
import { sha256Hex } from "@/lib/hash";
import { Refusal } from "@/lib/refusal";
import type { ApiKeyPurpose } from "@/lib/generated/sqlite/client";

// API keys: `ask_` and 32 random base64url characters (192 bits). Only the SHA-256 of a key is stored,
// with its first characters as a prefix to recognise it by; the key itself is shown once, at creation.
// A key serves API clients, or the admin app (purpose admin_app, at most one live: a partial unique
// index of the 0006 migration), whose forwards to /v1 name it by id in-process (lib/auth/admin-key.ts).
// Creating and revoking a key each write their audit record in the same transaction as the change; the
// caller says who made it (the signed-in admin, the command line, the app itself for its own key).

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
  /** Who made it, as the audit trail names them: a staff member's email, "command line", "the app". */
  createdBy: string | null;
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
  createdBy: true,
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

const auditTarget = (key: Pick<ApiKeyInfo, "id" | "name">) => ({
  type: "api_key" as const,
  id: key.id,
  label: key.name,
});

/** Creates a key with its api_key.created record; `name` is already valid (lib/auth/api-key-schema.ts). */
export async function createApiKey(name: string, audit: AuditContext): Promise<{ info: ApiKeyInfo; key: string }> {
  const { key, prefix, hash } = newKey();
  const info = await db().$transaction((tx) => createdKey(tx, { name, prefix, hash, purpose: "client" }, audit));
  return { info, key };
}

async function createdKey(
  tx: Transaction,
  data: { name: string; prefix: string; hash: string; purpose: ApiKeyPurpose },
  audit: AuditContext,
): Promise<ApiKeyInfo> {
  const info = await tx.apiKey.create({ data: { ...data, createdBy: audit.actor.label }, select: infoFields });
  await recordAudit(tx, audit, {
    action: "api_key.created",
    target: auditTarget(info),
    details: { prefix: info.prefix },
  });
  return info;
}

export async function listApiKeys(): Promise<ApiKeyInfo[]> {
  return db().apiKey.findMany({ select: infoFields, orderBy: { id: "asc" } });
}

/** What a revocation did: revoked it now (with its record), or found it revoked already (and wrote nothing). */
export type Revocation = { key: ApiKeyInfo; outcome: "revoked" | "already_revoked" };

/** Revokes one key in the transaction, with its api_key.revoked record; a key revoked already is left alone. */
async function revokeIn(tx: Transaction, key: ApiKeyInfo, audit: AuditContext): Promise<Revocation> {
  if (key.revokedAt) return { key, outcome: "already_revoked" };
  // Conditional, so that of two revocations at once only one changes the row and writes a record.
  const { count } = await tx.apiKey.updateMany({
    where: { id: key.id, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  const now = await tx.apiKey.findUniqueOrThrow({ where: { id: key.id }, select: infoFields });
  if (count === 0) return { key: now, outcome: "already_revoked" };
  await recordAudit(tx, audit, {
    action: "api_key.revoked",
    target: auditTarget(now),
    details: { prefix: now.prefix },
  });
  return { key: now, outcome: "revoked" };
}

/**
 * Revokes the key with this id or prefix; undefined when none matches. A key revoked already is reported as
 * such, unchanged and without a record. With `sparingAdminAppKey` (the admin app's endpoint), the admin app's
 * own live key is refused (409 `admin_app_key`).
 */
export async function revokeApiKey(
  idOrPrefix: string | number,
  audit: AuditContext,
  { sparingAdminAppKey = false } = {},
): Promise<Revocation | undefined> {
  const where =
    typeof idOrPrefix === "number" || /^[0-9]+$/.test(idOrPrefix) ? { id: Number(idOrPrefix) } : { prefix: idOrPrefix };
  return db().$transaction(async (tx) => {
    const key = await tx.apiKey.findFirst({ where, select: infoFields });
    if (!key) return undefined;
    if (sparingAdminAppKey && key.purpose === "admin_app" && !key.revokedAt) throw new Refusal("admin_app_key");
    return revokeIn(tx, key, audit);
  });
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
 * in-process, so no one needs to hold it. Recorded as made by the app. Fails on the unique index when the app
 * already has a live key, and then leaves no record.
 */
export async function createAdminAppKey(): Promise<ApiKeyInfo> {
  const { prefix, hash } = newKey();
  return db().$transaction((tx) => createdKey(tx, { name: "admin app", prefix, hash, purpose: "admin_app" }, THE_APP));
}

/**
 * Makes the key with this id the admin app's (ADMIN_API_KEY): the key the app used before, if another, is
 * revoked in the same transaction (each with its record, made by the app), as a key marked for the admin app
 * serves it alone. Returns the revoked keys.
 */
export async function makeAdminAppKey(id: number): Promise<ApiKeyInfo[]> {
  return db().$transaction(async (tx) => {
    const previous = await tx.apiKey.findMany({
      where: { purpose: "admin_app", revokedAt: null, id: { not: id } },
      select: infoFields,
    });
    const revoked: ApiKeyInfo[] = [];
    for (const key of previous) {
      const revocation = await revokeIn(tx, key, THE_APP);
      if (revocation.outcome === "revoked") revoked.push(revocation.key);
    }
    // Conditional, so that of instances starting at once with the same ADMIN_API_KEY only one records it.
    const { count } = await tx.apiKey.updateMany({
      where: { id, purpose: { not: "admin_app" } },
      data: { purpose: "admin_app" },
    });
    if (count > 0) {
      const key = await tx.apiKey.findUniqueOrThrow({ where: { id }, select: infoFields });
      await recordAudit(tx, THE_APP, {
        action: "api_key.made_admin_app",
        target: auditTarget(key),
        details: { prefix: key.prefix },
      });
    }
    return revoked;
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
