import { db } from "@/lib/db/client";
import { sha256Hex } from "@/lib/hash";

// Idempotency-Key for POST /v1/pets (draft-ietf-httpapi-idempotency-key-header, with Stripe's
// semantics): per API key, the first request with a key is recorded before it runs; its answer is
// stored in the same transaction as the pet it creates, so a retry replays it and never creates a
// second pet. Records are kept 24 hours.

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
// A request holding a key for this long is taken to have died with its process, and a retry may run in
// its place. Taking over is safe even if the holder lives on: whichever of the two completes the record
// first stores its pet, and the other's transaction finds the record completed and rolls back.
const ABANDONED_AFTER_MS = 5_000;

/** The claim was completed by another request (one that took it over, or that it took over). */
export class IdempotencyClaimLost extends Error {
  constructor() {
    super("the idempotency claim was completed by another request");
  }
}

export type StoredResponse = { status: number; body: string; location: string | null };
export type Claim =
  | { kind: "claimed"; lockedAt: Date }
  | { kind: "replay"; response: StoredResponse }
  | { kind: "in_progress" }
  | { kind: "mismatch" };

export function requestHash(body: string): string {
  return sha256Hex(body);
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}

/** Claims an idempotency key for a request, or says what to answer instead. */
export async function claimIdempotencyKey(apiKeyId: number, key: string, hash: string): Promise<Claim> {
  const where = { apiKeyId_key: { apiKeyId, key } };
  for (let attempt = 0; attempt < 3; attempt++) {
    const now = new Date();
    try {
      await db().idempotencyRecord.create({ data: { apiKeyId, key, requestHash: hash, lockedAt: now, createdAt: now }, select: { key: true } });
      return { kind: "claimed", lockedAt: now };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const record = await db().idempotencyRecord.findUnique({ where, select: { requestHash: true, responseStatus: true, responseBody: true, location: true, lockedAt: true, createdAt: true } });
    if (!record) continue; // expired and deleted meanwhile: claim again
    if (now.getTime() - record.createdAt.getTime() > IDEMPOTENCY_TTL_MS) {
      await db().idempotencyRecord.deleteMany({ where: { apiKeyId, key, createdAt: record.createdAt } });
      continue;
    }
    if (record.requestHash !== hash) return { kind: "mismatch" };
    if (record.responseStatus !== null) {
      return { kind: "replay", response: { status: record.responseStatus, body: record.responseBody ?? "", location: record.location } };
    }
    if (now.getTime() - record.lockedAt.getTime() < ABANDONED_AFTER_MS) return { kind: "in_progress" };
    const { count } = await db().idempotencyRecord.updateMany({
      where: { apiKeyId, key, responseStatus: null, lockedAt: record.lockedAt },
      data: { lockedAt: now },
    });
    if (count === 1) return { kind: "claimed", lockedAt: now };
  }
  return { kind: "in_progress" };
}

/**
 * Gives a claimed key back when the request failed before doing anything, so a retry may run; only
 * while the claim is still this request's (not taken over by another since).
 */
export async function releaseIdempotencyKey(apiKeyId: number, key: string, lockedAt: Date): Promise<void> {
  await db().idempotencyRecord.deleteMany({ where: { apiKeyId, key, responseStatus: null, lockedAt } });
}

export async function deleteExpiredIdempotencyRecords(): Promise<void> {
  await db().idempotencyRecord.deleteMany({ where: { createdAt: { lt: new Date(Date.now() - IDEMPOTENCY_TTL_MS) } } });
}
