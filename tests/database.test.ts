import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import Database from "better-sqlite3";
import { databaseConfig } from "@/lib/config";
import { createDatabase, type Database as Client } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { call } from "@/scripts/harness/http";
import { createMigratedDatabase, startServer, type RunningServer } from "@/scripts/harness/servers";

// The SQLite connection Prisma's adapter shares between all requests of a process (lib/db/sqlite-adapter.ts), and a
// server starting while another process writes to its file.

describe("the SQLite connection", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "animal-store-db-"));
  const config = databaseConfig(`file:${path.join(dir, "test.db")}`);
  let db: Client;

  before(async () => {
    await migrate(config);
    db = createDatabase(config);
  });

  after(async () => {
    await db.$disconnect();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("a write outside a transaction is never taken along by another request's rollback", async () => {
    const db = createDatabase(config); // a client of its own: the first transaction of a fresh client
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const failing = db.$transaction(async (tx) => {
      await tx.pet.create({ data: { name: "Rolled back", categoryId: 1n } });
      await held;
      throw new Error("roll back");
    });
    await new Promise((resolve) => setTimeout(resolve, 50)); // the transaction is open and has written
    // One statement with no transaction of its own, as most writes are; it may not run before the
    // rollback (it would then be undone with it), so it is given time and then the rollback goes ahead.
    // The .then() is there because Prisma queries start on then().
    const plain = db.pet.create({ data: { name: "Answered", categoryId: 2n } }).then((pet) => pet);
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    await assert.rejects(failing, /roll back/);
    await plain;
    assert.equal(await db.pet.count({ where: { name: "Answered" } }), 1, "the plain create survived the rollback");
    assert.equal(await db.pet.count({ where: { name: "Rolled back" } }), 0);
    await db.$disconnect();
  });

  test("the connection runs in the configured synchronous mode: NORMAL by default, FULL on request", async () => {
    // The pragma is per connection, so it is read through the same wrapper on fresh clients.
    for (const [synchronous, expected] of [
      ["normal", 1],
      ["full", 2],
    ] as const) {
      const probe = createDatabase({ ...config, synchronous } as typeof config);
      const rows = await probe.$queryRawUnsafe<{ synchronous: number | bigint }[]>("PRAGMA synchronous");
      assert.equal(Number(rows[0].synchronous), expected, synchronous);
      await probe.$disconnect();
    }
  });

  test("the file is in WAL mode", () => {
    const sqlite = new Database(config.provider === "sqlite" ? config.file : "", { readonly: true });
    assert.equal(sqlite.pragma("journal_mode", { simple: true }), "wal");
    sqlite.close();
  });
});

describe("starting beside another process's write", () => {
  test("a server that finds the SQLite file's write lock held waits for it, then starts", async () => {
    const database = await createMigratedDatabase("sqlite");
    // Another process's write transaction (a second instance starting, a tool), held until the server says it was
    // refused and will try again: a statement waits only the busy timeout (250 ms) for the lock.
    const holder = new Database(database.url.replace(/^file:/, ""));
    holder.exec("BEGIN IMMEDIATE");
    const release = () => holder.inTransaction && holder.exec("COMMIT");
    const failSafe = setTimeout(release, 20_000);
    let server: RunningServer | undefined;
    try {
      server = await startServer("custom", database.url, {}, (output) => {
        if (output.includes("the database file is busy: start-up tries again")) release();
      });
      assert.match(server.logs(), /the database file is busy: start-up tries again/);
      assert.equal((await call(server.baseUrl, "GET", "/healthz")).status, 200);
    } finally {
      clearTimeout(failSafe);
      release();
      holder.close();
      await server?.stop();
      await database.drop();
    }
  });
});
