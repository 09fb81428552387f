import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import Database from "better-sqlite3";
import pg from "pg";
import { assertError, call, signInStaff, type Reply } from "@/scripts/harness/http";
import {
  createMigratedDatabase,
  startServer,
  testProviders,
  type RunningServer,
  type TestDatabase,
} from "@/scripts/harness/servers";
import { createKey, createStaff } from "@/scripts/harness/fixtures";

// Issue 20, item 9, over real HTTP against the production server (server.ts) on SQLite and PostgreSQL: names made
// only of invisible or format characters (lib/visible-text.ts) are refused for pets (createPet, updatePet, the CSV
// import's dry run) and categories (add, rename) with a 400 naming `name`; names that were valid stay valid and are
// stored exactly; category names are compared without format characters, so "Dogs" and "Dogs" plus a zero-width
// space are one name; and categories stored before that rule are re-keyed when the server starts, a clash between
// two of them reported in the log, never failing the start.

const ADMIN = { email: "names-admin@animal-store.example", password: "the names admin's password" };
const VISIBLE = "must have a visible character, not only invisible or format characters";
const EMPTY = "must not be empty";

/** Names with nothing to see, each refused with the message given (after "name "). */
const INVISIBLE_NAMES: [string, string, string][] = [
  ["a zero-width space", "\u200B", VISIBLE],
  ["a right-to-left override", "\u202E", VISIBLE],
  ["a soft hyphen", "\u00AD", VISIBLE],
  ["a word joiner", "\u2060", VISIBLE],
  ["zero-width joiners and a non-joiner", "\u200D\u200C\u200D", VISIBLE],
  ["bidirectional marks and isolates", "\u200E\u200F\u2066\u2069", VISIBLE],
  ["an Arabic letter mark", "\u061C", VISIBLE],
  ["a variation selector", "\uFE0F", VISIBLE],
  ["a supplementary variation selector", "\u{E0100}", VISIBLE],
  ["tag characters", "\u{E0041}\u{E0042}\u{E007F}", VISIBLE],
  ["a Hangul filler", "\u3164", VISIBLE],
  ["a Mongolian vowel separator", "\u180E", VISIBLE],
  ["the combining grapheme joiner", "\u034F", VISIBLE],
  ["a braille blank", "\u2800", VISIBLE],
  ["invisible characters among spaces of every width", " \u200B\u00A0\u2060\u3000\u2003 ", VISIBLE],
  ["a byte order mark (trimmed away, so empty)", "\uFEFF", EMPTY],
];

/** Names that were valid and stay valid: stored and answered exactly as sent. */
const VISIBLE_NAMES: [string, string][] = [
  ["plain ASCII", "Rex"],
  ["an emoji", "🐕"],
  ["a ZWJ family sequence", "👩\u200D👩\u200D👧"],
  ["an emoji with a variation selector", "❤\uFE0F"],
  ["a ZWJ flag with a variation selector", "🏳\uFE0F\u200D🌈"],
  ["a tag flag (Scotland)", "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"],
  ["regional indicators", "🇫🇷"],
  ["CJK", "日本の猫"],
  ["a combining accent", "Zoe\u0308"],
  ["a combining mark alone", "\u0301"],
  ["a private-use character", "\uE000"],
  ["Arabic", "قطة"],
  ["Hebrew with a right-to-left mark", "חתול\u200F"],
  ["a visible name with a zero-width space", "Max\u200B"],
  ["a right-to-left override before text", "\u202Eroma"],
  ["a soft hyphen inside a word", "Schnee\u00ADflocke"],
  ["full-width letters", "Ｂｅｌｌａ"],
];

/** JSON with the characters escaped, so what is sent is unmistakable in a failure. */
const jsonBody = (body: unknown) =>
  JSON.stringify(body).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

const providers = await testProviders();

