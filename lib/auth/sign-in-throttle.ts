import "server-only";
import net from "node:net";
import { staffEmailSchema } from "@/lib/auth/staff-schema";
import { db, type Transaction } from "@/lib/db/client";
import { Refusal } from "@/lib/refusal";
import { log } from "@/lib/log";

// What stands between a sign-in attempt and scrypt. Checked in this order, each before any password is
// hashed, so a refused attempt costs a database round trip or two at most:
//
// 1. Per client address, across every email: ADDRESS_LIMIT attempts per window.
// 2. Per (email, address): FREE_FAILURES failures in a row lock that pair, for a time that doubles
//    with each further failure. A stranger's failures lock only the stranger's own address.
// 3. Per email, across addresses: past ACCOUNT_LIMIT password checks in a window from addresses that
//    have not signed in to that email within KNOWN_ADDRESS_DAYS, the account is slowed, never closed:
//    each such address (an IPv6 /48: tryUnit) gets one try at it, and one that has failed at it since its
//    last success there is refused until the window ends. Guessing spread over many addresses then costs an address per
//    guess, while the staff member still signs in from any address that has not been guessing, and
//    from any address they signed in from before (those are never counted).
//    Attempts refused by 1 or 2 are not counted here: an address stopped by its own limits adds
//    nothing, so six addresses making twenty guesses each count 30 checks, not 120.
// 4. Per process: at most MAX_CONCURRENT_HASHES hashes at once and MAX_WAITING_HASHES waiting.
//
// Past any of them the answer is 429 `sign_in_throttled` with Retry-After, at once. The counts are rows in
// the database, shared by every instance, and they are kept for any email typed, account or not, so a
// refusal never tells whether an account exists. A successful sign-in gives its attempt back, so staff
// behind one office address do not use up each other's allowance: the limits count failures. Unlocking
// an account (clearSignInCounts) clears every count that can refuse it: its pairs' failures and locks,
// and its counts per window; an address's own limit (1) is left to end with its window.

export const WINDOW_SECONDS = 15 * 60;
export const ADDRESS_LIMIT = 20;
export const ACCOUNT_LIMIT = 100;
export const KNOWN_ADDRESS_DAYS = 30;
export const MAX_CONCURRENT_HASHES = 2;
export const MAX_WAITING_HASHES = 4;

/** Failures allowed from one address before the first lock; each failure after it doubles the lock, up to the cap. */
export const FREE_FAILURES = 5;
const FIRST_LOCK_MS = 60_000;
const MAX_LOCK_MS = 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

/**
 * The unit the limits count an address as: an IPv4 address as it is, an IPv6 address by its /64, which
 * one host usually holds whole and could otherwise rotate through to escape every per-address limit.
 */
export function throttleAddress(address: string): string {
  if (net.isIPv6(address) && !address.includes(".")) {
    const [left, right = ""] = address.toLowerCase().split("::");
    const head = left ? left.split(":") : [];
    const tail = address.includes("::") ? (right ? right.split(":") : []) : [];
    const groups = [...head, ...Array<string>(8 - head.length - tail.length).fill("0"), ...tail];
    return `${groups
      .slice(0, 4)
      .map((group) => group.replace(/^0+(?=.)/, ""))
      .join(":")}::/64`;
  }
  return address;
}

export function lockDuration(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(FIRST_LOCK_MS * 2 ** (failures - FREE_FAILURES), MAX_LOCK_MS);
}

/** The email as counted and locked: the stored form of a valid address, else what was typed, lower-cased. */
export function signInKey(emailInput: string): string {
  const email = staffEmailSchema.safeParse(emailInput);
  return email.success ? email.data : emailInput.trim().toLowerCase();
}

function inWords(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? "a second" : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? "a minute" : `${minutes} minutes`;
}

function throttled(retryAfterSeconds: number, message: string): Refusal {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new Refusal("sign_in_throttled", {
    message: `${message} Try again in ${inWords(seconds)}.`,
    headers: { "Retry-After": String(seconds) },
  });
}

// ---- Counting in windows ----------------------------------------------------------------------------

const addressBucket = (address: string) => `address ${address}`;
const accountBucket = (key: string) => `account ${key}`;
/** The tries of one address at an email past the email's ACCOUNT_LIMIT: one is allowed per window. */
const tryBucket = (key: string, address: string) => `${accountBucket(key)} from ${tryUnit(address)}`;

