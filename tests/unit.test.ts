import assert from "node:assert/strict";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, test } from "node:test";
import { JsonDepthGauge, JsonTooDeepError, MAX_JSON_DEPTH, parseJson, stringifyJson } from "@/lib/http/json";
import { INT64_MAX, INT64_MIN } from "@/lib/http/int64";
import { stringifyPet, stringifyPets } from "@/lib/pets/json";
import { fieldErrors, pathParam } from "@/lib/http/validation";
import { utcDay } from "@/lib/v1/call-counts";
import { Refusal } from "@/lib/refusal";
import { lightweightResponse } from "@/lib/http/lightweight-response";
import { resolveForwarded } from "@/lib/http/forwarded";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import { ConfigError, readConfig } from "@/lib/config";
import { listPetsQuerySchema, newPetSchema, petIdSchema } from "@/lib/pets/schema";
import { privateFile, privateFolder } from "@/lib/private-files";
import { categoryNameKey, categoryNameSchema } from "@/lib/categories/schema";
import { hasVisibleCharacter, withoutFormatCharacters } from "@/lib/visible-text";
import { onePerTurn } from "@/lib/http/one-per-turn";
import { apiRoute } from "@/lib/http/api-route";
import { IMPORT_LIMIT_BYTES } from "@/lib/pets/import";
import { BODY_LIMIT_BYTES } from "@/lib/http/body";

describe("int64 JSON", () => {
  test("integer literals are read as bigint, digit for digit", () => {
    assert.deepEqual(parseJson('{"a":9223372036854775807,"b":-9223372036854775808,"c":9007199254740993}'), {
      a: 9223372036854775807n,
      b: -9223372036854775808n,
      c: 9007199254740993n,
    });
  });

  test("other numbers stay numbers", () => {
    assert.deepEqual(parseJson("[1.5,1e3,-0.25]"), [1.5, 1000, -0.25]);
  });

  test("bigints are written as plain JSON integers", () => {
    assert.equal(
      stringifyJson({ id: INT64_MAX, categoryId: INT64_MIN }),
      '{"id":9223372036854775807,"categoryId":-9223372036854775808}',
    );
  });

  test("malformed JSON and differing duplicate keys are refused", () => {
    assert.throws(() => parseJson('{"a":'));
    assert.throws(() => parseJson('{"a":1,"a":2}'));
  });
});

