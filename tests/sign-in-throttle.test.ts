import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { call, type Reply } from "@/scripts/harness/http";
import {
  createStaff,
  createTestDatabase,
  startServer,
  testProviders,
  type RunningServer,
  type TestDatabase,
} from "@/scripts/harness/servers";

// The sign-in limits over HTTP, on both databases: two instances of the production server (server.ts)
// behind a trusted proxy (TRUSTED_PROXIES=127.0.0.1, so X-Forwarded-For plays the client's address)
// share every count and lock; a third, trusting no proxy, ignores the header. That refusals cost no
// hash, and that no more than two hashes run at once, is counted in-process by tests/staff.test.ts.

const providers = await testProviders();
const STAFF = { email: "throttled@animal-store.example", password: "the staff member's password" };
const FREE_FAILURES = 5;
const ADDRESS_LIMIT = 20;

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
      database = await createTestDatabase(provider);
      await createStaff(database.url, STAFF.email, STAFF.password); // migrates the fresh database first
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
  });
}
