import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import Database from "better-sqlite3";
import pg from "pg";
import { databaseConfig } from "@/lib/config";
import { call, type Reply } from "@/scripts/harness/http";
import {
  runScript,
  startServer,
  testProviders,
  type RunningServer,
  type TestDatabase,
  createMigratedDatabase,
} from "@/scripts/harness/servers";
import { createStaff } from "@/scripts/harness/fixtures";

// The sign-in limits over HTTP, on both databases: two instances of the production server (server.ts)
// behind a trusted proxy (TRUSTED_PROXIES=127.0.0.1, so X-Forwarded-For plays the client's address)
// share every count and lock; a third, trusting no proxy, ignores the header. That refusals cost no
// hash, and that no more than two hashes run at once, is counted in-process by tests/staff.test.ts.

const providers = await testProviders();
const STAFF = { email: "throttled@animal-store.example", password: "the staff member's password" };
const ADMIN = { email: "throttle-admin@animal-store.example", password: "the admin's long password" };
const SPREAD = { email: "spread@animal-store.example", password: "the spread-out owner's password" };
const UNLOCKED = { email: "unlocked@animal-store.example", password: "the unlocked owner's password" };
const TOOL_UNLOCKED = { email: "tool-unlocked@animal-store.example", password: "the tool's owner's password" };
const FREE_FAILURES = 5;
const ADDRESS_LIMIT = 20;
const ACCOUNT_LIMIT = 100;
const WINDOW_SECONDS = 15 * 60;

/**
 * Sets an email's count of attempts from new places, in this window and the next, to `count`: where ACCOUNT_LIMIT
 * failed password checks would leave it, without the 100 scrypt hashes (most of a minute on two cores).
 */
async function setAccountCount(database: TestDatabase, email: string, count: number): Promise<void> {
  const windowStart = Math.floor(Date.now() / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS;
  const sql = (p: (n: number) => string) =>
    `INSERT INTO sign_in_throttles (bucket, window_start, count) VALUES (${p(1)}, ${p(2)}, ${p(3)}) ` +
    "ON CONFLICT (bucket, window_start) DO UPDATE SET count = excluded.count";
  for (const start of [windowStart, windowStart + WINDOW_SECONDS]) {
    const values = [`account ${email}`, start, count];
    if (database.provider === "sqlite") {
      const config = databaseConfig(database.url);
      const file = new Database(config.provider === "sqlite" ? config.file : "");
      try {
        file.prepare(sql(() => "?")).run(...values);
      } finally {
        file.close();
      }
    } else {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        await client.query(
          sql((n) => `$${n}`),
          values,
        );
      } finally {
        await client.end();
      }
    }
  }
}

/**
 * Waits for the next window when this one ends within `seconds`. The limits count in fixed windows, so attempts that
 * straddle a window's end are two counts, neither past its limit; a test that counts up to a limit starts with room.
 */
async function untilWindowLasts(seconds: number): Promise<void> {
  const left = WINDOW_SECONDS - ((Date.now() / 1000) % WINDOW_SECONDS);
  if (left < seconds) await new Promise((resolve) => setTimeout(resolve, (left + 0.2) * 1000));
}

function assertThrottled(reply: Reply, retryAfter: (seconds: number) => boolean, message: RegExp) {
  assert.equal(reply.status, 429, reply.text);
  assert.match(reply.headers.get("content-type") ?? "", /^application\/json/);
  assert.equal(reply.body.code, "sign_in_throttled", reply.text);
  assert.equal(reply.body.status, 429n);
  assert.match(reply.body.message, message);
  assert.match(reply.body.message, /Try again in (a second|\d+ seconds|a minute|\d+ minutes)\.$/);
  const seconds = Number(reply.headers.get("retry-after"));
  assert.ok(Number.isInteger(seconds) && retryAfter(seconds), `Retry-After: ${reply.headers.get("retry-after")}`);
  assert.ok(reply.headers.get("x-request-id"));
  assert.equal(reply.headers.get("set-cookie"), null);
}