describe("the JSON depth limit", () => {
  const arrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
  const objects = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);

  test(`${MAX_JSON_DEPTH} levels of arrays or objects are parsed; one more is refused before parsing`, () => {
    assert.equal(stringifyJson(parseJson(arrays(MAX_JSON_DEPTH))), arrays(MAX_JSON_DEPTH));
    assert.equal(stringifyJson(parseJson(objects(MAX_JSON_DEPTH))), objects(MAX_JSON_DEPTH));
    assert.throws(() => parseJson(arrays(MAX_JSON_DEPTH + 1)), JsonTooDeepError);
    assert.throws(() => parseJson(objects(MAX_JSON_DEPTH + 1)), JsonTooDeepError);
    // Refused by the scan, not by the parser: what follows the excess depth is never read.
    assert.throws(() => parseJson("[".repeat(MAX_JSON_DEPTH + 1) + "not json"), JsonTooDeepError);
  });

  test("100,000 levels, balanced or not, are refused without recursion", () => {
    for (const text of [arrays(100_000), objects(100_000), "[".repeat(100_000), '{"a":['.repeat(50_000)]) {
      assert.throws(() => parseJson(text), JsonTooDeepError);
    }
  });

  test("the gauge counts brackets outside strings only", () => {
    const fits = (limit: number, ...pieces: (string | Uint8Array)[]) => {
      const gauge = new JsonDepthGauge(limit);
      return pieces.every((piece) => gauge.feed(piece));
    };
    assert.equal(fits(2, "[[]]"), true);
    assert.equal(fits(2, "[[[]]]"), false);
    assert.equal(fits(2, '[{},[],{"a":1},[2]]'), true, "siblings do not add up");
    assert.equal(fits(2, '[{"a":[1]}]'), false);
    assert.equal(fits(1, '["[[[[{{{{"]'), true, "brackets in a string");
    assert.equal(fits(1, '{"[[[[":"{{{{"}'), true, "brackets in keys and values");
    assert.equal(fits(1, '["\\"[[[[{{"]'), true, "an escaped quote does not end the string");
    assert.equal(fits(2, '["\\\\",[[]]]'), false, "an escaped backslash does not escape the closing quote");
    assert.equal(fits(1, '["\\u0022[[[["]'), true, "a \\u escape is no quote");
    assert.equal(fits(1, '["a\\', '"[[[', '["]'), true, "an escape split across pieces");
    assert.equal(fits(1, '["ab', "c[[[", '"]'), true, "a string split across pieces");
    assert.equal(fits(2, "[", "[", "["), false, "depth carried across pieces");
  });

  test("the gauge reads UTF-8 bytes as it reads text", () => {
    const gauge = (limit: number, text: string) => new JsonDepthGauge(limit).feed(new TextEncoder().encode(text));
    assert.equal(gauge(1, '["é🐕[[[[","\\"[[["]'), true);
    assert.equal(gauge(1, '["é🐕",[]]'), false);
    const mixed = new JsonDepthGauge(2);
    assert.equal(mixed.feed(new TextEncoder().encode('[["[[[')), true);
    assert.equal(mixed.feed('"]]'), true);
    assert.equal(mixed.feed("[[["), false);
  });

  test("unbalanced text: stray closes buy no depth, an unterminated string hides what follows", () => {
    const fits = (limit: number, text: string) => new JsonDepthGauge(limit).feed(text);
    assert.equal(fits(3, "]]]]]]]][[["), true);
    assert.equal(fits(3, "]]]]]]]][[[["), false);
    assert.equal(fits(3, "}}}]]][[[["), false);
    assert.equal(fits(1, '["unterminated [[[[[['), true);
    assert.equal(fits(3, "[[[["), false);
    // Malformed but shallow text still reaches the parser and is refused by it.
    assert.throws(
      () => parseJson("]]]][["),
      (error) => !(error instanceof JsonTooDeepError),
    );
    assert.throws(
      () => parseJson('["unterminated [[[[[['),
      (error) => !(error instanceof JsonTooDeepError),
    );
  });
});

describe("the NewPet schema", () => {
  const valid: unknown[] = [
    { name: "Rex", categoryId: 1n },
    { name: "Rex", categoryId: INT64_MAX, status: "sold" },
    { name: "Rex", categoryId: INT64_MIN, status: "pending" },
    { name: "x".repeat(200), categoryId: 0n },
    { name: "🐕".repeat(200), categoryId: 1n }, // 200 characters, 400 UTF-16 units
    { name: "Rex", categoryId: 1000 }, // 1e3 as JSON.parse would read it
  ];
  for (const input of valid) {
    test(`accepts ${stringifyJson(input).slice(0, 60)}`, () =>
      assert.equal(newPetSchema.safeParse(input).success, true));
  }

  const invalid: [unknown, string, string][] = [
    [{ categoryId: 1n }, "name", "name is required"],
    [{ name: "Rex" }, "categoryId", "categoryId is required"],
    [{ name: "", categoryId: 1n }, "name", "name must not be empty"],
    [{ name: "x".repeat(201), categoryId: 1n }, "name", "name must be at most 200 characters"],
    [{ name: "Rex", categoryId: INT64_MAX + 1n }, "categoryId", "categoryId must be at most 9223372036854775807"],
    [{ name: "Rex", categoryId: INT64_MIN - 1n }, "categoryId", "categoryId must be at least -9223372036854775808"],
    [{ name: "Rex", categoryId: 1.5 }, "categoryId", "categoryId must be an integer"],
    // a rounded number is not trusted
    [{ name: "Rex", categoryId: 2 ** 60 }, "categoryId", "categoryId must be an integer"],
    [{ name: "Rex", categoryId: "3" }, "categoryId", "categoryId must be an integer"],
    [{ name: "Rex", categoryId: 1n, status: "lost" }, "status", "must be one of available, pending, sold"],
    [{ name: "Rex", categoryId: 1n, id: 4n }, "id", "id is not a known member"],
  ];
  for (const [input, path, message] of invalid) {
    test(`refuses ${stringifyJson(input).slice(0, 60)} naming ${path}`, () => {
      const result = newPetSchema.safeParse(input);
      assert.equal(result.success, false);
      assert.deepEqual(
        fieldErrors(result.error).find((error) => error.path === path),
        { path, message },
      );
    });
  }

  test("a body that is not an object is named as a whole", () => {
    for (const input of [[], "Rex", null, 3n]) {
      const result = newPetSchema.safeParse(input);
      assert.deepEqual(fieldErrors(result.error!), [{ path: "", message: "the body must be a JSON object" }]);
    }
  });
});

