import "server-only";
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

// Staff passwords, hashed with scrypt (node:crypto; no dependency). The stored form names its
// parameters, "scrypt$N$r$p$salt$hash" (salt and hash in base64url), so they can be raised later
// without invalidating older hashes. N=2^15, r=8, p=3 is one of OWASP's scrypt settings: 32 MiB and
// roughly a tenth of a second per attempt here, run on libuv's thread pool, not the event loop.

const N = 2 ** 15;
const R = 8;
const P = 3;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

/** The scrypt calls of this process: running now, the most at once, and how many ever started. */
export const scryptActivity = { running: 0, peak: 0, started: 0 };

function derive(password: string, salt: Buffer, options: { N: number; r: number; p: number }): Promise<Buffer> {
  // maxmem must exceed 128·N·r bytes, which is exactly Node's default at N=2^15, r=8.
  const scryptOptions: ScryptOptions = { ...options, maxmem: 256 * options.N * options.r };
  return new Promise((resolve, reject) => {
    scryptActivity.started++;
    scryptActivity.peak = Math.max(scryptActivity.peak, ++scryptActivity.running);
    const done = (error: Error | null, key?: Buffer) => {
      scryptActivity.running--;
      if (error || !key) reject(error ?? new Error("scrypt returned no key"));
      else resolve(key);
    };
    try {
      scrypt(password.normalize("NFC"), salt, KEY_LENGTH, scryptOptions, done);
    } catch (error) {
      done(error as Error); // bad parameters are thrown, not passed to the callback
    }
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, { N, r: R, p: P });
  return ["scrypt", N, R, P, salt.toString("base64url"), key.toString("base64url")].join("$");
}

const STORED_PATTERN = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** Whether the password matches the stored hash; false for a hash this code did not write. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = STORED_PATTERN.exec(stored);
  if (!match) return false;
  const [n, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // Parameters come from our own database, but a corrupt row must not make us allocate gigabytes.
  if (n < 2 || n > 2 ** 20 || (n & (n - 1)) !== 0 || r < 1 || r > 32 || p < 1 || p > 16) return false;
  const expected = Buffer.from(match[5], "base64url");
  const key = await derive(password, Buffer.from(match[4], "base64url"), { N: n, r, p });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash of a random password: verified against when the email is unknown, so the answer takes as long. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString("base64url"));
  return decoy;
}
