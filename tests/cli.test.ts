import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import {
  createMigratedDatabase,
  postgresAvailable,
  runScript,
  runScriptOutput,
  type TestDatabase,
} from "@/scripts/harness/servers";

// The command-line tools as compiled to dist/ and run by npm: --help for each tool and each command prints the
// usage to stdout and exits 0 having touched nothing; an unknown command, a missing or an extra argument, or an
// unknown option exits 2 with one line naming what was wrong. The tools that open the database refuse a SQLite
// file that does not exist unless --create asks for it, name the database they used on stderr, and say in one line
// what to check when PostgreSQL cannot be reached or refuses.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "animal-store-cli-"));
const dbFile = path.join(dir, "cli.db");
const databaseUrl = `file:${dbFile}`;
after(() => fs.rmSync(dir, { recursive: true, force: true }));

type Failure = Error & { code?: number; stdout?: string; stderr?: string };

async function refused(work: Promise<unknown>): Promise<Failure> {
  try {
    await work;
  } catch (error) {
    return error as Failure;
  }
  assert.fail("expected the command to fail");
}

const tools: [string, string, string[]][] = [
  ["key.ts", "npm run key", ["create", "list", "revoke"]],
  ["staff.ts", "npm run staff", ["create", "list", "disable", "enable", "role", "reset-password", "unlock"]],
  ["webhook.ts", "npm run webhook", ["create", "list", "disable", "enable", "delete", "rotate-secret"]],
  ["db-migrate.ts", "npm run db:migrate", []],
  ["db-reset-demo.ts", "npm run db:reset-demo", []],
  ["db-diff.ts", "npm run db:diff", []],
];

/** The tools that open the database, each with a command that only reads (or, db:migrate, applies nothing new). */
const opening: [string, string[]][] = [
  ["key.ts", ["list"]],
  ["staff.ts", ["list"]],
  ["webhook.ts", ["list"]],
  ["db-migrate.ts", []],
  ["db-reset-demo.ts", []],
];
const createHelp = /^ {2}--create {2}Makes the SQLite database if DATABASE_URL's file does not exist/m;

const migrations = () =>
  ["sqlite", "postgresql"].flatMap((provider) => fs.readdirSync(path.join("prisma", provider, "migrations")));

describe("--help", () => {
  for (const [script, run, commands] of tools) {
    for (const flag of ["--help", "-h"]) {
      test(`${script} ${flag} prints the usage to stdout and exits 0, touching nothing`, async () => {
        const before = migrations();
        const output = await runScript(script, [flag], databaseUrl);
        assert.match(output, new RegExp(`^usage: ${run}( |$)`, "m"));
        for (const command of commands) assert.match(output, new RegExp(`^  ${command}\\b`, "m"), command);
        assert.equal(createHelp.test(output), script !== "db-diff.ts", "--create, for the tools opening the database");
        assert.equal(fs.existsSync(dbFile), false, "no database was made");
        assert.deepEqual(migrations(), before, "no migration was written");
      });
    }
    for (const command of commands) {
      test(`${script} ${command} --help, and help ${command}, print that command's usage and exit 0`, async () => {
        for (const args of [
          [command, "--help"],
          [command, "-h"],
          ["help", command],
          [command, "x", "--help"],
        ]) {
          const output = await runScript(script, args, databaseUrl);
          assert.match(output.split("\n")[0], new RegExp(`^usage: ${run} -- ${command}\\b`), args.join(" "));
          assert.match(output, createHelp, args.join(" "));
        }
        assert.equal(fs.existsSync(dbFile), false, "no database was made");
      });
    }
  }
});