describe("visible text (lib/visible-text.ts): one rule for pets, categories and the CSV import", () => {
  // Each text, whether something of it can be seen: names of only invisible characters are refused everywhere.
  const texts: [string, string, boolean][] = [
    ["a zero-width space", "\u200B", false],
    ["a right-to-left override", "\u202E", false],
    ["a soft hyphen", "\u00AD", false],
    ["a word joiner", "\u2060", false],
    ["a byte order mark", "\uFEFF", false],
    ["variation selectors", "\uFE0F\u{E0100}", false],
    ["tag characters", "\u{E0020}\u{E007F}", false],
    ["a Hangul filler", "\u3164", false],
    ["a braille blank", "\u2800", false],
    ["spaces of every width", " \u00A0\u2003\u3000\u2028", false],
    ["nothing", "", false],
    ["a letter", "a", true],
    ["a ZWJ family", "👩\u200D👩\u200D👧", true],
    ["an emoji with its variation selector", "❤\uFE0F", true],
    ["a combining mark alone", "\u0301", true],
    ["a private-use character", "\uE000", true],
    ["CJK", "猫", true],
    ["an Arabic letter after a right-to-left mark", "\u200Fق", true],
    ["a control character (refused by its own rule)", "\u0007", true],
  ];
  for (const [what, text, visible] of texts) {
    test(`${what}: ${visible ? "visible" : "invisible"}; the pet and category schemas agree`, () => {
      assert.equal(hasVisibleCharacter(text), visible);
      if (text === "" || text === "\u0007") return; // refused by other rules
      assert.equal(newPetSchema.safeParse({ name: text, categoryId: 1n }).success, visible);
      assert.equal(categoryNameSchema.safeParse(text).success, visible);
    });
  }

  const sameKeys: [string, string][] = [
    ["Dogs", "Dogs\u200B"],
    ["Dogs", "D\u00ADogs"],
    ["Dogs", "\u2060 DOGS \uFEFF"],
    ["Dogs", "\u202ADogs\u202C"],
    ["❤", "❤\uFE0F"],
    ["👩👩👧", "👩\u200D👩\u200D👧"],
    ["é", "e\u0301"],
  ];
  for (const [a, b] of sameKeys) {
    test(`category names ${JSON.stringify(a)} and ${JSON.stringify(b)} are one name`, () =>
      assert.equal(categoryNameKey(a), categoryNameKey(b)));
  }
  test("names without format characters keep the key they had", () => {
    const before = (name: string) => name.trim().normalize("NFKC").toUpperCase().toLowerCase();
    for (const name of ["Dogs", " Émus ", "ＤＯＧＳ", "日本の猫", "\uE000 Private use", "🐍 Snakes", "¨x", "STRASSE"])
      assert.equal(categoryNameKey(name), before(name), name);
    assert.equal(withoutFormatCharacters("a\u200Bb\u00ADc\u0301"), "abc\u0301");
  });
});

describe("the query and path schemas", () => {
  test("limit defaults to 20 and takes 1 to 100", () => {
    assert.equal(listPetsQuerySchema.parse({}).limit, 20);
    assert.equal(listPetsQuerySchema.parse({ limit: "1" }).limit, 1);
    assert.equal(listPetsQuerySchema.parse({ limit: "100" }).limit, 100);
    for (const limit of ["0", "101", "-1", "1.5", "abc", "", " 5", "1e1"])
      assert.equal(listPetsQuerySchema.safeParse({ limit }).success, false, limit);
  });

  test("petId is a positive decimal int64", () => {
    assert.equal(petIdSchema.parse("9223372036854775807"), INT64_MAX);
    for (const id of ["0", "-1", "01", "1.0", "9223372036854775808", "0x10", ""])
      assert.equal(petIdSchema.safeParse(id).success, false, id);
  });
  test("a path parameter's schema, made once per name, names that parameter in its 400", () => {
    for (const name of ["petId", "orderId", "petId"]) {
      assert.equal(pathParam({ [name]: "42" }, name, petIdSchema), 42n);
      assert.throws(
        () => pathParam({ [name]: "0" }, name, petIdSchema),
        (error: Refusal) => error.code === "invalid_path" && error.errors?.[0]?.path === name,
      );
    }
  });
});

