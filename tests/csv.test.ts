import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import { after, before, describe, test } from "node:test";
import { parse } from "csv-parse/sync";
import { summarise } from "@/lib/audit/activity";
import { categoryNameKey } from "@/lib/categories/schema";
import { databaseConfig } from "@/lib/config";
import { CSV_MAX_COLUMN_NAME, CSV_MAX_COLUMNS, CSV_MAX_ROWS, CsvReadError, readCsv } from "@/lib/csv/read";
import { csvField, csvLine } from "@/lib/csv/write";
import { createDatabase, type Database as Client } from "@/lib/db/client";
import { parseJson } from "@/lib/http/json";
import { assertError, call, headOnlyCall, signInStaff, type Reply } from "@/scripts/harness/http";
import {
  createMigratedDatabase,
  startServer,
  testProviders,
  type RunningServer,
  type TestDatabase,
} from "@/scripts/harness/servers";
import { createKey, createStaff } from "@/scripts/harness/fixtures";

// The catalogue's CSV export and import. First the writer and the reader alone, against hostile inputs; then,
// over real HTTP against the production server on SQLite and PostgreSQL: exportPets compared row by row with
// listPets' own pages for every filter, search and order, ids beyond 2^53 digit for digit, its refusals; the
// admin's export of the same view; the import's dry run (lines and columns exact, nothing written), its apply,
// a second apply and two at once creating each row once, a server killed mid-apply then re-applied, the 413,
// the bad-rows download, and the audit records naming the staff member and the import.

const enc = (text: string) => new TextEncoder().encode(text);