for (const provider of providers) {
  describe(`names with nothing visible on ${provider} (server.ts)`, () => {
    let database: TestDatabase;
    let server: RunningServer;
    let key: string;
    let cookie: string;

    before(async () => {
      database = await createMigratedDatabase(provider);
      await createStaff(database.url, ADMIN.email, ADMIN.password, "admin");
      server = await startServer("custom", database.url);
      key = await createKey(database.url, "for the names test");
      cookie = await signInStaff(server.baseUrl, ADMIN.email, ADMIN.password);
    });

    after(async () => {
      await server?.stop();
      await database?.drop();
    });

    const v1 = (method: string, path: string, body: unknown, contentType = "application/json") =>
      call(server.baseUrl, method, path, { key, body: jsonBody(body), headers: { "Content-Type": contentType } });
    const admin = (method: string, path: string, body: unknown) =>
      call(server.baseUrl, method, path, {
        headers: { Cookie: cookie, Origin: server.baseUrl },
        body: jsonBody(body),
      });
    /** The exact 400 of a refused name: invalid_body, one error naming `name`. */
    const assertNameRefused = (reply: Reply, what: string, message: string) => {
      assertError(reply, 400, "invalid_body", "name");
      assert.deepEqual(reply.body.errors, [{ path: "name", message: `name ${message}` }]);
      assert.equal(reply.body.message, `${what}: name ${message}.`);
    };

    for (const [why, name, message] of INVISIBLE_NAMES) {
      test(`a pet named with ${why}: createPet and updatePet 400 naming name`, async () => {
        assertNameRefused(await v1("POST", "/v1/pets", { name, categoryId: 1 }), "Invalid pet", message);
        const pet = await v1("POST", "/v1/pets", { name: "Placeholder", categoryId: 1 });
        assert.equal(pet.status, 201, pet.text);
        const patch = await v1("PATCH", `/v1/pets/${pet.body.id}`, { name }, "application/merge-patch+json");
        assertNameRefused(patch, "Invalid pet", message);
      });

      test(`a category named with ${why}: add and rename 400 naming name`, async () => {
        assertNameRefused(await admin("POST", "/admin/api/categories", { name }), "Invalid category", message);
        const renamed = await admin("PATCH", "/admin/api/categories/1", { name });
        assertNameRefused(renamed, "Invalid category", message);
      });
    }

    for (const [index, [why, name]] of VISIBLE_NAMES.entries()) {
      test(`${why} stays a valid name: a pet and a category keep it exactly`, async () => {
        const pet = await v1("POST", "/v1/pets", { name, categoryId: 7 });
        assert.equal(pet.status, 201, pet.text);
        assert.equal(pet.body.name, name);
        const fetched = await call(server.baseUrl, "GET", `/v1/pets/${pet.body.id}`, { key });
        assert.equal(fetched.body.name, name);
        const category = await admin("POST", "/admin/api/categories", { id: 1000 + index, name });
        assert.equal(category.status, 201, category.text);
        assert.deepEqual(category.body, { id: BigInt(1000 + index), name });
      });
    }

    test("category names compare without format characters: 409 for each look-alike of Dogs", async () => {
      const dogs = await admin("POST", "/admin/api/categories", { id: 1, name: "Dogs" });
      assert.equal(dogs.status, 201, dogs.text);
      for (const name of ["Dogs\u200B", "D\u00ADogs", "\u2060DOGS", "Dogs\uFE0F", "\u202ADogs\u202C", "\u200Bdogs "]) {
        const reply = await admin("POST", "/admin/api/categories", { name });
        assertError(reply, 409, "category_name_taken", "name");
        assert.match(reply.body.message, /category 1 is called “Dogs”/, jsonBody(name));
      }
      const other = await admin("POST", "/admin/api/categories", { id: 2, name: "Cats" });
      assert.equal(other.status, 201, other.text);
      assertError(await admin("PATCH", "/admin/api/categories/2", { name: "Do\u200Cgs" }), 409, "category_name_taken");
      // A ZWJ sequence and its parts are one name too (as Unicode's NFKC_Casefold and confusable skeletons have it).
      assertError(await admin("POST", "/admin/api/categories", { name: "👩👩👧" }), 409, "category_name_taken");
    });

    test("the CSV import's dry run reports an invisible name in staff words", async () => {
      const csv = "name,categoryId\r\n\u200B\u202E,1\r\nRex,1\r\n\u00AD,2\r\n👩\u200D👩\u200D👧,3\r\n";
      const reply = await call(server.baseUrl, "POST", "/admin/api/pets/imports", {
        headers: { Cookie: cookie, Origin: server.baseUrl, "Content-Type": "text/csv" },
        body: csv,
      });
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.body.valid, 2n);
      assert.deepEqual(reply.body.errors, [
        { line: 2n, column: "name", message: "Enter a name that can be seen: this one has only invisible characters" },
        { line: 4n, column: "name", message: "Enter a name that can be seen: this one has only invisible characters" },
      ]);
    });
  });

  describe(`categories stored before the rule, re-keyed at start-up on ${provider}`, () => {
    let database: TestDatabase;
    let server: RunningServer | undefined;

    before(async () => {
      database = await createMigratedDatabase(provider);
      await createStaff(database.url, ADMIN.email, ADMIN.password, "admin");
      // As the previous version stored them: the key was the trimmed, NFKC-normalised, case-folded name.
      const rows: [number, string][] = [
        [1, "Dogs"],
        [2, "Dogs\u200B"], // one name with 1 under the new key: keeps its old key, reported
        [3, "Cats\u00AD"],
        [4, "\u2060Birds"],
        [5, "Fish"],
      ];
      const oldKey = (name: string) => name.trim().normalize("NFKC").toUpperCase().toLowerCase();
      if (provider === "sqlite") {
        const file = new Database(database.url.replace(/^file:/, ""));
        const insert = file.prepare("INSERT INTO categories (id, name, name_key) VALUES (?, ?, ?)");
        for (const [id, name] of rows) insert.run(id, name, oldKey(name));
        file.close();
      } else {
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        for (const [id, name] of rows)
          await client.query("INSERT INTO categories (id, name, name_key) VALUES ($1, $2, $3)", [
            id,
            name,
            oldKey(name),
          ]);
        await client.end();
      }
    });

    after(async () => {
      await server?.stop();
      await database?.drop();
    });

    test("the server starts, brings the keys up to date, reports the clash, and refuses look-alikes", async () => {
      for (const start of [1, 2]) {
        server = await startServer("custom", database.url);
        const cookie = await signInStaff(server.baseUrl, ADMIN.email, ADMIN.password);
        const add = (name: string) =>
          call(server!.baseUrl, "POST", "/admin/api/categories", {
            headers: { Cookie: cookie, Origin: server!.baseUrl },
            body: jsonBody({ name }),
          });
        for (const [name, holder] of [
          ["Cats", /category 3 is called/],
          ["birds", /category 4 is called/],
          ["DOGS", /category 1 is called/],
          ["Dogs\u200B", /category 1 is called/],
          ["Fish\u00AD", /category 5 is called/],
        ] as const) {
          const reply = await add(name);
          assertError(reply, 409, "category_name_taken", "name");
          assert.match(reply.body.message, holder, `${jsonBody(name)} (start ${start})`);
        }
        const listed = await call(server.baseUrl, "GET", "/v1/categories", {
          key: await createKey(database.url, `start ${start}`),
        });
        assert.deepEqual(
          (listed.body as { id: bigint }[]).map((category) => category.id).sort((a, b) => Number(a - b)),
          [1n, 2n, 3n, 4n, 5n],
        );
        await server.stop();
        const logs = server.logs();
        // Two rows re-keyed the first time (3 and 4), none the second; the clash is reported at each start.
        if (start === 1) assert.match(logs, /"message":"category name keys brought up to date","categories":2/);
        else assert.doesNotMatch(logs, /category name keys brought up to date/);
        assert.match(logs, /"level":"warn","message":"two categories have one name[^"]*","category":\{"id":"2"/);
        server = undefined;
      }
    });
  });
}