describe("the lightweight Response of the custom server (lib/http/lightweight-response.ts)", () => {
  test("is @hono/node-server's own, answers as a standard one, and leaves the globals standard", async () => {
    const standard = { Request: globalThis.Request, Response: globalThis.Response };
    const Lightweight = lightweightResponse();
    assert.equal(globalThis.Response, standard.Response);
    assert.equal(globalThis.Request, standard.Request);
    assert.notEqual(Lightweight, standard.Response, "the package no longer offers its lightweight Response");
    const made = new Lightweight('{"id":1}', { status: 201, headers: { "Content-Type": "application/json" } });
    assert.ok(made instanceof Response);
    made.headers.set("X-Request-Id", "r1");
    assert.equal(made.status, 201);
    assert.equal(made.headers.get("content-type"), "application/json");
    assert.equal(made.headers.get("x-request-id"), "r1");
    assert.equal(await made.text(), '{"id":1}');
    assert.equal(new Lightweight(null, { status: 204 }).status, 204);
  });
});

describe("the per-request caches", () => {
  test("utcDay gives each instant its UTC day, either side of midnight, in any order", () => {
    const midnight = Date.UTC(2026, 10, 28);
    for (const at of [
      midnight - 1,
      midnight,
      midnight + 1,
      midnight - 1,
      Date.UTC(1969, 11, 31, 23),
      0,
      midnight + 86_399_999,
    ])
      assert.equal(utcDay(at), new Date(at).toISOString().slice(0, 10), String(at));
  });

  test("a trusted proxy's answer is the list's: the same address under another list is judged afresh", () => {
    const headers = { "x-forwarded-for": "203.0.113.9" };
    for (let round = 0; round < 2; round++) {
      assert.equal(resolveForwarded("10.0.0.5", headers, ["10.0.0.0/8"]).address, "203.0.113.9");
      assert.equal(resolveForwarded("10.0.0.5", headers, ["192.168.0.0/16"]).address, "10.0.0.5");
      assert.equal(resolveForwarded("10.0.0.5", headers, []).address, "10.0.0.5");
    }
  });
});

describe("configuration", () => {
  test("defaults to the embedded SQLite file under ./data", () => {
    const config = readConfig({});
    assert.deepEqual(config.database, {
      provider: "sqlite",
      url: `file:${path.resolve("data/animal-store.db")}`,
      file: path.resolve("data/animal-store.db"),
      synchronous: "normal",
    });
    assert.equal(config.PORT, 3000);
    assert.equal(config.HOST, "127.0.0.1");
  });

  test("a PostgreSQL URL selects PostgreSQL", () => {
    assert.equal(readConfig({ DATABASE_URL: "postgresql://u@h:5432/db" }).database.provider, "postgresql");
    assert.equal(readConfig({ DATABASE_URL: "postgres://u@h/db" }).database.provider, "postgresql");
  });

  test("webhooks retry on Standard Webhooks' schedule unless WEBHOOK_RETRY_SCHEDULE names another", () => {
    // At once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h.
    assert.deepEqual(readConfig({}).WEBHOOK_RETRY_SCHEDULE, [0, 5, 300, 1800, 7200, 18000, 36000, 36000]);
    assert.deepEqual(readConfig({ WEBHOOK_RETRY_SCHEDULE: " 0, 1,60 " }).WEBHOOK_RETRY_SCHEDULE, [0, 1, 60]);
  });

  const bad: [Record<string, string>, RegExp][] = [
    [{ WEBHOOK_RETRY_SCHEDULE: "0,5,-1" }, /^Invalid configuration: WEBHOOK_RETRY_SCHEDULE must be comma-separated/],
    [{ WEBHOOK_RETRY_SCHEDULE: "604801" }, /^Invalid configuration: WEBHOOK_RETRY_SCHEDULE must be comma-separated/],
    [{ WEBHOOK_RETRY_SCHEDULE: Array(21).fill("1").join() }, /WEBHOOK_RETRY_SCHEDULE must name at most 20 attempts/],
    [{ PORT: "abc" }, /^Invalid configuration: PORT /],
    [{ PORT: "70000" }, /^Invalid configuration: PORT /],
    [{ DATABASE_URL: "mysql://x" }, /^Invalid configuration: DATABASE_URL must start with file: /],
    [
      { API_STAGING_URL: "https://staging.example/v2" },
      /^Invalid configuration: API_STAGING_URL must end in the path segment \/v1/,
    ],
    [{ API_PRODUCTION_URL: "not a url" }, /^Invalid configuration: API_PRODUCTION_URL must be an http\(s\) URL/],
  ];
  for (const [env, message] of bad) {
    test(`refuses ${JSON.stringify(env)} in one line`, () => {
      assert.throws(
        () => readConfig(env),
        (error: Error) => error instanceof ConfigError && message.test(error.message) && !error.message.includes("\n"),
      );
    });
  }
});