describe("the CSV writer", () => {
  const cases: [string | number | bigint | null, string][] = [
    ["Rex", "Rex"],
    ["Tom, the cat", '"Tom, the cat"'],
    ["Zoë; Paris", '"Zoë; Paris"'],
    ['say "hi"', '"say ""hi"""'],
    ["two\r\nlines", '"two\r\nlines"'],
    ['=HYPERLINK("http://evil")', '"\'=HYPERLINK(""http://evil"")"'],
    ["+1", "'+1"],
    ["-1", "'-1"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\t=1", "'\t=1"],
    ["'=x", "''=x"],
    ["''+1", "'''+1"],
    ["'quoted'", "'quoted'"],
    [9223372036854775807n, "9223372036854775807"],
    [-5n, "-5"],
    [null, ""],
  ];
  for (const [value, expected] of cases)
    test(`${JSON.stringify(String(value))} is written ${JSON.stringify(expected)}`, () =>
      assert.equal(csvField(value), expected));

  test("lines end in CRLF; a huge field is written whole", () => {
    const huge = "x".repeat(1_000_000);
    assert.equal(csvLine(["a", huge]), `a,${huge}\r\n`);
  });
});

describe("the CSV reader", () => {
  test("reads what the writer writes, formula neutralising undone, quotes and line breaks kept", () => {
    const names = ["=1+1", "-5 apples", "@home", "+x", 'say "hi"', "a,b;c", "two\r\nlines", "'quoted'", "plain"];
    names.push("'=x", "''-1"); // names that start with the apostrophe itself
    const text = csvLine(["name"]) + names.map((name) => csvLine([name])).join("");
    assert.deepEqual(
      readCsv(enc(text)).records.map((record) => record.fields[0]),
      names,
    );
  });

  test(`at most ${CSV_MAX_ROWS} rows: one more is refused, saying so, before it is checked`, () => {
    const rows = (count: number) => enc(`name\r\n${"a\r\n".repeat(count)}`);
    assert.equal(readCsv(rows(CSV_MAX_ROWS)).records.length, CSV_MAX_ROWS);
    assert.throws(() => readCsv(rows(CSV_MAX_ROWS + 1)), /more than 50,000 rows/);
    assert.throws(() => readCsv(rows(1_000_000)), /more than 50,000 rows/);
  });

  test("a byte order mark is dropped; `;` is detected from the header; CRLF and LF both end lines", () => {
    const table = readCsv(enc('\uFEFFname;categoryId\r\n"Rex, Jr";1\nTom;2\r\n'));
    assert.equal(table.separator, ";");
    assert.deepEqual(table.header, ["name", "categoryId"]);
    assert.deepEqual(
      table.records.map((record) => [record.line, ...record.fields]),
      [
        [2, "Rex, Jr", "1"],
        [3, "Tom", "2"],
      ],
    );
  });

  test("a comma file with semicolons in quoted names stays a comma file", () => {
    assert.equal(readCsv(enc('name,categoryId\r\n"a;b;c",1\r\n')).separator, ",");
    assert.equal(readCsv(enc('"x;y",name,categoryId\r\n')).separator, ",");
  });

  test("each record's line is the line it starts on, past quoted line breaks and blank rows", () => {
    const table = readCsv(enc('name,categoryId\r\n"a\r\nb\r\nc",1\r\n\r\n,\r\nd,2\r\ne,3'));
    assert.deepEqual(
      table.records.map((record) => [record.line, record.fields[0]]),
      [
        [2, "a\r\nb\r\nc"],
        [7, "d"],
        [8, "e"],
      ],
    );
  });

  test("ragged rows are kept as they are", () => {
    const table = readCsv(enc("name,categoryId,status\r\nshort\r\nlong,1,sold,extra\r\n"));
    assert.deepEqual(
      table.records.map((record) => record.fields),
      [["short"], ["long", "1", "sold", "extra"]],
    );
  });

  test(`at most ${CSV_MAX_COLUMNS} fields a row: a wider header or row is refused before it is parsed`, () => {
    const wide = (count: number) => enc(`name${",".repeat(count - 1)}\r\nRex\r\n`);
    assert.equal(readCsv(wide(CSV_MAX_COLUMNS)).header.length, CSV_MAX_COLUMNS);
    assert.throws(() => readCsv(wide(CSV_MAX_COLUMNS + 1)), /line 1 has more than 50 fields/);
    // The review's file: a million commas after the header's names, refused at once.
    const started = performance.now();
    assert.throws(() => readCsv(enc(`name,categoryId${",".repeat(1024 * 1024)}`)), /more than 50 fields/);
    assert.ok(performance.now() - started < 1000);
    assert.throws(
      () => readCsv(enc(`name,categoryId\r\nRex,1\r\nTom,2${",x".repeat(CSV_MAX_COLUMNS)}\r\n`)),
      /line 3 has more than 50 fields/,
    );
    // Separators inside quotes are part of a field, not more fields.
    assert.equal(readCsv(enc(`name\r\n"${",".repeat(1000)}"\r\n`)).records[0].fields[0].length, 1000);
  });

  test(`a column name has at most ${CSV_MAX_COLUMN_NAME} characters; a field, as many as the caller allows`, () => {
    const named = (length: number) => enc(`${"n".repeat(length)},categoryId\r\nRex,1\r\n`);
    assert.equal(readCsv(named(CSV_MAX_COLUMN_NAME)).header[0].length, CSV_MAX_COLUMN_NAME);
    assert.throws(() => readCsv(named(CSV_MAX_COLUMN_NAME + 1)), /column name longer than 100 characters/);
    const row = (length: number) => enc(`name\r\nRex\r\n"${"y".repeat(length)}"\r\n`);
    assert.equal(readCsv(row(500), { fieldLength: 500 }).records[1].fields[0].length, 500);
    assert.throws(() => readCsv(row(501), { fieldLength: 500 }), /line 3 has a field longer than 500 characters/);
  });

  test("a CSV error quoting the file is cut short", () => {
    assert.throws(
      () => readCsv(enc(`name\r\nR${"x".repeat(5000)}"\r\n`)),
      (error) => error instanceof CsvReadError && error.message.length < 400,
    );
  });

  test("a huge field is read whole", () => {
    const huge = "y".repeat(2_000_000);
    assert.equal(readCsv(enc(`name\r\n"${huge}"\r\n`)).records[0].fields[0], huge);
  });

  const refusals: [string, Uint8Array, RegExp][] = [
    ["an empty file", enc(""), /empty/],
    ["only blank lines", enc("\r\n\r\n"), /empty/],
    ["Latin-1 bytes", Uint8Array.from([0x6e, 0x61, 0x6d, 0x65, 0x0d, 0x0a, 0x5a, 0x6f, 0xeb]), /not UTF-8/],
    ["an unclosed quote", enc('name\r\n"Rex\r\n'), /not valid CSV/],
    ["a stray quote in an unquoted field", enc('name\r\nR"ex\r\n'), /not valid CSV/],
    ["a blank first line", enc("\r\nname\r\nRex\r\n"), /header/],
  ];
  for (const [what, bytes, message] of refusals)
    test(`refuses ${what}`, () =>
      assert.throws(
        () => readCsv(bytes),
        (error) => error instanceof CsvReadError && message.test(error.message),
      ));
});

test("the activity log says which import and line added a pet", () => {
  const summary = summarise({
    id: "1",
    at: new Date().toISOString(),
    actor: { type: "staff", id: 3, label: "ana@animal-store.example" },
    action: "pet.created",
    target: { type: "pet", id: "41", label: "Rex" },
    details: { after: { id: 41n, name: "Rex", categoryId: 1n }, via: { import: "3f2c", line: 7n } },
    clientAddress: null,
    requestId: null,
  });
  assert.equal(summary, "ana@animal-store.example added Rex (#41) from import 3f2c, line 7");
});

const STAFF = { email: "csv.staff@animal-store.example", password: "a csv staff password" };
const BEYOND_2_53 = 9007199254740993n; // 2^53 + 1: a double would read it as 2^53
const INT64_MAX = 9223372036854775807n;

/** Pets named to trouble a CSV writer, a spreadsheet and a search. */
const NAMES = [
  "Rex",
  "=1+1",
  "Tom, the cat",
  'Biscuit "Bis" Jones',
  "Zoë; Paris",
  "-5 apples",
  "@home",
  "+44 parrot",
  "rex junior",
  "Émile",
  "  spaced  ",
  "Biscuit",
];
const STATUSES = ["available", "pending", "sold", undefined] as const;
/** Names of two of the category ids the pets carry (0 stays unnamed); one needs quoting. */
const CATEGORY_NAMES = new Map([
  ["1", "Dogs"],
  ["2", "Cats, big and small"],
]);

type ExportRow = { id: string; name: string; categoryId: string; status: string; category: string };

/** An export's rows as a spreadsheet would read them, with csv-parse alone, the apostrophe left in. */
function exportRows(text: string): ExportRow[] {
  return parse<ExportRow>(text, { columns: true, record_delimiter: "\r\n" });
}

/** What the export must write for a pet's name: the name, with the apostrophe before a would-be formula. */
const written = (name: string) => (/^[=+\-@\t\r]/.test(name) ? `'${name}` : name);

const providers = await testProviders();

for (const provider of providers) {
  describe(`CSV export and import on ${provider}`, () => {
    let database: TestDatabase;
    let server: RunningServer;
    let client: Client;
    let key: string;
    let cookie: string;

    const api = (path: string) => call(server.baseUrl, "GET", path, { key });

    /**
     * Streams a chunked file of `times` copies of `chunk` until the server answers, over a socket of its own: the
     * answer is read even when the server closes the connection before the body's end, where a write then fails
     * with EPIPE and fetch reports that instead of the answer (it did, under load, in CI).
     */
    function streamUntilAnswered(
      path: string,
      chunk: string,
      times: number,
    ): Promise<{ status: number; text: string }> {
      const { hostname, port, host } = new URL(server.baseUrl);
      const head =
        `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nCookie: ${cookie}\r\nOrigin: ${server.baseUrl}\r\n` +
        "Content-Type: text/csv\r\nTransfer-Encoding: chunked\r\n\r\n";
      const frame = `${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n`;
      return new Promise((resolve, reject) => {
        let received = "";
        const socket = net.connect({ host: hostname, port: Number(port) });
        const timer = setTimeout(() => socket.destroy(), 20_000);
        socket.on("data", (data: Buffer) => (received += data.toString("utf8")));
        socket.on("error", () => {}); // EPIPE or ECONNRESET once the server has answered and closed: the answer stands
        socket.on("close", () => {
          clearTimeout(timer);
          const end = received.indexOf("\r\n\r\n");
          if (end < 0) return reject(new Error(`the connection closed without an answer: ${received.slice(0, 200)}`));
          resolve({ status: Number(received.slice(9, 12)), text: received });
        });
        socket.on("connect", () => {
          socket.write(head);
          let sent = 0;
          const more = () => {
            while (sent < times && received === "" && !socket.destroyed) {
              sent++;
              if (!socket.write(frame)) return void socket.once("drain", more);
            }
            if (sent === times && !socket.destroyed) socket.write("0\r\n\r\n");
          };
          more();
        });
      });
    }

    /** Sends bytes as a file to an import endpoint, as the browser does. */
    async function upload(method: string, path: string, bytes: Uint8Array | string, as = cookie): Promise<Reply> {
      const response = await fetch(new URL(path, server.baseUrl), {
        method,
        headers: { Cookie: as, Origin: server.baseUrl, "Content-Type": "text/csv" },
        body: typeof bytes === "string" ? bytes : Buffer.from(bytes),
      });
      const text = await response.text();
      let body: unknown;
      try {
        // Errors as assertError reads them (int64-exact, integers as bigint); reports as plain numbers.
        body = response.ok ? JSON.parse(text) : parseJson(text);
      } catch {
        body = undefined;
      }
      return { status: response.status, headers: response.headers, text, body };
    }

    const petCount = async () => Number(await client.pet.count());

    before(async () => {
      database = await createMigratedDatabase(provider);
      key = await createKey(database.url);
      await createStaff(database.url, STAFF.email, STAFF.password);
      client = createDatabase(databaseConfig(database.url));
      // Two pets with ids past 2^53, written straight to the database (the API gives ids in order).
      await client.$executeRawUnsafe(
        `INSERT INTO pets (id, name, category_id, status) VALUES (${BEYOND_2_53}, 'Bigint Bess', ${INT64_MAX}, 'sold')`,
      );
      for (const [id, name] of CATEGORY_NAMES)
        await client.category.create({ data: { id: BigInt(id), name, nameKey: categoryNameKey(name) } });
      server = await startServer("custom", database.url);
      cookie = await signInStaff(server.baseUrl, STAFF.email, STAFF.password);
      for (const [index, name] of NAMES.entries()) {
        const status = STATUSES[index % STATUSES.length];
        const reply = await call(server.baseUrl, "POST", "/v1/pets", {
          key,
          body: { name, categoryId: index % 3, ...(status ? { status } : {}) },
        });
        assert.equal(reply.status, 201, reply.text);
      }
    });

    after(async () => {
      await client?.$disconnect();
      await server?.stop();
      await database?.drop();
    });

    test("every view's export is listPets' pages, row by row: ids, names, categories and statuses exact", async () => {
      for (const sort of ["id", "-id", "name", "-name"]) {
        for (const status of [undefined, "available", "sold"]) {
          for (const q of [undefined, "rex", "bis", "é", "zzz"]) {
            const query = new URLSearchParams({ sort });
            if (status) query.set("status", status);
            if (q) query.set("q", q);
            const exported = await api(`/v1/pets/export?${query}`);
            assert.equal(exported.status, 200, exported.text);
            const pets: { id: bigint; name: string; categoryId: bigint; status?: string }[] = [];
            let next: string | undefined = `/v1/pets?limit=2&${query}`;
            while (next) {
              const page = await api(next);
              assert.equal(page.status, 200, page.text);
              pets.push(...page.body);
              next = /<([^>]+)>; rel="next"/.exec(page.headers.get("link") ?? "")?.[1];
            }
            assert.deepEqual(
              exportRows(exported.text),
              pets.map((pet) => ({
                id: String(pet.id),
                name: written(pet.name),
                categoryId: String(pet.categoryId),
                status: pet.status ?? "",
                category: CATEGORY_NAMES.get(String(pet.categoryId)) ?? "",
              })),
              `export?${query}`,
            );
          }
        }
      }
    });

    test("the export is a CRLF CSV download with a header row, ids past 2^53 digit for digit", async () => {
      const reply = await api("/v1/pets/export?status=sold&sort=-id");
      assert.equal(reply.status, 200);
      assert.equal(reply.headers.get("content-type"), "text/csv; charset=utf-8; header=present");
      assert.match(reply.headers.get("content-disposition") ?? "", /^attachment; filename="pets-sold-newest-first-/);
      assert.ok(reply.headers.get("ratelimit"));
      assert.ok(reply.text.startsWith("id,name,categoryId,status,category\r\n"));
      assert.ok(reply.text.endsWith("\r\n"));
      assert.doesNotMatch(reply.text.replaceAll("\r\n", ""), /[\r\n]/);
      assert.ok(reply.text.includes(`\r\n${BEYOND_2_53},Bigint Bess,${INT64_MAX},sold,\r\n`), reply.text);
    });

    const refusals: [string, string][] = [
      ["?status=lost", "status"],
      ["?sort=price", "sort"],
      ["?q=", "q"],
      ["?limit=10", "limit"],
      ["?cursor=abc", "cursor"],
      ["?sort=id&sort=name", "sort"],
    ];
    for (const [query, path] of refusals)
      test(`exportPets${query} is a 400 naming ${path}`, async () =>
        assertError(await api(`/v1/pets/export${query}`), 400, "invalid_query", path));

    test("exportPets without a key, or with a wrong one, is a 401", async () => {
      assertError(await call(server.baseUrl, "GET", "/v1/pets/export"), 401, "unauthorized");
      assertError(await call(server.baseUrl, "GET", "/v1/pets/export", { key: "nope" }), 401, "unauthorized");
    });

    test("exportPets has listPets' CORS and counts against the key's rate limit: past it, a 429", async () => {
      const limited = await startServer("custom", database.url, {
        RATE_LIMIT_REQUESTS: "2",
        // A day's window: the three requests cannot straddle two windows (a minute's did, once).
        RATE_LIMIT_WINDOW_SECONDS: "86400",
        CORS_ORIGINS: "https://shop.example",
      });
      try {
        const limitedKey = await createKey(database.url, "limited");
        for (let i = 0; i < 2; i++) {
          const reply = await call(limited.baseUrl, "GET", "/v1/pets/export", {
            key: limitedKey,
            headers: { Origin: "https://shop.example" },
          });
          assert.equal(reply.status, 200);
          // CORS as listPets has it, and a browser client may read the file name.
          assert.equal(reply.headers.get("access-control-allow-origin"), "https://shop.example");
          assert.match(reply.headers.get("access-control-expose-headers") ?? "", /Content-Disposition/);
        }
        const refused = await call(limited.baseUrl, "GET", "/v1/pets/export", { key: limitedKey });
        assertError(refused, 429, "rate_limited");
        assert.ok(refused.headers.get("retry-after"));
      } finally {
        await limited.stop();
      }
    });

    test("the OpenAPI document has exportPets, as text/csv", async () => {
      const document = (await call(server.baseUrl, "GET", "/v1/openapi.json")).body;
      const operation = document.paths["/pets/export"].get;
      assert.equal(operation.operationId, "exportPets");
      assert.ok(operation.responses["200"].content["text/csv"]);
      assert.deepEqual(
        operation.parameters.map((parameter: { name: string }) => parameter.name),
        ["status", "categoryId", "q", "sort"], // categoryId: the catalogue's category filter (issue 24)
      );
    });

    test("the admin's export is the same view's exportPets, for a signed-in staff member only", async () => {
      const query = "status=available&q=rex&sort=name";
      const admin = await call(server.baseUrl, "GET", `/admin/api/pets/export?${query}`, {
        headers: { Cookie: cookie },
      });
      assert.equal(admin.status, 200, admin.text);
      assert.match(admin.headers.get("content-disposition") ?? "", /^attachment; filename="pets-available-search/);
      assert.equal(admin.text, (await api(`/v1/pets/export?${query}`)).text);
      assertError(await call(server.baseUrl, "GET", `/admin/api/pets/export?${query}`), 401, "session_required");
    });

    test("a client that disconnects mid-export leaves the server answering", async () => {
      const controller = new AbortController();
      const response = await fetch(new URL("/v1/pets/export", server.baseUrl), {
        headers: { Authorization: `Bearer ${key}` },
        signal: controller.signal,
      });
      await response.body!.getReader().read();
      controller.abort();
      assert.equal((await api("/v1/pets?limit=1")).status, 200);
    });

    const IMPORT = [
      "\uFEFFname;categoryId;status;colour",
      "Import One;1;available;brown",
      '"Import; Two";2;;white',
      ";3;sold;", // line 4: no name
      "Import Four;cat;;", // line 5: categoryId not an integer
      '"Import\r\nFive";1;lost;', // lines 6-7: a line break in a name, and an unknown status
      "Import Six;9223372036854775807;PENDING;",
      "'=Import Seven;4;;",
      "Import Eight;4;sold;grey;extra", // line 9: one field too many
    ].join("\r\n");

    test("the dry run reports each bad row's line, column and message, unknown columns; writes nothing", async () => {
      const before = await petCount();
      const reply = await upload("POST", "/admin/api/pets/imports", enc(IMPORT));
      assert.equal(reply.status, 200, reply.text);
      const report = reply.body;
      assert.match(report.importId, /^[0-9a-f-]{36}$/);
      assert.equal(report.separator, ";");
      assert.equal(report.rows, 8);
      assert.equal(report.valid, 4);
      assert.equal(report.invalid, 4);
      assert.equal(report.toCreate, 4);
      assert.equal(report.alreadyImported, 0);
      assert.deepEqual(report.unknownColumns, ["colour"]);
      assert.deepEqual(report.errors, [
        { line: 4, column: "name", message: "Enter a name" },
        { line: 5, column: "categoryId", message: "Choose a category: a category is a whole number, such as 1" },
        { line: 6, column: "name", message: "Remove control characters from the name" },
        { line: 6, column: "status", message: "Choose a status: available, pending, sold, or none" },
        { line: 10, column: "", message: "the row has 5 fields, but the header names 4 columns" },
      ]);
      assert.equal(await petCount(), before);
      assert.equal(await client.petImport.count(), 0);
    });

    test("the bad rows download is their fields and an error column, and imports back to its problems", async () => {
      const reply = await upload("POST", "/admin/api/pets/imports/bad-rows", enc(IMPORT));
      assert.equal(reply.status, 200, reply.text);
      assert.match(reply.headers.get("content-disposition") ?? "", /^attachment; filename="pets-bad-rows-/);
      const rows: string[][] = parse(reply.text, { record_delimiter: "\r\n" });
      assert.deepEqual(rows[0], ["name", "categoryId", "status", "colour", "error"]);
      assert.deepEqual(
        rows.slice(1).map((row) => row.slice(0, 3)),
        [
          ["", "3", "sold"],
          ["Import Four", "cat", ""],
          ["Import\r\nFive", "1", "lost"],
          ["Import Eight", "4", "sold"],
        ],
      );
      assert.equal(rows[1][4], "name: Enter a name");
      const again = (await upload("POST", "/admin/api/pets/imports", reply.text)).body;
      // The row with a field too many comes back cut to the header's columns, and so passes.
      assert.equal(again.invalid, 3);
      assert.equal(again.valid, 1);
      assert.deepEqual(again.ignoredColumns, ["error"]);
      // Its own bad rows keep one error column, holding the new errors.
      const twice = await upload("POST", "/admin/api/pets/imports/bad-rows", reply.text);
      const twiceRows: string[][] = parse(twice.text, { record_delimiter: "\r\n" });
      assert.deepEqual(twiceRows[0], ["name", "categoryId", "status", "colour", "error"]);
      assert.deepEqual(
        twiceRows.slice(1).map((row) => row[4]),
        [
          "name: Enter a name",
          "categoryId: Choose a category: a category is a whole number, such as 1",
          "name: Remove control characters from the name; status: Choose a status: available, pending, sold, or none",
        ],
      );
    });

    test("apply creates the valid rows once, audited naming the staff member and the import; again, none", async () => {
      const dryRun = (await upload("POST", "/admin/api/pets/imports", enc(IMPORT))).body;
      const before = await petCount();
      const applied = await upload("PUT", `/admin/api/pets/imports/${dryRun.importId}`, enc(IMPORT));
      assert.equal(applied.status, 200, applied.text);
      assert.equal(applied.body.toCreate, 4);
      assert.equal(applied.body.alreadyImported, 0);
      assert.equal(await petCount(), before + 4);
      const made = await client.pet.findMany({
        where: { name: { in: ["Import One", "Import; Two", "Import Six", "=Import Seven"] } },
        select: { id: true, name: true, categoryId: true, status: true },
        orderBy: { id: "asc" },
      });
      assert.deepEqual(
        made.map((pet) => [pet.name, String(pet.categoryId), pet.status]),
        [
          ["Import One", "1", "available"],
          ["Import; Two", "2", null],
          ["Import Six", String(INT64_MAX), "pending"],
          ["=Import Seven", "4", null],
        ],
      );
      const records = await client.auditEvent.findMany({
        where: { action: "pet.created", targetId: { in: made.map((pet) => String(pet.id)) } },
        orderBy: { id: "asc" },
      });
      assert.equal(records.length, 4);
      for (const [index, record] of records.entries()) {
        assert.equal(record.actorType, "staff");
        assert.equal(record.actorLabel, STAFF.email);
        assert.deepEqual(JSON.parse(record.details!).via, { import: dryRun.importId, line: [2, 3, 8, 9][index] });
      }

      const second = await upload("PUT", `/admin/api/pets/imports/${dryRun.importId}`, enc(IMPORT));
      assert.equal(second.status, 200, second.text);
      assert.equal(second.body.toCreate, 0);
      assert.equal(second.body.alreadyImported, 4);
      assert.equal(await petCount(), before + 4);
      // A new dry run of the same file names the same import, with nothing left to create.
      const rerun = (await upload("POST", "/admin/api/pets/imports", enc(IMPORT))).body;
      assert.equal(rerun.importId, dryRun.importId);
      assert.equal(rerun.toCreate, 0);
      assert.equal(rerun.alreadyImported, 4);
    });

    test("an export imports back as itself: a would-be formula comes back without the apostrophe", async () => {
      const exported = (await api("/v1/pets/export?q=Biscuit")).text;
      const before = await petCount();
      const dryRun = (await upload("POST", "/admin/api/pets/imports", exported)).body;
      assert.deepEqual(dryRun.ignoredColumns, ["id"]);
      assert.equal(dryRun.invalid, 0);
      await upload("PUT", `/admin/api/pets/imports/${dryRun.importId}`, exported);
      assert.equal(await petCount(), before + 2);
      const exportedMinus = (await api("/v1/pets/export?q=-5")).text;
      const minus = (await upload("POST", "/admin/api/pets/imports", exportedMinus)).body;
      assert.equal(minus.valid, 1);
      assert.ok(exportedMinus.includes("'-5 apples"));
      await upload("PUT", `/admin/api/pets/imports/${minus.importId}`, exportedMinus);
      assert.equal(await client.pet.count({ where: { name: "-5 apples" } }), 2);
    });

    test("a category column imports by name, ignoring case; an unknown name is its row's problem", async () => {
      const file =
        'name,Category,status\r\nBy name,dogs,\r\nBy other name," CATS, BIG AND SMALL ",sold\r\nOdd,Unicorns,\r\n';
      const dryRun = (await upload("POST", "/admin/api/pets/imports", file)).body;
      assert.equal(dryRun.valid, 2);
      assert.deepEqual(dryRun.errors, [
        {
          line: 4,
          column: "Category",
          message: "No category is called “Unicorns”: add it on the Categories page, or give its id",
        },
      ]);
      await upload("PUT", `/admin/api/pets/imports/${dryRun.importId}`, file);
      const made = await client.pet.findMany({
        where: { name: { startsWith: "By " } },
        select: { name: true, categoryId: true },
        orderBy: { id: "asc" },
      });
      assert.deepEqual(
        made.map((pet) => [pet.name, pet.categoryId]),
        [
          ["By name", 1n],
          ["By other name", 2n],
        ],
      );
    });

    test("two applies of one file at once create each row once", async () => {
      const file = ["name,categoryId", ...Array.from({ length: 250 }, (_, i) => `Twice ${i},1`)].join("\r\n");
      const { importId } = (await upload("POST", "/admin/api/pets/imports", file)).body;
      // A second dry run's id as well: a double submit from two tabs.
      const other = (await upload("POST", "/admin/api/pets/imports", file)).body.importId;
      const replies = await Promise.all([
        upload("PUT", `/admin/api/pets/imports/${importId}`, file),
        upload("PUT", `/admin/api/pets/imports/${other}`, file),
      ]);
      for (const reply of replies) assert.equal(reply.status, 200, reply.text);
      assert.equal(replies[0].body.toCreate + replies[1].body.toCreate, 250);
      assert.equal(await client.pet.count({ where: { name: { startsWith: "Twice " } } }), 250);
    });

    test("other requests are answered while an apply runs, between its batches", async () => {
      const rows = 10_000;
      const file = ["name,categoryId", ...Array.from({ length: rows }, (_, i) => `Meanwhile ${i},1`)].join("\r\n");
      const { importId } = (await upload("POST", "/admin/api/pets/imports", file)).body;
      let applied = false;
      const applying = upload("PUT", `/admin/api/pets/imports/${importId}`, file).finally(() => (applied = true));
      // Once the first batch has committed, the apply has begun its loop: whatever is answered now is answered
      // between two of its batches (SQLite runs every statement on the server's one thread).
      while ((await client.petImportRow.count({ where: { importId } })) === 0 && !applied)
        await new Promise((resolve) => setTimeout(resolve, 5));
      const [health, list] = await Promise.all([
        fetch(new URL("/healthz", server.baseUrl)).then(async (response) => ({
          status: response.status,
          doneThen: await client.petImportRow.count({ where: { importId } }),
        })),
        api("/v1/pets?limit=1").then(async (reply) => ({
          status: reply.status,
          doneThen: await client.petImportRow.count({ where: { importId } }),
        })),
      ]);
      assert.equal(health.status, 200);
      assert.equal(list.status, 200);
      assert.ok(health.doneThen < rows, `/healthz was answered only once all ${rows} rows were done`);
      assert.ok(list.doneThen < rows, `the /v1 list was answered only once all ${rows} rows were done`);
      const reply = await applying;
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.body.toCreate, rows);
      assert.equal(await client.petImportRow.count({ where: { importId } }), rows);
    });

    test("a file edited after its dry run is refused on apply (409), and nothing of it is created", async () => {
      const checked = "name,categoryId\r\nChecked,1\r\n";
      const { importId } = (await upload("POST", "/admin/api/pets/imports", checked)).body;
      const edited = "name,categoryId\r\nChecked,1\r\nUnseen,2\r\n";
      assertError(await upload("PUT", `/admin/api/pets/imports/${importId}`, edited), 409, "import_file_changed");
      assert.equal(await client.pet.count({ where: { name: { in: ["Checked", "Unseen"] } } }), 0);
      assert.equal((await upload("PUT", `/admin/api/pets/imports/${importId}`, checked)).status, 200);
      assert.equal(await client.pet.count({ where: { name: "Checked" } }), 1);
    });

    test("an import id used for another file is a 409; a bad id a 400; no session a 401", async () => {
      const first = "name,categoryId\r\nOnce,1\r\n";
      const { importId } = (await upload("POST", "/admin/api/pets/imports", first)).body;
      assert.equal((await upload("PUT", `/admin/api/pets/imports/${importId}`, first)).status, 200);
      assertError(
        await upload("PUT", `/admin/api/pets/imports/${importId}`, "name,categoryId\r\nOther,1\r\n"),
        409,
        "import_file_changed",
      );
      assertError(await upload("PUT", "/admin/api/pets/imports/not-an-id", first), 400, "invalid_path");
      assertError(await upload("POST", "/admin/api/pets/imports", first, ""), 401, "session_required");
    });

    const fileRefusals: [string, string | Uint8Array, number, string][] = [
      ["a file without a name column", "title,categoryId\r\nRex,1\r\n", 400, "invalid_csv"],
      ["a file naming a column twice", "name,categoryId,Name\r\nRex,1,x\r\n", 400, "invalid_csv"],
      [
        "a Latin-1 file",
        Uint8Array.from([...enc("name,categoryId\r\nZo"), 0xeb, ...enc(",1\r\n")]),
        400,
        "invalid_csv",
      ],
      ["an unclosed quote", 'name,categoryId\r\n"Rex,1\r\n', 400, "invalid_csv"],
      ["an empty body", "", 400, "invalid_csv"],
    ];
    for (const [what, body, status, code] of fileRefusals)
      test(`the dry run refuses ${what} with ${status} ${code}`, async () =>
        assertError(await upload("POST", "/admin/api/pets/imports", body), status, code));

    test("a file past 5 MiB is a 413 with the Error body, declared or streamed", async () => {
      const big = `name,categoryId\r\n${"Rex,1\r\n".repeat(800_000)}`;
      // Refused from its declared length: sent as its head alone, since a client still writing the body when the
      // server answers and closes may get EPIPE instead of the answer (fetch did, under load, in CI).
      const declared = await headOnlyCall(server.baseUrl, {
        method: "POST",
        path: "/admin/api/pets/imports",
        headers: { Cookie: cookie, Origin: server.baseUrl, "Content-Type": "text/csv" },
        contentLength: Buffer.byteLength(big),
      });
      assertError(declared, 413, "payload_too_large");
      // Without a Content-Length: refused as the body passes the limit (60 chunks of 105 KB, 6.3 MB in all).
      const streamed = await streamUntilAnswered("/admin/api/pets/imports", `${"Rex,1\r\n".repeat(15_000)}`, 60);
      assert.equal(streamed.status, 413, streamed.text);
      assert.match(streamed.text, /"code":"payload_too_large"/);
      assertError(
        await call(server.baseUrl, "POST", "/admin/api/pets/imports", {
          headers: { Cookie: cookie, Origin: server.baseUrl },
          body: { name: "Rex" },
        }),
        415,
        "unsupported_media_type",
      );
    });

    const IMPORT_PATHS = ["/admin/api/pets/imports", "/admin/api/pets/imports/bad-rows"];

    test("the review's wide files are refused with a short 400 naming the column limit; the server lives", async () => {
      const files = [
        `name,categoryId${",".repeat(1024 * 1024)}\r\nRex,1\r\n`, // 1 MiB: the dry run ran out of memory
        `name,categoryId${",".repeat(150_000)}\r\n${"x\r\n".repeat(3_000)}`, // 160 KB: so did the bad rows
        `name,categoryId${",".repeat(8_000)}\r\n${"x\r\n".repeat(2_000)}`, // 15 KB: the bad rows answered 25 MB
      ];
      for (const file of files)
        for (const path of IMPORT_PATHS) {
          const reply = await upload("POST", path, file);
          assertError(reply, 400, "invalid_csv");
          assert.match(reply.body.message, /line 1 has more than 50 fields/);
          assert.ok(reply.text.length < 1000, `${reply.text.length} characters`);
        }
      assert.equal((await call(server.baseUrl, "GET", "/healthz")).status, 200);
    });

    const boundRefusals: [string, string, RegExp][] = [
      [
        "a row wider than the limit",
        `name,categoryId\r\nRex,1${",x".repeat(60)}\r\n`,
        /line 2 has more than 50 fields/,
      ],
      [
        "a field past 10,000 characters",
        `name,categoryId,notes\r\nRex,1,${"n".repeat(10_001)}\r\n`,
        /line 2 has a field longer than 10,000 characters/,
      ],
      ["a column name past 100 characters", `name,categoryId,${"c".repeat(101)}\r\nRex,1,\r\n`, /longer than 100/],
      ["more than 50,000 rows", `name,categoryId\r\n${"x,1\r\n".repeat(50_001)}`, /more than 50,000 rows/],
    ];
    for (const [what, file, message] of boundRefusals)
      test(`the dry run and the bad rows refuse ${what} with a 400 saying which limit`, async () => {
        for (const path of IMPORT_PATHS) {
          const reply = await upload("POST", path, file);
          assertError(reply, 400, "invalid_csv");
          assert.match(reply.body.message, message);
        }
      });

    test("the report lists the first 1,000 problems and counts the rest; echoed text is cut short", async () => {
      const rows = Array.from({ length: 1_200 }, () => ",1"); // no name: one problem each
      const header = `name,categoryId,Category,${"U".repeat(100)}`;
      const file = `${header}\r\n${rows.join("\r\n")}\r\nRex,,${"Unicorn".repeat(1_000)},\r\n`;
      const reply = await upload("POST", "/admin/api/pets/imports", file);
      assert.equal(reply.status, 200, reply.text.slice(0, 500));
      assert.equal(reply.body.invalid, 1_201);
      assert.equal(reply.body.errors.length, 1_000);
      assert.equal(reply.body.errorsNotListed, 201);
      assert.deepEqual(reply.body.unknownColumns, ["U".repeat(100)]);
      assert.ok(reply.text.length < 100_000, `${reply.text.length} characters`);
      const headerless = await upload("POST", "/admin/api/pets/imports", `title,${"t".repeat(100)},x\r\n`.repeat(1));
      assertError(headerless, 400, "invalid_csv");
      assert.ok(headerless.body.message.length < 500, headerless.body.message);
      // The unknown category's name is quoted cut short, in the report's message and in the download's.
      const unicorn = `name,categoryId,Category\r\nRex,,${"Unicorn".repeat(1_000)}\r\n`;
      const [problem] = (await upload("POST", "/admin/api/pets/imports", unicorn)).body.errors;
      assert.match(problem.message, /^No category is called “(Unicorn)+Unic…”: add it/);
      assert.ok(problem.message.length < 200, problem.message);
      const bad = await upload("POST", "/admin/api/pets/imports/bad-rows", unicorn);
      assert.equal(bad.status, 200, bad.text.slice(0, 500));
      assert.ok(bad.text.length < unicorn.length + 300, `${bad.text.length} characters`);
    });

    test("the bad rows download is never far past the file's size: past its budget it is a 400", async () => {
      const header = ["name", "categoryId", "category", "status", ...Array.from({ length: 46 }, (_, i) => `c${i}`)];
      // Short rows, each with three problems, padded to 50 columns in the download: it would be ten times the file.
      const file = `${header.join(",")}\r\n${",,Unicornsssssssssssssssssss,lost\r\n".repeat(50_000)}`;
      const reply = await upload("POST", "/admin/api/pets/imports/bad-rows", file);
      assertError(reply, 400, "invalid_csv");
      assert.match(reply.body.message, /more than 5 MiB larger than the file/);
      assert.equal((await call(server.baseUrl, "GET", "/healthz")).status, 200);
    });

    test("an anonymous upload to an import endpoint is answered 401 before its body is sent", async () => {
      const { hostname, port } = new URL(server.baseUrl);
      for (const [method, path] of [
        ["POST", "/admin/api/pets/imports"],
        ["POST", "/admin/api/pets/imports/bad-rows"],
        ["PUT", "/admin/api/pets/imports/0190a8c4-5b6e-8d7f-8a9b-0c1d2e3f4a5b"],
      ]) {
        // Only the headers go: a server that reads (or buffers) the 5 MiB first never answers.
        const answered = await new Promise<{ status: number; text: string }>((resolve, reject) => {
          const outgoing = http.request(
            {
              host: hostname,
              port,
              method,
              path,
              agent: false,
              headers: {
                "Content-Type": "text/csv",
                "Content-Length": String(5 * 1024 * 1024),
                Origin: server.baseUrl,
              },
            },
            (response) => {
              let text = "";
              response.setEncoding("utf8");
              response.on("data", (chunk) => (text += chunk));
              response.on("end", () => {
                resolve({ status: response.statusCode!, text });
                outgoing.destroy();
              });
            },
          );
          outgoing.on("error", () => undefined);
          outgoing.flushHeaders();
          setTimeout(() => reject(new Error(`${method} ${path}: no answer before the body`)), 3_000);
        });
        assert.equal(answered.status, 401, answered.text);
        assert.match(answered.text, /"code":"session_required"/);
      }
    });

    test("anonymous bodies to the other admin paths are buffered at most 64 KiB each", async () => {
      // A server of its own: its peak memory is this test's alone.
      const fresh = await startServer("custom", database.url);
      try {
        const peak = () => Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${fresh.pid}/status`, "utf8"))![1]);
        await call(fresh.baseUrl, "GET", "/healthz");
        const before = peak();
        const body = Buffer.alloc(5 * 1024 * 1024, 0x20);
        const replies = await Promise.all(
          Array.from({ length: 32 }, () =>
            fetch(new URL("/admin/api/pets", fresh.baseUrl), {
              method: "POST",
              headers: { "Content-Type": "application/json", Origin: fresh.baseUrl },
              body,
            }).then((response) => response.status),
          ),
        );
        assert.ok(
          replies.every((status) => status === 401),
          replies.join(),
        );
        // Kept whole (Next's proxy body cap at 6 MiB), they grew it by about 165 MiB; kept to 64 KiB each, by about
        // 50 (the chunks read and dropped, not yet collected).
        const grown = (peak() - before) / 1024;
        assert.ok(grown < 100, `the server's peak memory grew ${grown.toFixed(0)} MiB for 32 anonymous 5 MiB bodies`);
      } finally {
        await fresh.stop();
      }
    });

    test("a 400 names at most 20 members, a client's member name cut short: never many times the request", async () => {
      const unknown = Object.fromEntries(Array.from({ length: 1_400 }, (_, i) => [`k${i}`, 1]));
      const body = JSON.stringify({ name: "x", categoryId: 1, ...unknown });
      const query = Array.from({ length: 1_500 }, (_, i) => `z${i}=1`).join("&");
      const replies: [Reply, string][] = [
        [await call(server.baseUrl, "POST", "/v1/pets", { key, body }), "invalid_body"],
        [await api(`/v1/pets/export?${query}`), "invalid_query"],
        [await api(`/v1/pets?${query}`), "invalid_query"],
        [
          await call(server.baseUrl, "POST", "/admin/api/session", { headers: { Origin: server.baseUrl }, body }),
          "invalid_body",
        ],
      ];
      for (const [reply, code] of replies) {
        assertError(reply, 400, code);
        assert.equal(reply.body.errors.length, 20, reply.text.slice(0, 300));
        assert.match(reply.body.message, /; and 1,[0-9]{3} more\.$/);
        assert.ok(reply.text.length < 3_000, `${reply.text.length} characters`);
      }
      const long = JSON.stringify({ name: "x", categoryId: 1, ["k".repeat(15_000)]: 1 });
      const named = await call(server.baseUrl, "POST", "/v1/pets", { key, body: long });
      assertError(named, 400, "invalid_body", `${"k".repeat(60)}…`);
      assert.ok(named.text.length < 1_000, `${named.text.length} characters`);
    });

    test("a signed-in 4.9 MiB import is checked and applied whole", async () => {
      const notes = "n".repeat(5_000);
      const lines = ["name,categoryId,notes"];
      for (let i = 0; lines.length <= 1_027; i++) lines.push(`Large file ${i},1,${notes}`);
      const file = lines.join("\r\n");
      assert.ok(file.length > 4.9 * 1024 * 1024 && file.length <= 5 * 1024 * 1024, `${file.length} bytes`);
      const dryRun = await upload("POST", "/admin/api/pets/imports", file);
      assert.equal(dryRun.status, 200, dryRun.text.slice(0, 500));
      assert.equal(dryRun.body.valid, 1_027);
      assert.deepEqual(dryRun.body.unknownColumns, ["notes"]);
      const applied = await upload("PUT", `/admin/api/pets/imports/${dryRun.body.importId}`, file);
      assert.equal(applied.status, 200, applied.text.slice(0, 500));
      assert.equal(applied.body.toCreate, 1_027);
      assert.equal(await client.pet.count({ where: { name: { startsWith: "Large file " } } }), 1_027);
    });

    test("a server killed mid-apply leaves whole rows done; applying again makes every row exactly once", async () => {
      const rows = 10_000; // about 3 s on SQLite, 7 s on PostgreSQL: killed well before the end
      const file = ["name,categoryId", ...Array.from({ length: rows }, (_, i) => `Killed ${i},1`)].join("\r\n");
      const victim = await startServer("custom", database.url);
      try {
        const victimCookie = await signInStaff(victim.baseUrl, STAFF.email, STAFF.password);
        const send = (base: string, path: string, as: string, method = "POST") =>
          fetch(new URL(path, base), {
            method,
            headers: { Cookie: as, Origin: base, "Content-Type": "text/csv" },
            body: file,
          });
        const { importId } = (await (await send(victim.baseUrl, "/admin/api/pets/imports", victimCookie)).json()) as {
          importId: string;
        };
        const applying = send(victim.baseUrl, `/admin/api/pets/imports/${importId}`, victimCookie, "PUT").catch(
          () => undefined,
        );
        // Kill it once some batches have committed, well before the last.
        for (let done = 0; done < 200;) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          done = await client.petImportRow.count({ where: { importId } });
        }
        process.kill(victim.pid, "SIGKILL");
        await applying;
        const doneAtKill = await client.petImportRow.count({ where: { importId } });
        assert.ok(doneAtKill < rows, `the apply finished before the kill (${doneAtKill})`);
        assert.equal(await client.pet.count({ where: { name: { startsWith: "Killed " } } }), doneAtKill);

        const resumed = await send(server.baseUrl, `/admin/api/pets/imports/${importId}`, cookie, "PUT");
        const report = (await resumed.json()) as { toCreate: number; alreadyImported: number };
        assert.equal(resumed.status, 200);
        assert.equal(report.alreadyImported, doneAtKill);
        assert.equal(report.toCreate, rows - doneAtKill);
        const names = await client.pet.groupBy({
          by: ["name"],
          where: { name: { startsWith: "Killed " } },
          _count: { name: true },
        });
        assert.equal(names.length, rows);
        assert.ok(names.every((group) => group._count.name === 1));
      } finally {
        await victim.stop();
      }
    });
  });
}