/**
 * The unit that gets one try at an account past ACCOUNT_LIMIT: an IPv4 address as it is, an IPv6 address by its
 * /48, a site's usual allocation. Counted by its /64 (the address unit), a /48 would give 65,536 tries a window.
 */
export function tryUnit(address: string): string {
  const unit = throttleAddress(address);
  return unit.endsWith("::/64") ? `${unit.split(":").slice(0, 3).join(":")}::/48` : unit;
}

const windowOf = (now: Date) => Math.floor(now.getTime() / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS;

/** Counts one attempt in a bucket's window; returns the window's count, this attempt included. */
async function count(bucket: string, windowStart: number): Promise<number> {
  const rows = await db().$queryRaw<{ count: number | bigint }[]>`
    INSERT INTO sign_in_throttles (bucket, window_start, count) VALUES (${bucket}, ${BigInt(windowStart)}, 1)
    ON CONFLICT (bucket, window_start) DO UPDATE SET count = sign_in_throttles.count + 1
    RETURNING count`;
  return Number(rows[0].count);
}

async function uncount(bucket: string, windowStart: number): Promise<void> {
  await db().$executeRaw`
    UPDATE sign_in_throttles SET count = count - 1
    WHERE bucket = ${bucket} AND window_start = ${BigInt(windowStart)} AND count > 0`;
}

// An address known to be over its limit is refused from memory until its window ends: a flood from one
// address costs this instance no database work once the database has said so. Only attempts admitted
// before it went over can still give theirs back, so memory is never laxer than the database.
const refusedAddresses = new Map<string, number>();

function refusedFromMemory(address: string, windowStart: number): boolean {
  const refusedIn = refusedAddresses.get(address);
  if (refusedIn === windowStart) return true;
  if (refusedIn !== undefined) refusedAddresses.delete(address);
  return false;
}

function rememberRefused(address: string, windowStart: number): void {
  if (refusedAddresses.size > 10_000) refusedAddresses.clear(); // a bound, not a cache policy
  refusedAddresses.set(address, windowStart);
}

// ---- The lock of an (email, address) pair --------------------------------------------------------------

type Pair = { failures: number; lockedUntil: number | null; signedInAt: number | null };

async function readPair(key: string, address: string): Promise<Pair | undefined> {
  const row = await db().signInLock.findUnique({
    where: { email_address: { email: key, address } },
    select: { failures: true, lockedUntil: true, signedInAt: true },
  });
  if (!row) return undefined;
  const time = (value: bigint | null) => (value === null ? null : Number(value));
  return { failures: row.failures, lockedUntil: time(row.lockedUntil), signedInAt: time(row.signedInAt) };
}

/** The end of the pair's lock, or undefined when it is not locked at `now`. */
export async function lockedUntil(key: string, address: string, now: Date): Promise<Date | undefined> {
  const pair = await readPair(key, address);
  return pair?.lockedUntil && pair.lockedUntil > now.getTime() ? new Date(pair.lockedUntil) : undefined;
}

/**
 * Counts a failure of the pair, atomically (concurrent failures on every instance are all counted), and
 * locks it once it has had its free failures. A lock is only ever lengthened here. `client` is the
 * transaction that records the failure in the audit trail, when there is one.
 */
export async function recordFailure(
  key: string,
  address: string,
  now: Date,
  client: Transaction = db(),
): Promise<void> {
  const at = BigInt(now.getTime());
  const rows = await client.$queryRaw<{ failures: number | bigint }[]>`
    INSERT INTO sign_in_locks (email, address, failures, updated_at) VALUES (${key}, ${address}, 1, ${at})
    ON CONFLICT (email, address) DO UPDATE
      SET failures = sign_in_locks.failures + 1, updated_at = excluded.updated_at
    RETURNING failures`;
  const lock = lockDuration(Number(rows[0].failures));
  if (lock === 0) return;
  const until = BigInt(now.getTime() + lock);
  await client.$executeRaw`
    UPDATE sign_in_locks
    SET locked_until = CASE WHEN locked_until IS NULL OR locked_until < ${until} THEN ${until} ELSE locked_until END
    WHERE email = ${key} AND address = ${address}`;
}

/**
 * Records a success of the pair: its failures and lock are cleared and the address becomes known. Only
 * if the pair is unlocked at this very statement: false when a concurrent failure locked it meanwhile.
 */
export async function recordSuccess(
  key: string,
  address: string,
  now: Date,
  client: Transaction = db(),
): Promise<boolean> {
  const at = BigInt(now.getTime());
  const rows = await client.$queryRaw<unknown[]>`
    INSERT INTO sign_in_locks (email, address, failures, signed_in_at, updated_at)
    VALUES (${key}, ${address}, 0, ${at}, ${at})
    ON CONFLICT (email, address) DO UPDATE
      SET failures = 0, locked_until = NULL, signed_in_at = excluded.signed_in_at, updated_at = excluded.updated_at
      WHERE sign_in_locks.locked_until IS NULL OR sign_in_locks.locked_until <= excluded.updated_at
    RETURNING failures`;
  return rows.length === 1;
}

// ---- Admission -----------------------------------------------------------------------------------------

export type AdmittedAttempt = {
  /** Gives the attempt back to the limits: it signed in, or it was never checked. */
  giveBack(): Promise<void>;
};

/**
 * Lets a sign-in attempt from `address` for `emailInput` go on to the password check, or throws the 429
 * to answer. The attempt is counted; `giveBack` uncounts it.
 */
export async function admitSignIn(emailInput: string, address: string, now = new Date()): Promise<AdmittedAttempt> {
  if (!hashSlotsOpen()) throw signInsBusy(); // no count, no database: nothing would be checked anyway
  const seconds = now.getTime() / 1000;
  const windowStart = windowOf(now);
  const windowLeft = windowStart + WINDOW_SECONDS - seconds;
  const fromHere = "Too many sign-in attempts from your network.";
  if (refusedFromMemory(address, windowStart)) throw throttled(windowLeft, fromHere);

  const counted: string[] = [];
  const giveBack = async () => {
    for (const bucket of counted) await uncount(bucket, windowStart);
  };
  const addressCount = await count(addressBucket(address), windowStart);
  counted.push(addressBucket(address));
  if (addressCount > ADDRESS_LIMIT) {
    rememberRefused(address, windowStart);
    if (addressCount === ADDRESS_LIMIT + 1) log("warn", "sign-in limit reached", { limit: "address", address });
    throw throttled(windowLeft, fromHere);
  }

  const key = signInKey(emailInput);
  const pair = await readPair(key, address);
  // A locked pair is refused before the account counts it: its refusals must not add up to the account's limit.
  if (pair?.lockedUntil && pair.lockedUntil > now.getTime())
    throw throttled(
      (pair.lockedUntil - now.getTime()) / 1000,
      "Too many failed sign-ins for this account from your network.",
    );
  const known = pair?.signedInAt != null && pair.signedInAt > now.getTime() - KNOWN_ADDRESS_DAYS * DAY_MS;
  if (!known) {
    const accountCount = await count(accountBucket(key), windowStart);
    counted.push(accountBucket(key));
    if (accountCount > ACCOUNT_LIMIT) {
      if (accountCount === ACCOUNT_LIMIT + 1) log("warn", "sign-in limit reached", { limit: "account", email: key });
      const newPlaces =
        "Too many sign-in attempts for this account from new places. Sign in from a place you used before, or wait.";
      if (pair && pair.failures > 0) throw throttled(windowLeft, newPlaces);
      // One try per address, counted atomically so that a burst of them from one address gets one check.
      const tries = await count(tryBucket(key, address), windowStart);
      counted.push(tryBucket(key, address));
      if (tries > 1) throw throttled(windowLeft, newPlaces);
    }
  }
  return { giveBack };
}

// ---- What refuses an account, and unlocking it -----------------------------------------------------------

/**
 * For each email, the client addresses refused it right now: those whose pair is locked, and, while the email
 * is past ACCOUNT_LIMIT in this window, those not known to it that have failed at it.
 */
export async function lockedOutAddresses(
  emails: string[],
  now = new Date(),
  client: Transaction = db(),
): Promise<Map<string, number>> {
  const at = BigInt(now.getTime());
  const locked = await client.signInLock.groupBy({
    by: ["email"],
    where: { email: { in: emails }, lockedUntil: { gt: at } },
    _count: { _all: true },
  });
  const past = await client.signInThrottle.findMany({
    where: {
      bucket: { in: emails.map(accountBucket) },
      windowStart: BigInt(windowOf(now)),
      count: { gt: ACCOUNT_LIMIT },
    },
    select: { bucket: true },
  });
  const failed =
    past.length === 0
      ? []
      : await client.signInLock.groupBy({
          by: ["email"],
          where: {
            email: { in: past.map((row) => row.bucket.slice(accountBucket("").length)) },
            failures: { gt: 0 },
            OR: [{ lockedUntil: null }, { lockedUntil: { lte: at } }],
            AND: [{ OR: [{ signedInAt: null }, { signedInAt: { lte: at - BigInt(KNOWN_ADDRESS_DAYS * DAY_MS) } }] }],
          },
          _count: { _all: true },
        });
  const refused = new Map<string, number>();
  for (const row of [...locked, ...failed]) refused.set(row.email, (refused.get(row.email) ?? 0) + row._count._all);
  return refused;
}

/** What unlocking an account cleared. */
export type ClearedSignInCounts = {
  /** Client addresses that were refused the account (lockedOutAddresses). */
  lockedAddresses: number;
  /** Client addresses whose failures at the account were set back to none (the locked ones among them). */
  failedAddresses: number;
  /** Attempts at the account from new places counted in this window (towards ACCOUNT_LIMIT). */
  accountAttempts: number;
};

/**
 * Clears every count that can refuse `email` to anyone: the failures and lock of every (email, address) pair,
 * its attempts from new places, in every window, and the one-try counts of the addresses past its limit. The
 * addresses it signed in from stay known. An address's own limit, across every email, is not the account's
 * and is left to end with its window.
 */
export async function clearSignInCounts(
  email: string,
  now = new Date(),
  client: Transaction = db(),
): Promise<ClearedSignInCounts> {
  const lockedAddresses = (await lockedOutAddresses([email], now, client)).get(email) ?? 0;
  const { count: failedAddresses } = await client.signInLock.updateMany({
    where: { email, OR: [{ failures: { gt: 0 } }, { lockedUntil: { not: null } }] },
    data: { failures: 0, lockedUntil: null, updatedAt: BigInt(now.getTime()) },
  });
  const account = accountBucket(email);
  const rows = await client.signInThrottle.findMany({
    where: { bucket: { startsWith: account } },
    select: { bucket: true, windowStart: true, count: true },
  });
  const ours = rows.filter((row) => row.bucket === account || row.bucket.startsWith(tryBucket(email, "")));
  const accountAttempts = ours
    .filter((row) => row.bucket === account && row.windowStart === BigInt(windowOf(now)))
    .reduce((sum, row) => sum + row.count, 0);
  if (ours.length > 0)
    await client.signInThrottle.deleteMany({ where: { bucket: { in: [...new Set(ours.map((row) => row.bucket))] } } });
  return { lockedAddresses, failedAddresses, accountAttempts };
}

// ---- Hashes at once ------------------------------------------------------------------------------------

let hashing = 0;
const waiting: (() => void)[] = [];

function hashSlotsOpen(): boolean {
  return hashing < MAX_CONCURRENT_HASHES || waiting.length < MAX_WAITING_HASHES;
}

/** The 429 of a sign-in refused because the server is checking too many at once. */
export function signInsBusy(): Refusal {
  return throttled(1, "The server is checking too many sign-ins at once.");
}

/**
 * Runs `work` (a password hash) within this process's bound: at once when fewer than
 * MAX_CONCURRENT_HASHES run, else after those ahead of it (first come, first served); throws the 429 at
 * once when MAX_WAITING_HASHES are already waiting.
 */
export async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (hashing < MAX_CONCURRENT_HASHES) hashing++;
  else if (waiting.length < MAX_WAITING_HASHES) await new Promise<void>((resolve) => waiting.push(resolve));
  else throw signInsBusy();
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next)
      next(); // the slot passes straight to the next in line
    else hashing--;
  }
}

// ---- Housekeeping --------------------------------------------------------------------------------------

/**
 * What housekeeping (lib/housekeeping.ts) may delete: windows that ended before `windowsBefore`, the
 * failures of pairs quiet since `quietBefore` (every lock has ended by then), and known addresses unused
 * since `knownBefore` (KNOWN_ADDRESS_DAYS).
 */
export function signInThrottleCutoffs(now = new Date()): {
  windowsBefore: bigint;
  quietBefore: bigint;
  knownBefore: bigint;
} {
  return {
    windowsBefore: BigInt(Math.floor(now.getTime() / 1000) - WINDOW_SECONDS),
    quietBefore: BigInt(now.getTime() - DAY_MS),
    knownBefore: BigInt(now.getTime() - KNOWN_ADDRESS_DAYS * DAY_MS),
  };
}