describe("database outage detection", () => {
  test("recognises Prisma's and the drivers' ways of saying the database is away", () => {
    const unavailable: unknown[] = [
      { code: "P1001" },
      {
        code: "P2010",
        meta: { driverAdapterError: { name: "DriverAdapterError", cause: { kind: "DatabaseNotReachable" } } },
      },
      { name: "PrismaClientInitializationError" },
      { cause: { code: "ECONNREFUSED" } },
      { message: "Connection terminated unexpectedly" },
      { code: "SQLITE_BUSY" },
    ];
    for (const error of unavailable) assert.equal(isDatabaseUnavailable(error), true, JSON.stringify(error));
    for (const error of [new Error("boom"), { code: "P2002" }, null, "text"])
      assert.equal(isDatabaseUnavailable(error), false, JSON.stringify(error));
  });

  // node-postgres's own errors carry no code, and @prisma/adapter-pg rethrows them unconverted (issue 20, item 6).
  const pgErrors: [string, boolean][] = [
    ["Client has encountered a connection error and is not queryable", true],
    ["Client was closed and is not queryable", true],
    ["Connection terminated unexpectedly", true],
    ["Connection terminated due to connection timeout", true],
    ["timeout exceeded when trying to connect", true],
    ["Client has already been connected. You cannot reuse a client.", false],
    ["Received unexpected dataRow message from backend.", false],
  ];
  for (const [message, unavailable] of pgErrors) {
    test(`pg's plain Error "${message}": ${unavailable ? "503" : "500"}`, () => {
      assert.equal(isDatabaseUnavailable(new Error(message)), unavailable);
      assert.equal(isDatabaseUnavailable({ cause: new Error(message) }), unavailable, "found as a cause too");
    });
  }
});

describe("the pet serialiser of the read path", () => {
  test("writes exactly what the generic int64 serialiser writes", () => {
    const pets = [
      { id: 1n, name: "Rex", categoryId: 3n, status: "available" as const },
      {
        id: 9223372036854775807n,
        name: 'Quote " and \\ back\\slash\n<img src=x onerror=alert(1)>',
        categoryId: -9223372036854775808n,
      },
      { id: 2n, name: "🐕‍🦺 \u2028 \u0007", categoryId: 0n, status: "sold" as const },
    ];
    for (const pet of pets) assert.equal(stringifyPet(pet), stringifyJson(pet));
    assert.equal(stringifyPets(pets), stringifyJson(pets));
    assert.equal(stringifyPets([]), "[]");
  });
});