const usageErrors: [string, string[], string][] = [
  ["key.ts", ["revok"], "unknown command 'revok'; commands: create, list, revoke (npm run key -- --help)"],
  ["key.ts", [], "a command is needed; commands: create, list, revoke (npm run key -- --help)"],
  ["key.ts", ["revoke"], "revoke needs a key id or prefix; usage: npm run key -- revoke <id or prefix>"],
  ["key.ts", ["create"], "create needs a name for the key; usage: npm run key -- create <name>"],
  [
    "key.ts",
    ["create", "a", "b"],
    'create takes one name; quote a name with spaces: "a b"; usage: npm run key -- create <name>',
  ],
  [
    "key.ts",
    ["revoke", "12", "13"],
    "revoke takes one key id or prefix; got '12', '13'; usage: npm run key -- revoke <id or prefix>",
  ],
  ["key.ts", ["list", "all"], "list takes no arguments; got 'all'; usage: npm run key -- list"],
  ["key.ts", ["list", "--all"], "unknown option '--all'; usage: npm run key -- list"],
  [
    "key.ts",
    ["create", "a\u0007bell", "--create"],
    "Invalid key name: name must contain printable characters only (no tabs or line breaks).",
  ],
  [
    "staff.ts",
    ["delete", "a@animal-store.example"],
    "unknown command 'delete'; commands: create, list, disable, enable, role, reset-password, unlock " +
      "(npm run staff -- --help)",
  ],
  ["staff.ts", ["disable"], "disable needs the account's email; usage: npm run staff -- disable <email>"],
  [
    "staff.ts",
    ["disable", "a@animal-store.example", "b@animal-store.example"],
    "disable takes one email; got 'a@animal-store.example', 'b@animal-store.example'; " +
      "usage: npm run staff -- disable <email>",
  ],
  ["staff.ts", ["role"], "role needs an email and a role; usage: npm run staff -- role <email> <staff|admin>"],
  [
    "staff.ts",
    ["role", "a@animal-store.example", "admin", "now"],
    "role takes an email and a role; got also 'now'; usage: npm run staff -- role <email> <staff|admin>",
  ],
  [
    "staff.ts",
    ["create", "a@animal-store.example", "--role"],
    "option '--role <value>' argument missing; usage: npm run staff -- create <email> [--role staff|admin]",
  ],
  ["staff.ts", ["create", "a@animal-store.example", "--role", "owner"], '--role is staff or admin, not "owner".'],
  [
    "staff.ts",
    ["unlock", "a@animal-store.example", "--role", "admin"],
    "unknown option '--role'; usage: npm run staff -- unlock <email>",
  ],
  ["db-migrate.ts", ["now"], "db:migrate takes no arguments; got 'now'; usage: npm run db:migrate"],
  ["db-reset-demo.ts", ["--force"], "unknown option '--force'; usage: npm run db:reset-demo"],
  [
    "db-diff.ts",
    [],
    "db:diff needs the new migration's name, in snake_case; usage: npm run db:diff -- <migration_name> " +
      "[--from <git revision>]",
  ],
  [
    "db-diff.ts",
    ["add", "categories"],
    "db:diff takes one migration name; got 'add', 'categories'; usage: npm run db:diff -- <migration_name> " +
      "[--from <git revision>]",
  ],
  ["db-diff.ts", ["Add-Categories"], 'The migration name is snake_case (a-z, 0-9, _), not "Add-Categories".'],
  [
    "db-diff.ts",
    ["add_categories", "--create"],
    "unknown option '--create'; usage: npm run db:diff -- <migration_name> [--from <git revision>]",
  ],
];

describe("usage errors exit 2 with one line naming what was wrong", () => {
  for (const [script, args, message] of usageErrors) {
    test(`${script} ${args.join(" ") || "(nothing)"}`, async () => {
      const before = migrations();
      const failure = await refused(runScript(script, args, databaseUrl));
      assert.equal(failure.code, 2, failure.stderr);
      assert.equal(failure.stderr!.trim(), message);
      assert.equal(failure.stdout, "");
      assert.equal(fs.existsSync(dbFile), false, "no database was made");
      assert.deepEqual(migrations(), before, "no migration was written");
    });
  }
});

/** The lines of a tool's stderr that name the database it used. */
const databaseLines = (stderr: string) => stderr.split("\n").filter((line) => line.startsWith("Database: "));

describe("a SQLite file that does not exist is refused, unless --create", () => {
  const folder = path.join(dir, "not-yet");
  const file = path.join(folder, "store.db");
  const howToMake =
    "nothing was created. Check DATABASE_URL, or make a new database: run this again with --create, or start the " +
    "server once (npm start).";

  for (const [script, args] of opening) {
    test(`${script} ${args.join(" ")}: exit 2, one line naming the file, no file or folder made`, async () => {
      // Relative, as DATABASE_URL's default is: the refusal names the file it looked for, absolute.
      const failure = await refused(runScript(script, args, `file:${path.relative(process.cwd(), file)}`));
      assert.equal(failure.code, 2, failure.stderr);
      assert.equal(failure.stdout, "");
      assert.equal(failure.stderr!.trim(), `No SQLite database at ${file} (nor its folder ${folder}); ${howToMake}`);
      assert.equal(fs.existsSync(folder), false, "no folder was made");
    });
  }

  test("in a folder that exists, the refusal names the file", async () => {
    const absent = path.join(dir, "absent.db");
    const failure = await refused(runScript("key.ts", ["create", "first"], `file:${absent}`));
    assert.equal(failure.code, 2, failure.stderr);
    assert.equal(failure.stderr!.trim(), `No SQLite database at ${absent}; ${howToMake}`);
    assert.equal(fs.existsSync(absent), false, "no file was made");
  });

  test("--create makes it and says so on stderr; then each tool names it there once", async () => {
    const created = await runScriptOutput("key.ts", ["create", "first", "--create"], `file:${file}`);
    assert.deepEqual(databaseLines(created.stderr), [`Database: ${file} (SQLite, new: made by --create)`]);
    assert.match(created.stdout.trim().split("\n").at(-1)!, /^ask_[\w-]{32}$/, "the key alone on stdout's last line");
    assert.ok(fs.existsSync(file), "the file was made");

    for (const [script, args] of opening) {
      const { stdout, stderr } = await runScriptOutput(script, args, `file:${file}`);
      assert.deepEqual(databaseLines(stderr), [`Database: ${file} (SQLite)`], script);
      assert.ok(!stdout.includes("Database: "), `${script}: stdout is the command's own`);
    }
    const again = await runScriptOutput("db-migrate.ts", ["--create"], `file:${file}`);
    assert.equal(again.stdout, `${file} is up to date.\n`, "--create on a database that exists changes nothing");
    assert.deepEqual(databaseLines(again.stderr), [`Database: ${file} (SQLite)`]);
  });
});

