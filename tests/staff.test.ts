import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

// Staff accounts in-process, on a fresh SQLite file: password hashing, the lockout, sessions.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "animal-store-staff-"));
process.env.DATABASE_URL = `file:${path.join(dir, "staff.db")}`; // read on first use of the database, below

const { config } = await import("@/lib/config");
const { db } = await import("@/lib/db/client");
const { migrate } = await import("@/lib/db/migrate");
const { hashPassword, verifyPassword } = await import("@/lib/auth/passwords");
const { createStaff, disableStaff, FREE_FAILURES, lockDuration, signIn, StaffError } = await import("@/lib/auth/staff");
const { endSession, SESSION_LIFETIME_MS, sessionStaff, startSession } = await import("@/lib/auth/sessions");

before(async () => {
  await migrate(config().database);
});

after(async () => {
  await db().$disconnect();
  fs.rmSync(dir, { recursive: true, force: true });
});

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
  const state = () =>
    db().staff.findUniqueOrThrow({ where: { email }, select: { failedSignIns: true, lockedUntil: true } });

  test("the right password signs in, whatever the case of the email", async () => {
    await fresh();
    assert.deepEqual(await signIn(email.toUpperCase(), password), {
      id: (await db().staff.findUniqueOrThrow({ where: { email } })).id,
      email,
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

  test("an unknown email costs a password hash too, so timing does not tell", async () => {
    await fresh();
    const time = async (work: () => Promise<unknown>) => {
      const start = performance.now();
      await work();
      return performance.now() - start;
    };
    await signIn("warm-up@animal-store.example", password); // the decoy hash is made once
    const unknown = await time(() => signIn("nobody@animal-store.example", password));
    const wrong = await time(() => signIn(email, "wrong password"));
    assert.ok(
      unknown > wrong / 3 && wrong > unknown / 3,
      `unknown ${unknown.toFixed(0)} ms, wrong ${wrong.toFixed(0)} ms`,
    );
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
    const attempts = [...Array.from({ length: 12 }, () => signIn(email, "wrong")), signIn(email, password)];
    const results = await Promise.all(attempts);
    const state_ = await state();
    assert.ok(state_.lockedUntil && state_.lockedUntil > new Date(), "the burst locked the account");
    assert.equal(results[12], undefined, "the right password inside the burst is refused once the lock is set");
  });

  test("an email is refused twice and must be an address", async () => {
    await fresh();
    await assert.rejects(createStaff(email.toUpperCase(), password), StaffError);
    await assert.rejects(createStaff("not-an-email", password), StaffError);
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
    assert.deepEqual(await sessionStaff(token, now), { id: staffId, email: "sessions@animal-store.example" });
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
    assert.equal(disabled?.endedSessions, 1);
    assert.equal(await sessionStaff(token), undefined);
  });
});