describe("private files", () => {
  test("a shared folder (sticky bit, like /tmp) is left as it is; a file of ours in it is still made 0600", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "animal-store-shared-"));
    try {
      fs.chmodSync(dir, 0o1777);
      privateFolder(dir);
      assert.equal(fs.statSync(dir).mode & 0o7777, 0o1777);
      const file = path.join(dir, "store.db");
      privateFile(file, { create: true });
      assert.equal(fs.statSync(file).mode & 0o777, 0o600, "a file of ours in it is still made private");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the one-per-turn lane of sign-ins", () => {
  test("starts its work in arrival order, one a turn, with the loop's I/O handled between them", async () => {
    // A socket's data stands for a /v1 request that becomes ready while sign-ins wait in the lane.
    const order: string[] = [];
    const server = net.createServer((socket) => socket.on("data", () => order.push("data")));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const accepted = new Promise((resolve) => server.once("connection", resolve));
    const client = net.connect((server.address() as net.AddressInfo).port, "127.0.0.1");
    await Promise.all([accepted, new Promise((resolve) => client.once("connect", resolve))]);
    try {
      const lane = onePerTurn();
      await new Promise<void>((resolve) => {
        lane(() => {
          order.push("first");
          client.write("a request");
        });
        lane(() => order.push("second"));
        lane(() => {
          order.push("third");
          resolve();
        });
        assert.deepEqual(order, [], "nothing starts in the turn it arrives");
      });
      assert.deepEqual(order, ["first", "data", "second", "third"]);
    } finally {
      client.destroy();
      server.close();
    }
  });

  test("past its limit of waiting starts it refuses one more, and takes more once they have started", async () => {
    const lane = onePerTurn(2);
    const started: number[] = [];
    assert.equal(
      lane(() => started.push(1)),
      true,
    );
    assert.equal(
      lane(() => started.push(2)),
      true,
    );
    assert.equal(
      lane(() => started.push(3)),
      false,
      "a third while two wait",
    );
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(started, [1, 2]);
    assert.equal(
      lane(() => started.push(4)),
      true,
    );
  });
});

describe("Next's buffering of request bodies", () => {
  test("is capped at 64 KiB on the proxy's paths; the CSV import's (files up to 5 MiB) are not matched", async () => {
    const file = pathToFileURL(path.join(import.meta.dirname, "..", "next.config.mjs")).href;
    const { default: nextConfig } = (await import(file)) as {
      default: { experimental: { proxyClientMaxBodySize: number } };
    };
    // Well above the JSON bodies' limit, so a body it cuts short is still refused; far below the import's.
    assert.equal(nextConfig.experimental.proxyClientMaxBodySize, 64 * 1024);
    assert.ok(nextConfig.experimental.proxyClientMaxBodySize >= 4 * BODY_LIMIT_BYTES);
    assert.ok(nextConfig.experimental.proxyClientMaxBodySize < IMPORT_LIMIT_BYTES);
    const { config } = await import("@/proxy");
    const matched = (target: string) => config.matcher.some(({ source }) => new RegExp(`^${source}$`).test(target));
    for (const target of ["/admin/api/pets/imports", "/admin/api/pets/imports/bad-rows", "/admin/api/pets/imports/x"])
      assert.equal(matched(target), false, target);
    for (const target of ["/admin", "/admin/import", "/admin/api/pets", "/admin/api/pets/importsx", "/sign-in"])
      assert.equal(matched(target), true, target);
    // Only the exact paths are left out: a path that merely begins with one is a page (Next's 404), still guarded.
    for (const target of ["/healthz", "/readyz", "/favicon.ico", "/_next/static/chunks/a.js", "/_next/image"])
      assert.equal(matched(target), false, target);
    for (const target of ["/healthzx", "/readyz/x", "/favicon.icox", "/admin/api/pets/imports/x/y", "/_next/staticx"])
      assert.equal(matched(target), true, target);
  });
});

describe("client aborts at the edge (lib/http/api-route.ts)", () => {
  const surface = { label: "request", name: "v1" as const, identify: async () => ({}) };
  const failing = (thrown: () => unknown) =>
    apiRoute(surface, {
      GET: {
        operationId: "listPets",
        handler: async () => {
          throw thrown();
        },
      },
    });
  const gone = () => {
    const controller = new AbortController();
    controller.abort();
    return new Request("http://127.0.0.1/v1/pets", { signal: controller.signal });
  };

  test("a server failure while the client is gone is still a server failure, not a client abort", async () => {
    const response = await failing(() => new TypeError("a bug of the server")).GET(gone());
    assert.equal(response.status, 500);
  });
  test("the abort itself, or a body cut off mid-upload, is a client abort (499)", async () => {
    const request = gone();
    assert.equal((await failing(() => request.signal.reason).GET(request)).status, 499);
    const cut = Object.assign(new Error("aborted"), { code: "ECONNRESET" });
    assert.equal((await failing(() => cut).GET(gone())).status, 499);
  });
});