const postgres = await postgresAvailable();

describe("PostgreSQL that cannot be reached, or refuses, is one line saying what to check", () => {
  const password = "s3cret-in-the-url";
  for (const [script, args] of opening) {
    test(`${script} ${args.join(" ")}: nothing listening at 127.0.0.1:1: exit 1, no password`, async () => {
      const url = `postgresql://animal:${password}@127.0.0.1:1/animal_store`;
      const failure = await refused(runScript(script, [...args, "--create"], url));
      assert.equal(failure.code, 1, failure.stderr);
      assert.equal(failure.stdout, "");
      assert.equal(
        failure.stderr!.trim(),
        "Error: cannot reach PostgreSQL at 127.0.0.1:1/animal_store (connection refused): check that PostgreSQL is " +
          "running and accepts connections at that host and port (DATABASE_URL's).",
      );
      assert.ok(!failure.stderr!.includes(password), "the password is not shown");
    });
  }

  describe("on the local server", { skip: !postgres }, () => {
    let database: TestDatabase;
    let url: URL;
    let where: string;
    before(async () => {
      database = await createMigratedDatabase("postgresql");
      url = new URL(database.url);
      where = `${url.hostname}:${url.port || "5432"}`;
    });
    after(async () => database?.drop());

    test("the database used is named on stderr without the password", async () => {
      const { stdout, stderr } = await runScriptOutput("key.ts", ["list"], database.url);
      const user = url.username ? `${decodeURIComponent(url.username)}@` : "";
      assert.deepEqual(databaseLines(stderr), [`Database: postgresql://${user}${where}${url.pathname}`]);
      assert.doesNotMatch(stderr, /:[^@/\s]*@/, "no user:password@");
      assert.match(stdout, /^No API keys\./);
    });

    test("a database that does not exist: exit 1, naming it, --create or not", async () => {
      const absent = new URL(database.url);
      const name = `${url.pathname.slice(1)}_absent`;
      absent.pathname = `/${name}`;
      for (const args of [["list"], ["list", "--create"]]) {
        const failure = await refused(runScript("key.ts", args, absent.toString()));
        assert.equal(failure.code, 1, failure.stderr);
        assert.equal(
          failure.stderr!.trim(),
          `Error: PostgreSQL at ${where}/${name} has no database "${name}": check the name in DATABASE_URL, or ` +
            `create the database first (createdb ${name}); the tools and the server make its tables, not the database.`,
        );
      }
    });

    test("a user the server does not know: exit 1, naming the user and what to check, no password", async () => {
      const stranger = new URL(database.url);
      stranger.username = "animal_store_nobody";
      stranger.password = password;
      const failure = await refused(runScript("staff.ts", ["list"], stranger.toString()));
      assert.equal(failure.code, 1, failure.stderr);
      const line = failure.stderr!.trim();
      const refusal = `Error: PostgreSQL at ${where}${url.pathname} refused user "animal_store_nobody" (`;
      assert.ok(line.startsWith(refusal), line);
      assert.match(line, /: check the user and password in DATABASE_URL, and that the server lets that user connect/);
      assert.ok(!line.includes(password), "the password is not shown");
    });
  });
});

describe("arguments that are right still work", () => {
  before(() => runScript("db-migrate.ts", ["--create"], databaseUrl));

  test("a quoted name with spaces is one name; revoking twice says it already was", async () => {
    const created = await runScript("key.ts", ["create", "a b"], databaseUrl);
    const id = /^Created API key (\d+) "a b" \(prefix /.exec(created)?.[1];
    assert.ok(id, created);
    assert.match(await runScript("key.ts", ["revoke", id], databaseUrl), /^Revoked API key \d+ "a b"/);
    assert.match(await runScript("key.ts", ["revoke", id], databaseUrl), /was already revoked on .*; nothing changed/);
  });

  test("staff create with --role in either place, and disable twice says already", async () => {
    const password = "a long enough password\n";
    for (const args of [
      ["create", "--role", "admin", "first@animal-store.example"],
      ["create", "second@animal-store.example", "--role=staff"],
    ])
      assert.match(await runScript("staff.ts", args, databaseUrl, password), /^Created (admin|staff) account/);
    assert.match(await runScript("staff.ts", ["disable", "second@animal-store.example"], databaseUrl), /^Disabled/);
    assert.match(
      await runScript("staff.ts", ["disable", "second@animal-store.example"], databaseUrl),
      /is already disabled; nothing changed/,
    );
  });
});
