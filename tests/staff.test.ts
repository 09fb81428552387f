import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

// Staff accounts in-process, on a fresh SQLite file: password hashing, the lockout, the sign-in limits
// and the bound on hashes at once (counted by the process's own scrypt gauge), sessions.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "animal-store-staff-"));
process.env.DATABASE_URL = `file:${path.join(dir, "staff.db")}`; // read on first use of the database, below

const { config } = await import("@/lib/config");
const { db } = await import("@/lib/db/client");
const { migrate } = await import("@/lib/db/migrate");
const { decoyHash, HASH_THREAD_NICE, hashPassword, scryptActivity, verifyPassword } =
  await import("@/lib/auth/passwords");
const { createStaff, disableStaff, FREE_FAILURES, listStaff, lockDuration, signIn, signInFrom, unlockStaff } =
  await import("@/lib/auth/staff");
const throttle = await import("@/lib/auth/sign-in-throttle");
const { Refusal } = await import("@/lib/refusal");
const { runHousekeeping } = await import("@/lib/housekeeping");
const { endSession, SESSION_LIFETIME_MS, sessionStaff, startSession } = await import("@/lib/auth/sessions");
const { UNKNOWN_ADDRESS } = await import("@/lib/http/forwarded");

before(async () => {
  await migrate(config().database);
});

