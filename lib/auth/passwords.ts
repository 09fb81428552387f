import "server-only";
import { randomBytes, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { Worker } from "node:worker_threads";

// Staff passwords, hashed with scrypt (node:crypto; no dependency). The stored form names its
// parameters, "scrypt$N$r$p$salt$hash" (salt and hash in base64url), so they can be raised later
// without invalidating older hashes. N=2^15, r=8, p=3 is one of OWASP's scrypt settings: 32 MiB and
// roughly a tenth of a second per attempt here.
//
// Hashes run on worker threads of their own, each lowered to nice 10 where the OS gives a thread its own
// priority (Linux): a hash takes the CPU that requests leave idle instead of an equal share of it. On libuv's
// thread pool at normal priority, two hashes on a 2-core machine slowed a busy server's /v1 far more than on
// these threads (the figures: docs/performance.md, Sign-in floods).

/** scrypt's cost parameters, as the stored form names them. */
export type ScryptCost = { N: number; r: number; p: number };
const STAFF_COST: ScryptCost = { N: 2 ** 15, r: 8, p: 3 };
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
export const HASH_THREAD_NICE = 10;
const MAX_HASH_THREADS = 4;

/** The scrypt calls of this process: running now, the most at once, and how many ever started. */
export const scryptActivity = { running: 0, peak: 0, started: 0 };

// Plain CommonJS, evaluated as the worker's script: no file to find in either bundle (Next's, esbuild's).
const HASH_THREAD_SOURCE = `
const { scryptSync } = require("node:crypto");
const { parentPort } = require("node:worker_threads");
try {
  const thread = Number(require("node:fs").readlinkSync("/proc/thread-self").split("/").pop());
  require("node:os").setPriority(thread, ${HASH_THREAD_NICE});
} catch {
  // no per-thread priority on this OS: the hash runs at the process's own
}
parentPort.on("message", ({ password, salt, keyLength, options }) => {
  try {
    const key = scryptSync(password, salt, keyLength, options);
    parentPort.postMessage({ key });
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
  }
});
`;

type Job = {
  password: string;
  salt: Buffer;
  options: ScryptOptions;
  resolve(key: Buffer): void;
  reject(error: Error): void;
};

const idleThreads: Worker[] = [];
const jobOf = new Map<Worker, Job>();
const queuedJobs: Job[] = [];
let threadCount = 0;

function settle(thread: Worker, outcome: { key?: Uint8Array; error?: string | Error }): void {
  const job = jobOf.get(thread);
  if (!job) return;
  jobOf.delete(thread);
  scryptActivity.running--;
  if (outcome.key) job.resolve(Buffer.from(outcome.key));
  else job.reject(outcome.error instanceof Error ? outcome.error : new Error(outcome.error ?? "scrypt failed"));
}

function startThread(): Worker {
  const thread = new Worker(HASH_THREAD_SOURCE, { eval: true });
  threadCount++;
  thread.on("message", (reply: { key?: Uint8Array; error?: string }) => {
    settle(thread, reply);
    const next = queuedJobs.shift();
    if (next) run(thread, next);
    else {
      thread.unref(); // an idle hash thread never keeps the process alive
      idleThreads.push(thread);
    }
  });
  let gone = false;
  const lost = (error: Error) => {
    if (gone) return; // "error" is followed by "exit"
    gone = true;
    settle(thread, { error });
    if (idleThreads.includes(thread)) idleThreads.splice(idleThreads.indexOf(thread), 1);
    threadCount--;
    const next = queuedJobs.shift();
    if (next) dispatch(next);
  };
  thread.on("error", lost);
  thread.on("exit", (code) => lost(new Error(`the hash thread exited with ${code}`)));
  return thread;
}

function run(thread: Worker, job: Job): void {
  thread.ref();
  jobOf.set(thread, job);
  scryptActivity.started++;
  scryptActivity.peak = Math.max(scryptActivity.peak, ++scryptActivity.running);
  thread.postMessage({ password: job.password, salt: job.salt, keyLength: KEY_LENGTH, options: job.options });
}

function dispatch(job: Job): void {
  const thread = idleThreads.pop() ?? (threadCount < MAX_HASH_THREADS ? startThread() : undefined);
  if (thread) run(thread, job);
  else queuedJobs.push(job);
}

function derive(password: string, salt: Buffer, options: ScryptCost): Promise<Buffer> {
  // maxmem must exceed 128·N·r bytes, which is exactly Node's default at N=2^15, r=8.
  const scryptOptions: ScryptOptions = { ...options, maxmem: 256 * options.N * options.r };
  return new Promise((resolve, reject) =>
    dispatch({ password: password.normalize("NFC"), salt, options: scryptOptions, resolve, reject }),
  );
}

/** A password's stored form; `cost` other than the default is for the test harness's fixture accounts only. */
export async function hashPassword(password: string, cost: ScryptCost = STAFF_COST): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, cost);
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64url"), key.toString("base64url")].join("$");
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
