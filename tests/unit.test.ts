import assert from "node:assert/strict";
import path from "node:path";
import { describe, test } from "node:test";
import { parseJson, stringifyJson } from "@/lib/http/json";
import { INT64_MAX, INT64_MIN } from "@/lib/http/int64";
import { stringifyPet, stringifyPets } from "@/lib/pets/json";
import { fieldErrors } from "@/lib/http/validation";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import { ConfigError, readConfig } from "@/lib/config";
import { listPetsQuerySchema, newPetSchema, petIdSchema } from "@/lib/pets/schema";

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

  const bad: [Record<string, string>, RegExp][] = [
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
