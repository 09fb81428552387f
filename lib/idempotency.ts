import "server-only";
import { respond } from "@/lib/http/response";
import { db, transaction, type Transaction } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { sha256Hex } from "@/lib/hash";
import { Refusal } from "@/lib/refusal";

// Idempotency-Key (draft-ietf-httpapi-idempotency-key-header, with Stripe's semantics), for any
// operation that opts in: this module owns the header, and the claim / replay / release protocol. Per
// API key, and within the admin app's key per staff member, the first request with a key is recorded before
// it runs; the operation then runs in a
// transaction this module hands it, and its answer is stored in that same transaction, so a retry
// replays the answer and never repeats the change. The operation knows nothing of this. Records are
// kept 24 hours; lib/housekeeping.ts deletes them after.

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
// A request holding a key for this long is taken to have died with its process, and a retry may run in
// its place. Taking over is safe even if the holder lives on: whichever of the two completes the record
// first stores its pet, and the other's transaction finds the record completed and rolls back.
const ABANDONED_AFTER_MS = 5_000;

/** The claim was completed by another request (one that took it over, or that it took over). */
class IdempotencyClaimLost extends Error {
  constructor() {
    super("the idempotency claim was completed by another request");
  }
}

/** An operation's answer, as it is stored for replays. */
export type StoredResponse = { status: number; body: string; location: string | null; etag: string | null };
type Claim =
  | { kind: "claimed"; lockedAt: Date }
  | { kind: "replay"; response: StoredResponse }
  | { kind: "in_progress" }
  | { kind: "mismatch" };

/** Claims an idempotency key for a request, or says what to answer instead. */
async function claimIdempotencyKey(apiKeyId: number, key: string, hash: string): Promise<Claim> {
  const where = { apiKeyId_key: { apiKeyId, key } };
  for (let attempt = 0; attempt < 3; attempt++) {
    const now = new Date();
    try {
      await db().idempotencyRecord.create({
        data: { apiKeyId, key, requestHash: hash, lockedAt: now, createdAt: now },
        select: { key: true },
      });
      return { kind: "claimed", lockedAt: now };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const record = await db().idempotencyRecord.findUnique({
      where,
      select: {
        requestHash: true,
        responseStatus: true,
        responseBody: true,
        location: true,
        etag: true,
        lockedAt: true,
        createdAt: true,
      },
    });
    if (!record) continue; // expired and deleted meanwhile: claim again
    if (now.getTime() - record.createdAt.getTime() > IDEMPOTENCY_TTL_MS) {
      await db().idempotencyRecord.deleteMany({ where: { apiKeyId, key, createdAt: record.createdAt } });
      continue;
    }
    if (record.requestHash !== hash) return { kind: "mismatch" };
    if (record.responseStatus !== null) {
      return {
        kind: "replay",
        response: {
          status: record.responseStatus,
          body: record.responseBody ?? "",
          location: record.location,
          etag: record.etag,
        },
      };
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
async function releaseIdempotencyKey(apiKeyId: number, key: string, lockedAt: Date): Promise<void> {
  await db().idempotencyRecord.deleteMany({ where: { apiKeyId, key, responseStatus: null, lockedAt } });
}

/**
 * The key a request's Idempotency-Key is stored under: as sent for an API client; for a staff member behind the
 * admin app's key, prefixed with "staff:<id> ", so that one staff member's key never replays another's answer.
 * The space is never in a key a client sends, so no key of the admin app's API key used directly can be taken
 * for a staff member's, and records stored before the prefix keep answering API clients as they did.
 */
function storedKey(key: string, staffId: number | undefined): string {
  return staffId === undefined ? key : `staff:${staffId} ${key}`;
}

/** The Idempotency-Key header: an opaque string of 1 to 255 visible characters, quoted or not. */
function idempotencyKeyOf(request: Request): string | undefined {
  const raw = request.headers.get("idempotency-key");
  if (raw === null) return undefined;
  const key = /^"(.*)"$/.exec(raw)?.[1] ?? raw;
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new Refusal("invalid_header", {
      message: "Idempotency-Key must be 1 to 255 visible ASCII characters, such as a UUID.",
      errors: [{ path: "Idempotency-Key", message: "must be 1 to 255 visible ASCII characters" }],
    });
  }
  return key;
}

function storedAnswer({ status, body, location, etag }: StoredResponse, replayed: boolean): Response {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (location) headers.Location = location;
  if (etag) headers.ETag = etag;
  if (replayed) headers["Idempotent-Replayed"] = "true";
  return respond(body, { status, headers });
}

export type IdempotentOperation = (tx: Transaction) => Promise<StoredResponse>;

/**
 * Runs an operation at most once per Idempotency-Key of the request. The header is read (and a bad one
 * refused) at once; `run` takes the request body's text and the operation. Without the header the
 * operation runs in a transaction of its own. With it, the first request runs the operation in a
 * transaction that also stores its answer; a retry with the same body gets that answer again
 * (Idempotent-Replayed: true), one with another body a 422, one while the first still runs a 409. Keys are
 * scoped to the API key and, with `staffId` (a request the admin app forwards), to the staff member.
 */
export function idempotency(
  request: Request,
  apiKeyId: number,
  staffId?: number,
): { run(body: string, operation: IdempotentOperation): Promise<Response> } {
  const sent = idempotencyKeyOf(request);
  const key = sent === undefined ? undefined : storedKey(sent, staffId);
  return {
    async run(body, operation) {
      // Still a transaction of its own: the operation's change and its audit record commit together or not at all.
      if (key === undefined) return storedAnswer(await transaction(operation), false);
      const inProgress = () => new Refusal("idempotency_key_in_progress", { headers: { "Retry-After": "1" } });
      const claim = await claimIdempotencyKey(apiKeyId, key, sha256Hex(body));
      if (claim.kind === "replay") return storedAnswer(claim.response, true);
      if (claim.kind === "in_progress") throw inProgress();
      if (claim.kind === "mismatch") throw new Refusal("idempotency_key_reused");
      try {
        return storedAnswer(await completeOnce(apiKeyId, key, operation), false);
      } catch (error) {
        if (error instanceof IdempotencyClaimLost) throw inProgress();
        await releaseIdempotencyKey(apiKeyId, key, claim.lockedAt).catch(() => {});
        throw error;
      }
    },
  };
}

/**
 * The operation and its stored answer in one transaction: either both exist or neither does, so a
 * retry can never repeat the change.
 */
function completeOnce(apiKeyId: number, key: string, operation: IdempotentOperation): Promise<StoredResponse> {
  return transaction(async (tx) => {
    const answer = await operation(tx);
    const { count } = await tx.idempotencyRecord.updateMany({
      where: { apiKeyId, key, responseStatus: null },
      data: {
        responseStatus: answer.status,
        responseBody: answer.body,
        location: answer.location,
        etag: answer.etag,
      },
    });
    if (count !== 1) throw new IdempotencyClaimLost(); // rolls the operation back
    return answer;
  });
}
