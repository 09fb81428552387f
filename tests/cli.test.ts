import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { runScript } from "@/scripts/harness/servers";

// The command-line tools as compiled to dist/ and run by npm: --help for each tool and each command prints the
// usage to stdout and exits 0 having touched nothing; an unknown command, a missing or an extra argument, or an
// unknown option exits 2 with one line naming what was wrong.

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
  ["db-migrate.ts", "npm run db:migrate", []],
  ["db-reset-demo.ts", "npm run db:reset-demo", []],
  ["db-diff.ts", "npm run db:diff", []],
];

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

describe("arguments that are right still work", () => {
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
