import assert from "node:assert/strict";
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { describe } from "node:test";
import pg from "pg";

// Real parts for the API tests: a fresh database (a SQLite file, or a new database on the local
// PostgreSQL), the production server started as a child process on a free port, and the key tool.

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
// The server and the tools run as `npm start` runs them: compiled to dist/ by scripts/build-server.mjs
// (npm test compiles before any suite runs).
let compileChecked = false;
/** The compiled file of an entry, compiled first when dist/ is missing or older than a source. */
function compiled(entry: string): string {
  if (!compileChecked) {
    execFileSync(process.execPath, [path.join(root, "scripts/build-server.mjs"), "--if-stale"], { stdio: "inherit" });
    compileChecked = true;
  }
  return path.join(root, "dist", `${path.basename(entry, ".ts")}.js`);
}

/** The node flags production gives the server (`npm run serve`, as `npm start`), read from package.json. */
export function serverNodeFlags(): string[] {
  const { scripts } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  return scripts.serve.split(/\s+/).filter((word) => word.startsWith("--"));
}

export type TestDatabase = { provider: "sqlite" | "postgresql"; url: string; drop(): Promise<void> };

const adminUrl = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** Whether the local PostgreSQL answers; in CI its absence is a failure, never a skip. */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch (error) {
    if (process.env.CI)
      throw new Error(`PostgreSQL is required in CI but ${adminUrl} does not answer: ${String(error)}`);
    console.warn(
      `\n*** PostgreSQL at ${adminUrl} does not answer: ` +
        "the PostgreSQL tests are SKIPPED (set TEST_POSTGRES_URL). ***\n",
    );
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The databases a suite runs on: SQLite always, PostgreSQL when it answers (always in CI). */
export async function testProviders(): Promise<("sqlite" | "postgresql")[]> {
  return ["sqlite", ...((await postgresAvailable()) ? (["postgresql"] as const) : [])];
}

/** A fresh, empty database; on PostgreSQL, a copy of `template` when given. */
export async function createTestDatabase(provider: "sqlite" | "postgresql", template?: string): Promise<TestDatabase> {
  if (provider === "sqlite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "animal-store-test-"));
    return {
      provider,
      url: `file:${path.join(dir, "test.db")}`,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `animal_store_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    provider,
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** A digest of a provider's checked-in migrations: the name of its template, which changes when they do. */
function migrationsDigest(provider: TestDatabase["provider"]): string {
  const dir = path.join(root, "prisma", provider, "migrations");
  const hash = crypto.createHash("sha256");
  for (const file of fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).sort()) {
    const full = path.join(dir, file);
    if (fs.statSync(full).isFile()) hash.update(file).update("\0").update(fs.readFileSync(full)).update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}

const templates = new Map<TestDatabase["provider"], Promise<string>>();

/**
 * A database migrated by the real migrator (`npm run db:migrate`) once per set of migrations, for every test
 * process to copy: SQLite's file in the temporary folder, a PostgreSQL database made with CREATE DATABASE …
 * TEMPLATE. It is kept (the digest names it) and reused by later runs; processes that make it at once each make
 * their own and the first rename wins. Returns the SQLite file, or the PostgreSQL database's name.
 */
function template(provider: TestDatabase["provider"]): Promise<string> {
  let made = templates.get(provider);
  if (!made) {
    made = makeTemplate(provider);
    templates.set(provider, made);
  }
  return made;
}

async function makeTemplate(provider: TestDatabase["provider"]): Promise<string> {
  const name = `animal_store_template_${migrationsDigest(provider)}`;
  if (provider === "sqlite") {
    const file = path.join(os.tmpdir(), `${name}.db`);
    if (fs.existsSync(file)) return file;
    const staging = await createTestDatabase("sqlite");
    await runScript("db-migrate.ts", ["--create"], staging.url);
    const staged = staging.url.replace(/^file:/, "");
    const sqlite = new Database(staged);
    sqlite.pragma("wal_checkpoint(TRUNCATE)"); // everything in the one file that is copied
    sqlite.close();
    fs.renameSync(staged, file); // atomic: a process that finds the file finds it whole
    await staging.drop();
    return file;
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const found = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount) return name;
    const staging = await createTestDatabase("postgresql");
    await runScript("db-migrate.ts", ["--create"], staging.url);
    const stagingName = new URL(staging.url).pathname.slice(1);
    try {
      await admin.query(`ALTER DATABASE ${stagingName} RENAME TO ${name}`);
    } catch (error) {
      await staging.drop();
      if (!String(error).includes("already exists")) throw error; // another process made it first
    }
    // Templates of migrations that are gone.
    const stale = await admin.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'animal\\_store\\_template\\_%' AND datname <> $1",
      [name],
    );
    for (const { datname } of stale.rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    return name;
  } finally {
    await admin.end();
  }
}

/**
 * A fresh database with every migration applied, as `npm run db:migrate` leaves one: a copy of the template above,
 * which costs a file copy or one CREATE DATABASE instead of the schema engine's run. A test of migrating itself
 * takes `createTestDatabase`.
 */
export async function createMigratedDatabase(provider: TestDatabase["provider"]): Promise<TestDatabase> {
  const source = await template(provider);
  if (provider === "sqlite") {
    const database = await createTestDatabase("sqlite");
    const file = database.url.replace(/^file:/, "");
    fs.copyFileSync(source, file);
    fs.chmodSync(file, 0o600);
    return database;
  }
  return createTestDatabase("postgresql", source);
}

/**
 * Runs a project tool (scripts/*.ts, compiled in dist/) against a database, with `input` on its stdin;
 * resolves with its stdout.
 */
export async function runScript(
  script: string,
  args: string[],
  databaseUrl: string,
  input?: string,
  env: Record<string, string> = {},
): Promise<string> {
  return (await runScriptOutput(script, args, databaseUrl, input, env)).stdout;
}

/** Runs a tool as runScript does; resolves with its stdout and its stderr (where it names the database used). */
export async function runScriptOutput(
  script: string,
  args: string[],
  databaseUrl: string,
  input?: string,
  env: Record<string, string> = {},
): Promise<{ stdout: string; stderr: string }> {
  const running = run(process.execPath, [compiled(script), ...args], {
    cwd: root,
    env: { ...process.env, ...env, DATABASE_URL: databaseUrl },
  });
  running.child.stdin?.end(input ?? "");
  const { stdout, stderr } = await running;
  return { stdout, stderr };
}

/**
 * Creates a staff account with the staff tool, the password piped in as a user would, in a database it makes when
 * there is none yet (--create); where the tool is not the subject, scripts/harness/fixtures.ts makes one without
 * starting it.
 */
export async function createStaffWithTool(
  databaseUrl: string,
  email: string,
  password: string,
  role: "staff" | "admin" = "staff",
): Promise<string> {
  return runScript("staff.ts", ["create", email, "--role", role, "--create"], databaseUrl, `${password}\n`);
}

/**
 * Creates an API key with the key tool, in a database it makes when there is none yet (--create), and returns the
 * key it printed (alone on the last line); where the tool is not the subject, scripts/harness/fixtures.ts makes one
 * without starting it.
 */
export async function createKeyWithTool(databaseUrl: string, name = "test"): Promise<string> {
  const lines = (await runScript("key.ts", ["create", name, "--create"], databaseUrl)).trim().split("\n");
  return lines[lines.length - 1];
}

export type ListedKey = {
  id: number;
  name: string;
  for: string;
  prefix: string;
  createdBy: string;
  state: string;
  getPet30Days: number;
  lastGetPet: string;
};

/** The keys as `npm run key -- list` shows them, one object a row (its columns are 2+ spaces apart). */
export async function listKeys(databaseUrl: string): Promise<ListedKey[]> {
  const [header, ...rows] = (await runScript("key.ts", ["list"], databaseUrl)).trim().split("\n");
  assert.match(header, /^ID +NAME +FOR +PREFIX +CREATED +CREATED BY +LAST USED +STATE +GETPET 30D +LAST GETPET$/);
  return rows.map((row) => {
    const [id, name, usedFor, prefix, , createdBy, , state, getPet30Days, lastGetPet] = row.split(/ {2,}/);
    return {
      id: Number(id),
      name,
      for: usedFor,
      prefix,
      createdBy,
      state,
      getPet30Days: Number(getPet30Days),
      lastGetPet,
    };
  });
}

/** The admin app's keys that are active: there must never be more than one. */
export async function activeAdminAppKeys(databaseUrl: string): Promise<ListedKey[]> {
  return (await listKeys(databaseUrl)).filter((key) => key.for === "admin app" && key.state === "active");
}

/** A port no one listens on right now, from the OS. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export type Entry = "custom" | "next";

/** `describe` through the given entry; through the other, nothing: for what one entry's run covers for both. */
export function onlyThrough(entry: Entry, wanted: Entry): (name: string, suite: () => void) => void {
  return entry === wanted ? (name, suite) => void describe(name, suite) : () => {};
}

export type RunningServer = {
  baseUrl: string;
  logs: () => string;
  stop: () => Promise<void>;
  pid: number;
  /** Closes this side of the server's stdout and stderr, as when whatever started it has ended. */
  closeOutput: () => void;
};

/**
 * The servers this process started and has not seen exit: killed, and named on stderr, when the process exits
 * (a Playwright worker torn down, a tool's error). A node:test file that loses one (say, two started at once and
 * one failed) does not exit at all, its pipes held open: its job's time limit (scripts/harness/jobs.ts) kills it.
 * Not --test-force-exit: it ends a file whose describe blocks are declared after a top-level await (most of ours)
 * before they run, and reports the few that ran as a pass.
 */
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) {
    console.error(`✖ a server left running (pid ${child.pid}) was killed at exit: a test did not stop it`);
    child.kill("SIGKILL");
  }
});

/**
 * Starts the production build. "custom" is server.ts (what npm start runs: /v1 straight to the route
 * modules); "next" is plain `next start`, the framework's own entry to the same route modules.
 */
export async function startServer(
  entry: Entry,
  databaseUrl: string,
  env: Record<string, string> = {},
  /** Called with the output so far each time the starting server writes some. */
  whileStarting?: (output: string) => void,
): Promise<RunningServer> {
  const port = entry === "custom" ? 0 : await freePort();
  const baseEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    HOST: "127.0.0.1",
    PORT: String(port),
    DEMO_SEED: "off",
    NEXT_TELEMETRY_DISABLED: "1",
    ...env,
  };
  if (entry === "next") await runScript("db-migrate.ts", ["--create"], databaseUrl); // as server.ts's first start
  const args =
    entry === "custom"
      ? [...serverNodeFlags(), compiled("server.ts")]
      : [path.join(root, "node_modules/next/dist/bin/next"), "start", "-H", "127.0.0.1", "-p", String(port)];
  const child = spawn(process.execPath, args, { cwd: root, env: baseEnv, stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  child.once("exit", () => running.delete(child));
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));

  const watch = () => whileStarting?.(output);
  child.stdout.on("data", watch);
  child.stderr.on("data", watch);
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL"); // not left running by a start that failed
      reject(new Error(`server did not start in 60 s:\n${output}`));
    }, 60_000);
    const check = () => {
      const match = /listening on (http:\/\/[^\s]+)|Local:\s+(http:\/\/[^\s]+)|Ready in/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] ?? `http://127.0.0.1:${port}`);
      }
    };
    child.stdout.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output}`));
    });
  });
  child.stdout.off("data", watch);
  child.stderr.off("data", watch);
  const closeOutput = () => {
    child.stdout.destroy();
    child.stderr.destroy();
  };
  return { baseUrl, logs: () => output, stop: () => stopProcess(child), pid: child.pid!, closeOutput };
}

/** Starts `count` servers at once on one database; if one fails, those that started are stopped before the throw. */
export async function startServers(
  count: number,
  entry: Entry,
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<RunningServer[]> {
  const started = await Promise.allSettled(Array.from({ length: count }, () => startServer(entry, databaseUrl, env)));
  const servers = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const failure = started.find((result) => result.status === "rejected");
  if (!failure) return servers;
  await Promise.all(servers.map((server) => server.stop()));
  throw failure.reason;
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}