after(async () => {
  await db().$disconnect();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** How many scrypt hashes this process started while `work` ran. */
async function hashesDuring(work: () => Promise<unknown>): Promise<number> {
  const before = scryptActivity.started;
  await work();
  return scryptActivity.started - before;
}

describe("password hashing", () => {
  test("scrypt with its parameters and a random salt; the right password verifies, others do not", async () => {
    const stored = await hashPassword("correct horse battery");
    assert.match(stored, /^scrypt\$32768\$8\$3\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    assert.equal(await verifyPassword("correct horse battery", stored), true);
    assert.equal(await verifyPassword("correct horse batterY", stored), false);
    assert.equal(await verifyPassword("", stored), false);
    assert.notEqual(await hashPassword("correct horse battery"), stored, "a new salt every time");
  });

  test("the password is Unicode-normalised, so the same characters typed differently match", async () => {
    const stored = await hashPassword("caf\u00e9 au lait!!");
    assert.equal(await verifyPassword("cafe\u0301 au lait!!", stored), true);
  });

  test(
    "hashes run on threads of their own at a lower priority, so requests keep the CPU they need",
    { skip: process.platform !== "linux" && "per-thread priority is Linux's" },
    async () => {
      await hashPassword("on a hash thread");
      const niceOf = (task: string) => {
        const stat = fs.readFileSync(`/proc/self/task/${task}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]); // field 19, nice
      };
      const nices = fs.readdirSync("/proc/self/task").map(niceOf);
      assert.equal(niceOf(String(process.pid)), 0, "the main thread keeps its priority");
      assert.ok(nices.includes(HASH_THREAD_NICE), `threads' nice values: ${nices.join(" ")}`);
    },
  );

  test("a stored value this code did not write, or with absurd parameters, never verifies", async () => {
    for (const stored of [
      "",
      "plain",
      "bcrypt$2b$10$abc",
      "scrypt$1048577$8$1$c2FsdA$aGFzaA",
      "scrypt$3$8$1$c2FsdA$aGFzaA",
      "scrypt$16384$64$1$c2FsdA$aGFzaA",
    ]) {
      assert.equal(await verifyPassword("anything", stored), false, stored);
    }
  });
});

describe("sign-in and the lockout", () => {
  const password = "a long enough password";
  let email: string;
  let counter = 0;
  const fresh = async () => {
    email = `member${++counter}@animal-store.example`;
    await createStaff(email, password);
  };
  // The lock of the email from the address these tests sign in from (signIn's default, as in-process).
  const state = async () => {
    const pair = await db().signInLock.findUniqueOrThrow({
      where: { email_address: { email, address: UNKNOWN_ADDRESS } },
      select: { failures: true, lockedUntil: true },
    });
    return {
      failedSignIns: pair.failures,
      lockedUntil: pair.lockedUntil === null ? null : new Date(Number(pair.lockedUntil)),
    };
  };

  test("the right password signs in, whatever the case of the email", async () => {
    await fresh();
    assert.deepEqual(await signIn(email.toUpperCase(), password), {
      id: (await db().staff.findUniqueOrThrow({ where: { email } })).id,
      email,
      role: "staff",
    });
  });

  test("an unknown email, a wrong password and a disabled account look the same: undefined", async () => {
    await fresh();
    assert.equal(await signIn("nobody@animal-store.example", password), undefined);
    assert.equal(await signIn("not an email", password), undefined);
    assert.equal(await signIn(email, "wrong password"), undefined);
    await disableStaff(email);
    assert.equal(await signIn(email, password), undefined);
  });

  // Counted, not timed: the answer takes as long because the same work is done, one scrypt hash with the
  // stored hashes' parameters. (Timing the two on a shared 2-core machine measured the machine as much.)
  test("an unknown email costs a password hash too, so timing does not tell", async () => {
    await fresh();
    await signIn("warm-up@animal-store.example", password); // the decoy hash is made once
    assert.equal(await hashesDuring(() => signIn("nobody@animal-store.example", password)), 1, "an unknown email");
    assert.equal(await hashesDuring(() => signIn("not an email", password)), 1, "not an email");
    assert.equal(await hashesDuring(() => signIn(email, "wrong password")), 1, "a wrong password");
    const [decoyParameters, storedParameters] = [await decoyHash(), await hashPassword(password)].map((stored) =>
      stored.split("$").slice(0, 4).join("$"),
    );
    assert.equal(decoyParameters, storedParameters, "the decoy is hashed as a staff member's password is");
  });

  test(
    `${FREE_FAILURES} failures lock the account; ` +
      "while locked even the right password is refused, and tries do not count",
    async () => {
      await fresh();
      const now = new Date("2030-01-01T00:00:00Z");
      for (let failure = 1; failure < FREE_FAILURES; failure++)
        assert.equal(await signIn(email, "wrong", now), undefined);
      assert.deepEqual(await state(), { failedSignIns: FREE_FAILURES - 1, lockedUntil: null });
      assert.equal(await signIn(email, "wrong", now), undefined);
      assert.deepEqual(await state(), { failedSignIns: FREE_FAILURES, lockedUntil: new Date(now.getTime() + 60_000) });

      const during = new Date(now.getTime() + 30_000);
      assert.equal(await signIn(email, password, during), undefined, "the right password while locked");
      assert.equal(await signIn(email, "wrong", during), undefined);
      assert.equal((await state()).failedSignIns, FREE_FAILURES, "attempts while locked are not counted");

      // After the lock, one more failure locks for twice as long; a success clears everything.
      const later = new Date(now.getTime() + 61_000);
      assert.equal(await signIn(email, "wrong", later), undefined);
      assert.deepEqual(await state(), {
        failedSignIns: FREE_FAILURES + 1,
        lockedUntil: new Date(later.getTime() + 120_000),
      });
      const afterSecondLock = new Date(later.getTime() + 121_000);
      assert.ok(await signIn(email, password, afterSecondLock));
      assert.deepEqual(await state(), { failedSignIns: 0, lockedUntil: null });
    },
  );

  test("the lock doubles with each failure past the free ones, up to an hour", () => {
    assert.deepEqual(
      [0, 4, 5, 6, 7, 10, 11, 12, 50].map((failures) => lockDuration(failures) / 60_000),
      [0, 0, 1, 2, 4, 32, 60, 60, 60],
    );
  });

  test(
    "concurrent failures are all counted: " + "an atomic increment in the database, shared by every instance",
    async () => {
      await fresh();
      await Promise.all(Array.from({ length: 3 }, () => signIn(email, "wrong")));
      assert.equal((await state()).failedSignIns, 3);
    },
  );

  test("a burst of attempts cannot slip the right password past a lock set during the burst", async () => {
    await fresh();
    // One failure short of the lock, then a burst as large as the hashes the process lets run or wait
    // (a larger one is partly refused with 429 before hashing): the wrong passwords first, the right last.
    for (let failure = 1; failure < FREE_FAILURES; failure++) await signIn(email, "wrong");
    const burst = throttle.MAX_CONCURRENT_HASHES + throttle.MAX_WAITING_HASHES;
    const attempts = [...Array.from({ length: burst - 1 }, () => signIn(email, "wrong")), signIn(email, password)];
    const results = await Promise.all(attempts);
    const state_ = await state();
    assert.ok(state_.lockedUntil && state_.lockedUntil > new Date(), "the burst locked the account");
    assert.equal(results[burst - 1], undefined, "the right password inside the burst is refused once the lock is set");
  });

  test("an email is refused twice and must be an address", async () => {
    await fresh();
    // StaffError became Refusal (decision 012): the code says which refusal, as the class did.
    await assert.rejects(
      createStaff(email.toUpperCase(), password),
      (error) => error instanceof Refusal && error.code === "staff_exists",
    );
    await assert.rejects(
      createStaff("not-an-email", password),
      (error) => error instanceof Refusal && error.code === "invalid_body",
    );
  });
});

describe("the sign-in limits, before any hash", () => {
  const password = "a long enough password";
  let counter = 0;
  const newStaff = async () => {
    const email = `limited${++counter}@animal-store.example`;
    await createStaff(email, password);
    return email;
  };
  /** Each test plays its own addresses, so no test uses up another's allowance. */
  const address = (() => {
    let next = 0;
    return () => `203.0.113.${++next}`;
  })();
  /** The 429 a call must throw: sign_in_throttled, with Retry-After in whole seconds. */
  const throttledError = (retryAfter?: (seconds: number) => boolean) => (error: unknown) => {
    assert.ok(error instanceof Refusal, String(error));
    assert.equal(error.code, "sign_in_throttled");
    assert.equal(error.status, 429);
    const seconds = Number(error.headers["Retry-After"]);
    assert.ok(Number.isInteger(seconds) && seconds >= 1, `Retry-After ${error.headers["Retry-After"]}`);
    if (retryAfter) assert.ok(retryAfter(seconds), `Retry-After ${seconds}`);
    assert.match(error.message, /Try again in (a second|\d+ seconds|a minute|\d+ minutes)\.$/);
    return true;
  };

  before(async () => {
    await decoyHash(); // made once per process: not counted in what follows
  });

  test("a stranger's failures lock only the stranger's address; from another, the password signs in", async () => {
    const email = await newStaff();
    const [stranger, staffMember] = [address(), address()];
    for (let failure = 0; failure < FREE_FAILURES; failure++)
      assert.equal(await signInFrom(stranger, email, "a wrong password!"), undefined);
    await assert.rejects(
      signInFrom(stranger, email, password),
      throttledError((seconds) => seconds <= 60),
    );
    assert.deepEqual(await signInFrom(staffMember, email, password), {
      id: (await db().staff.findUniqueOrThrow({ where: { email } })).id,
      email,
      role: "staff",
    });
    await assert.rejects(signInFrom(stranger, email, password), throttledError(), "still locked for the stranger");
    const listed = (await listStaff()).find((member) => member.email === email);
    assert.equal(listed?.lockedAddresses, 1);
  });

  test("a locked address is refused without hashing, for an account and for an unknown email alike", async () => {
    const email = await newStaff();
    const from = address();
    for (const typed of [email, "nobody-here@animal-store.example"]) {
      for (let failure = 0; failure < FREE_FAILURES; failure++) await signInFrom(from, typed, "a wrong password!");
      const hashes = await hashesDuring(async () => {
        for (let attempt = 0; attempt < 3; attempt++)
          await assert.rejects(
            signInFrom(from, typed, password),
            throttledError((seconds) => seconds <= 60),
          );
        assert.equal(await signIn(typed, password, new Date(), from), undefined, "signIn alone refuses it too");
      });
      assert.equal(hashes, 0, typed);
    }
  });

  test(
    `past ${throttle.ADDRESS_LIMIT} attempts in a window, an address gets 429 at once, ` +
      "for any email, without a hash",
    async () => {
      const email = await newStaff();
      const from = address();
      // Five failures lock the pair; the attempts it refuses still count towards the address's limit.
      for (let failure = 0; failure < FREE_FAILURES; failure++) await signInFrom(from, email, "a wrong password!");
      for (let attempt = FREE_FAILURES; attempt < throttle.ADDRESS_LIMIT; attempt++)
        await assert.rejects(signInFrom(from, email, password), throttledError());
      const hashes = await hashesDuring(async () => {
        for (let attempt = 0; attempt < 50; attempt++)
          await assert.rejects(
            signInFrom(from, `someone${attempt}@animal-store.example`, password),
            throttledError((seconds) => seconds <= throttle.WINDOW_SECONDS),
          );
      });
      assert.equal(hashes, 0, "50 refused attempts, not one hash");
      assert.ok(await signInFrom(address(), email, password), "another address is not affected");
    },
  );

  test("a successful sign-in gives its attempt back: the limits count failures", async () => {
    const email = await newStaff();
    const from = address();
    const counted = async () =>
      (await db().signInThrottle.findMany({ where: { bucket: `address ${from}` }, select: { count: true } })).reduce(
        (sum, row) => sum + row.count,
        0,
      );
    assert.ok(await signInFrom(from, email, password));
    assert.equal(await counted(), 0);
    assert.equal(await signInFrom(from, email, "a wrong password!"), undefined);
    assert.equal(await counted(), 1);
  });

  test(
    "six addresses making twenty attempts each, every one refused by its own lock, count nothing against the " +
      "account: a new address signs in, and so does the staff member's own",
    async () => {
      const email = await newStaff();
      const home = address();
      assert.ok(await signInFrom(home, email, password));
      // Six addresses, each at its own limit: past the account's, had their attempts counted there. Each has
      // already locked itself out (as five failures would, shown above), so its attempts cost no hash each.
      for (let attacker = 0; attacker < 6; attacker++) {
        const from = address();
        await db().signInLock.create({
          data: {
            email,
            address: from,
            failures: FREE_FAILURES,
            lockedUntil: BigInt(Date.now() + 60_000),
            updatedAt: 0n,
          },
        });
        for (let attempt = 0; attempt < throttle.ADDRESS_LIMIT; attempt++)
          await assert.rejects(signInFrom(from, email, "a wrong password!"), throttledError());
        await assert.rejects(signInFrom(from, email, password), throttledError(), "the attacker's own limit");
      }
      const counted = await db().signInThrottle.findMany({ where: { bucket: `account ${email}` } });
      assert.equal(
        counted.reduce((sum, row) => sum + row.count, 0),
        0,
        "refused attempts are not counted",
      );
      const fromNewAddress = address();
      assert.equal(
        await hashesDuring(async () => assert.ok(await signInFrom(fromNewAddress, email, password))),
        1,
        "the staff member signs in from a new address",
      );
      assert.ok(await signInFrom(home, email, password), "the staff member's own address still signs in");
    },
  );

  /** Where ACCOUNT_LIMIT failed checks of `email` from new places in the window of `now` would leave its count. */
  const pastAccountLimit = async (email: string, now: Date) => {
    const windowStart = BigInt(Math.floor(now.getTime() / 1000 / throttle.WINDOW_SECONDS) * throttle.WINDOW_SECONDS);
    const bucket = `account ${email}`;
    await db().signInThrottle.upsert({
      where: { bucket_windowStart: { bucket, windowStart } },
      create: { bucket, windowStart, count: throttle.ACCOUNT_LIMIT },
      update: { count: throttle.ACCOUNT_LIMIT },
    });
  };

  test(
    `past ${throttle.ACCOUNT_LIMIT} failed checks from new places, an account is slowed, not closed: ` +
      "each new address gets one try, one that failed is refused without a hash until the window ends",
    async () => {
      const email = await newStaff();
      const now = new Date("2031-03-01T00:05:00Z"); // 10 minutes before its window ends
      const [home, failed, fresh, burst] = [address(), address(), address(), address()];
      assert.ok(await signInFrom(home, email, password, now));
      await pastAccountLimit(email, now);

      assert.equal(await signInFrom(failed, email, "a wrong password!", now), undefined, "its one try is checked");
      const newPlaces = (error: unknown) => {
        throttledError((seconds) => seconds === 10 * 60)(error);
        assert.match((error as Error).message, /for this account from new places/);
        return true;
      };
      const refusals = await hashesDuring(async () => {
        await assert.rejects(signInFrom(failed, email, password, now), newPlaces, "even the right password");
        await assert.rejects(signInFrom(failed, email, "a wrong password!", now), newPlaces);
      });
      assert.equal(refusals, 0, "refused without a hash");

      assert.ok(await signInFrom(fresh, email, password, now), "the staff member signs in from a new address");
      const outcomes = await Promise.allSettled(
        Array.from({ length: 3 }, () => signInFrom(burst, email, "a wrong password!", now)),
      );
      assert.equal(outcomes.filter((outcome) => outcome.status === "fulfilled").length, 1, "a burst gets one try");
      for (const outcome of outcomes) if (outcome.status === "rejected") newPlaces(outcome.reason);

      assert.equal(await signInFrom(home, email, "a wrong password!", now), undefined);
      assert.ok(await signInFrom(home, email, password, now), "a known address is never slowed");
      assert.equal((await listStaff(now)).find((member) => member.email === email)?.lockedAddresses, 2);

      const nextWindow = new Date(now.getTime() + 10 * 60_000);
      assert.ok(await signInFrom(failed, email, password, nextWindow), "the refusal ends with the window");
    },
  );

  test("past the account's limit, an IPv6 /48 gets one try between all its /64s", async () => {
    const email = await newStaff();
    const now = new Date("2031-03-01T01:05:00Z");
    await pastAccountLimit(email, now);
    assert.equal(await signInFrom("2001:db8:48:1::7", email, "a wrong password!", now), undefined, "the /48's try");
    await assert.rejects(signInFrom("2001:db8:48:2::7", email, password, now), throttledError());
    await assert.rejects(signInFrom("2001:db8:48:ffff:1:2:3:4", email, password, now), throttledError());
    assert.ok(await signInFrom("2001:db8:49:1::7", email, password, now), "another /48 has its own try");
    assert.deepEqual(
      ["2001:db8:48:1::7", "2001:0db8:0048:00ff::", "2001:db8:48::1", "203.0.113.9"].map(throttle.tryUnit),
      ["2001:db8:48::/48", "2001:db8:48::/48", "2001:db8:48::/48", "203.0.113.9"],
    );
  });

  test("unlock clears every count that refuses the account, says what it cleared, and records it", async () => {
    const email = await newStaff();
    const now = new Date("2031-03-02T00:00:00Z");
    const [locked, failedOnce] = [address(), address()];
    for (let failure = 0; failure < FREE_FAILURES; failure++)
      assert.equal(await signInFrom(locked, email, "a wrong password!", now), undefined);
    await pastAccountLimit(email, now);
    assert.equal(await signInFrom(failedOnce, email, "a wrong password!", now), undefined);
    for (const from of [locked, failedOnce])
      await assert.rejects(signInFrom(from, email, password, now), throttledError());

    const unlocked = await unlockStaff(email, { now });
    assert.ok(unlocked.changed);
    assert.deepEqual(unlocked.cleared, {
      lockedAddresses: 2,
      failedAddresses: 2,
      accountAttempts: throttle.ACCOUNT_LIMIT + 2, // failedOnce's failure, then its refused right password
    });
    assert.equal(unlocked.unlockedAddresses, 2);
    assert.equal(unlocked.staff.failedSignIns, 0);
    assert.equal(await db().signInThrottle.count({ where: { bucket: { startsWith: `account ${email}` } } }), 0);
    const record = await db().auditEvent.findFirstOrThrow({
      where: { action: "staff.unlocked", targetLabel: email },
      select: { actorType: true, details: true },
    });
    assert.equal(record.actorType, "cli");
    assert.deepEqual(JSON.parse(record.details ?? "null"), {
      lockedAddresses: 2,
      failedAddresses: 2,
      accountAttempts: throttle.ACCOUNT_LIMIT + 2,
      failedSignIns: FREE_FAILURES + 1,
    });

    for (const from of [locked, failedOnce])
      assert.ok(await signInFrom(from, email, password, now), `${from} signs in at once`);
    const again = await unlockStaff(email, { now });
    assert.equal(again.changed, false, "nothing left to clear");
  });

  test(
    `at most ${throttle.MAX_CONCURRENT_HASHES} hashes at once: ` +
      `40 sign-ins from 40 addresses at once, ${throttle.MAX_WAITING_HASHES} wait and the rest get 429 at once`,
    async () => {
      const email = await newStaff();
      scryptActivity.peak = scryptActivity.running;
      const started = scryptActivity.started;
      const outcomes = await Promise.allSettled(
        Array.from({ length: 40 }, () => signInFrom(address(), email, "a wrong password!")),
      );
      const refused = outcomes.filter((outcome) => outcome.status === "rejected");
      const answered = outcomes.filter((outcome) => outcome.status === "fulfilled");
      for (const outcome of refused) throttledError((seconds) => seconds === 1)(outcome.reason);
      for (const outcome of answered) assert.equal(outcome.value, undefined);
      assert.ok(refused.length > 0, "some are refused");
      assert.ok(answered.length <= throttle.MAX_CONCURRENT_HASHES + throttle.MAX_WAITING_HASHES);
      assert.equal(
        scryptActivity.started - started,
        answered.length,
        "one hash per checked attempt, none for refusals",
      );
      assert.ok(scryptActivity.peak <= throttle.MAX_CONCURRENT_HASHES, `${scryptActivity.peak} hashes ran at once`);
    },
  );

  test("housekeeping drops ended windows and quiet failures, and keeps known addresses for a while", async () => {
    const email = await newStaff();
    const [failed, known] = [address(), address()];
    const longAgo = new Date(Date.now() - 2 * 24 * 60 * 60_000);
    await signInFrom(failed, email, "a wrong password!", longAgo);
    assert.ok(await signInFrom(known, email, password, longAgo));
    await runHousekeeping();
    const pairs = await db().signInLock.findMany({ where: { email }, select: { address: true } });
    assert.deepEqual(
      pairs.map((pair) => pair.address),
      [known],
    );
    const oldWindow = BigInt(Math.floor(longAgo.getTime() / 1000 / throttle.WINDOW_SECONDS) * throttle.WINDOW_SECONDS);
    assert.equal(await db().signInThrottle.count({ where: { windowStart: { lte: oldWindow } } }), 0);
  });
});

describe("sessions", () => {
  let staffId: number;
  before(async () => {
    staffId = (await createStaff("sessions@animal-store.example", "a long enough password")).id;
  });

  test("a session names its staff member until it expires, and only the token's hash is stored", async () => {
    const now = new Date();
    const { token, expiresAt } = await startSession(staffId, now);
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(expiresAt.getTime(), now.getTime() + SESSION_LIFETIME_MS);
    assert.deepEqual(await sessionStaff(token, now), {
      id: staffId,
      email: "sessions@animal-store.example",
      role: "staff",
    });
    assert.equal(await sessionStaff(token, new Date(expiresAt.getTime() + 1)), undefined);
    const rows = await db().staffSession.findMany({ select: { id: true } });
    assert.ok(rows.every((row) => /^[0-9a-f]{64}$/.test(row.id) && row.id !== token));
  });

  test("ending a session makes its token worthless; unknown and malformed tokens are nobody", async () => {
    const { token } = await startSession(staffId);
    await endSession(token);
    assert.equal(await sessionStaff(token), undefined);
    for (const bad of [undefined, "", "x", "A".repeat(43), `${token}x`, "../etc/passwd"])
      assert.equal(await sessionStaff(bad), undefined, String(bad));
  });

  test("disabling an account ends its sessions", async () => {
    const other = await createStaff("leaver@animal-store.example", "a long enough password");
    const { token } = await startSession(other.id);
    assert.ok(await sessionStaff(token));
    const disabled = await disableStaff("leaver@animal-store.example");
    assert.ok(disabled.changed);
    assert.equal(disabled.endedSessions, 1);
    assert.equal(await sessionStaff(token), undefined);
  });
});