function assertRefused(reply: Reply) {
  assert.equal(reply.status, 401, reply.text);
  assert.equal(reply.body.code, "invalid_credentials");
}

for (const provider of providers) {
  describe(`sign-in limits over HTTP on ${provider}`, () => {
    let database: TestDatabase;
    let first: RunningServer;
    let second: RunningServer;
    let untrusting: RunningServer;
    const signIn = (server: RunningServer, from: string | undefined, email: string, password: string) =>
      call(server.baseUrl, "POST", "/admin/api/session", {
        body: { email, password },
        headers: { Origin: server.baseUrl, ...(from ? { "X-Forwarded-For": from } : {}) },
      });

    before(async () => {
      database = await createMigratedDatabase(provider);
      await createStaff(database.url, STAFF.email, STAFF.password);
      for (const account of [SPREAD, UNLOCKED, TOOL_UNLOCKED])
        await createStaff(database.url, account.email, account.password);
      await createStaff(database.url, ADMIN.email, ADMIN.password, "admin");
      first = await startServer("custom", database.url, { TRUSTED_PROXIES: "127.0.0.1" });
      second = await startServer("custom", database.url, { TRUSTED_PROXIES: "127.0.0.1" });
      untrusting = await startServer("custom", database.url);
    });

    after(async () => {
      await Promise.all([first?.stop(), second?.stop(), untrusting?.stop()]);
      await database?.drop();
    });

    test("a stranger cannot lock a staff member out from another address, on any instance", async () => {
      const stranger = "198.51.100.7";
      for (let failure = 0; failure < FREE_FAILURES; failure++)
        assertRefused(await signIn(failure % 2 ? second : first, stranger, STAFF.email, "a guessed password"));
      const locked = /Too many failed sign-ins for this account from your network\./;
      assertThrottled(await signIn(first, stranger, STAFF.email, "a guessed password"), (s) => s <= 60, locked);
      assertThrottled(await signIn(second, stranger, STAFF.email, STAFF.password), (s) => s <= 60, locked);

      const staffMember = await signIn(second, "198.51.100.8", STAFF.email, STAFF.password);
      assert.equal(staffMember.status, 200, staffMember.text);
      assert.match(staffMember.headers.get("set-cookie") ?? "", /animal_store_session=/);
    });

    test(`past ${ADDRESS_LIMIT} attempts an address gets 429 for any email, even with the right password`, async () => {
      await untilWindowLasts(60); // the test takes about 12 s on a loaded machine
      const from = "198.51.100.9";
      for (let failure = 0; failure < FREE_FAILURES; failure++)
        assertRefused(await signIn(first, from, "nobody@animal-store.example", "a guessed password"));
      // The locked pair's refusals are counted too.
      for (let attempt = FREE_FAILURES; attempt < ADDRESS_LIMIT; attempt++)
        assertThrottled(
          await signIn(attempt % 2 ? second : first, from, "nobody@animal-store.example", "a guessed password"),
          (s) => s <= 60,
          /for this account from your network/,
        );
      for (const server of [first, second, first])
        for (const [email, password] of [
          ["somebody@animal-store.example", "a guessed password"],
          [STAFF.email, STAFF.password],
        ])
          assertThrottled(
            await signIn(server, from, email, password),
            (s) => s <= 15 * 60,
            /^Too many sign-in attempts from your network\./,
          );
      assert.equal((await signIn(first, "198.51.100.10", STAFF.email, STAFF.password)).status, 200);
    });

    test("40 sign-ins at once from 40 addresses: past the hash queue, 429 at once with Retry-After: 1", async () => {
      const answers: { reply: Reply; order: number }[] = [];
      let answered = 0;
      await Promise.all(
        Array.from({ length: 40 }, async (_, index) => {
          const reply = await signIn(first, `192.0.2.${index + 1}`, `guess${index}@animal-store.example`, "a guess");
          answers.push({ reply, order: answered++ });
        }),
      );
      const refused = answers.filter(({ reply }) => reply.status === 429);
      const checked = answers.filter(({ reply }) => reply.status !== 429);
      for (const { reply } of checked) assertRefused(reply);
      for (const { reply } of refused)
        assertThrottled(reply, (s) => s === 1, /^The server is checking too many sign-ins at once\./);
      assert.ok(refused.length > 0, "some are refused");
      assert.ok(checked.length >= 2, "the first ones are checked");
      const lastChecked = Math.max(...checked.map(({ order }) => order));
      assert.ok(
        refused.every(({ order }) => order < lastChecked),
        "the refused ones did not wait for hashes: all were answered before the last checked one",
      );
    });

    test("without TRUSTED_PROXIES, X-Forwarded-For is ignored: every attempt is the socket's address", async () => {
      const email = "forwarded@animal-store.example";
      for (let failure = 0; failure < FREE_FAILURES; failure++)
        assertRefused(await signIn(untrusting, `198.51.100.${20 + failure}`, email, "a guessed password"));
      assertThrottled(
        await signIn(untrusting, "198.51.100.30", email, "a guessed password"),
        (s) => s <= 60,
        /for this account from your network/,
      );
      assertThrottled(
        await signIn(untrusting, undefined, email, "a guessed password"),
        (s) => s <= 60,
        /for this account from your network/,
      );
      // Behind the trusted proxy, the same header names another address, which nothing has locked.
      assertRefused(await signIn(first, "198.51.100.30", email, "a guessed password"));
    });

    test(
      "six addresses making twenty wrong guesses each do not lock the staff member out: " +
        "the right password signs in from a new address and from home, and the guessers stay throttled",
      async () => {
        const home = "198.51.100.40";
        assert.equal((await signIn(first, home, SPREAD.email, SPREAD.password)).status, 200);
        const guessers = Array.from({ length: 6 }, (_, index) => `198.51.100.${41 + index}`);
        await Promise.all(
          guessers.map(async (from, index) => {
            let checked = 0;
            for (let guess = 0; guess < ADDRESS_LIMIT; guess++) {
              const reply = await signIn((guess + index) % 2 ? second : first, from, SPREAD.email, `guess ${guess}`);
              if (reply.status === 401) checked++;
              else assert.equal(reply.body.code, "sign_in_throttled", reply.text);
            }
            assert.equal(checked, FREE_FAILURES, `${from}: its own lock stops it after ${FREE_FAILURES} failures`);
          }),
        );

        const fromNewAddress = await signIn(second, "198.51.100.47", SPREAD.email, SPREAD.password);
        assert.equal(fromNewAddress.status, 200, fromNewAddress.text);
        assert.match(fromNewAddress.headers.get("set-cookie") ?? "", /animal_store_session=/);
        const fromHome = await signIn(first, home, SPREAD.email, SPREAD.password);
        assert.equal(fromHome.status, 200, fromHome.text);

        for (const from of guessers)
          for (const server of [first, second])
            assertThrottled(
              await signIn(server, from, SPREAD.email, SPREAD.password),
              (s) => s <= WINDOW_SECONDS,
              // The address's own limit; or, should a window have ended meanwhile, its lock for this account.
              /^Too many (sign-in attempts|failed sign-ins for this account) from your network\./,
            );
      },
    );

    /**
     * Leaves `account` refused from two addresses by the two counts that can refuse it, and returns them: one
     * address locked by its five failures, and one that failed once while the account is past its limit of
     * attempts from new places.
     */
    async function refuseAccount(account: { email: string; password: string }, [locked, failedOnce]: string[]) {
      for (let failure = 0; failure < FREE_FAILURES; failure++)
        assertRefused(await signIn(failure % 2 ? second : first, locked, account.email, "a guessed password"));
      await setAccountCount(database, account.email, ACCOUNT_LIMIT);
      const guess = await signIn(first, failedOnce, account.email, "a mistyped password");
      assert.ok(guess.status === 401 || guess.status === 429, guess.text);
      for (const from of [locked, failedOnce])
        for (const server of [first, second])
          assertThrottled(
            await signIn(server, from, account.email, account.password),
            (s) => s <= WINDOW_SECONDS,
            /^Too many (failed sign-ins|sign-in attempts) for this account/,
          );
      return [locked, failedOnce];
    }

    /** The newest staff.unlocked record, as the activity log shows it to an admin. */
    async function lastUnlockRecord(adminCookie: string) {
      const reply = await call(first.baseUrl, "GET", "/admin/api/activity?action=staff.unlocked&limit=1", {
        headers: { Cookie: adminCookie, "X-Forwarded-For": "198.51.100.90" },
      });
      assert.equal(reply.status, 200, reply.text);
      return reply.body[0];
    }

    async function adminCookie(): Promise<string> {
      const reply = await signIn(first, "198.51.100.90", ADMIN.email, ADMIN.password);
      assert.equal(reply.status, 200, reply.text);
      return reply.headers.get("set-cookie")!.split(";")[0];
    }

    test("Unlock on the Staff page clears every count that refuses the account: it signs in at once", async () => {
      const cookie = await adminCookie();
      const addresses = await refuseAccount(UNLOCKED, ["198.51.100.61", "198.51.100.62"]);
      const listing = await call(first.baseUrl, "GET", "/admin/api/staff", {
        headers: { Cookie: cookie, "X-Forwarded-For": "198.51.100.90" },
      });
      const listed = listing.body.find((item: { email: string }) => item.email === UNLOCKED.email);
      assert.equal(listed.lockedAddresses, 2n, "the Staff page shows both refused addresses, so it offers Unlock");

      const id = listed.id;
      const unlocked = await call(first.baseUrl, "POST", `/admin/api/staff/${id}/unlock`, {
        headers: { Origin: first.baseUrl, Cookie: cookie, "X-Forwarded-For": "198.51.100.90" },
      });
      assert.equal(unlocked.status, 200, unlocked.text);
      for (const [index, from] of addresses.entries()) {
        const reply = await signIn(index % 2 ? first : second, from, UNLOCKED.email, UNLOCKED.password);
        assert.equal(reply.status, 200, `${from}: ${reply.text}`);
      }
      assert.equal(unlocked.body.failedSignIns, 0n);
      assert.equal(unlocked.body.cleared.lockedAddresses, 2n);
      assert.equal(unlocked.body.cleared.failedAddresses, 2n);
      assert.ok(unlocked.body.cleared.accountAttempts > BigInt(ACCOUNT_LIMIT), unlocked.text);

      const record = await lastUnlockRecord(cookie);
      assert.equal(record.actor.label, ADMIN.email);
      assert.deepEqual([record.target.type, record.target.label], ["staff", UNLOCKED.email]);
      assert.equal(record.clientAddress, "198.51.100.90");
      assert.equal(record.details.lockedAddresses, 2n);
    });

    test("`npm run staff -- unlock` clears every count that refuses the account: it signs in at once", async () => {
      const addresses = await refuseAccount(TOOL_UNLOCKED, ["198.51.100.71", "198.51.100.72"]);
      const printed = await runScript("staff.ts", ["unlock", TOOL_UNLOCKED.email], database.url);
      for (const [index, from] of addresses.entries()) {
        const reply = await signIn(index % 2 ? first : second, from, TOOL_UNLOCKED.email, TOOL_UNLOCKED.password);
        assert.equal(reply.status, 200, `${from}: ${reply.text}`);
      }
      const attempts = /; the account's (\d+) attempts from new places in this window are forgotten\.$/m.exec(printed);
      assert.ok(attempts && Number(attempts[1]) > ACCOUNT_LIMIT, printed);
      assert.match(
        printed,
        /^Unlocked tool-unlocked@animal-store\.example: failed sign-ins cleared, 2 locked-out address\(es\) may sign/m,
      );
      const record = await lastUnlockRecord(await adminCookie());
      assert.deepEqual([record.actor.type, record.target.label], ["cli", TOOL_UNLOCKED.email]);
      assert.equal(record.details.lockedAddresses, 2n);
    });
  });
}
