// Does this Node survive V8 collecting better-sqlite3 12 databases (nodejs/node#65446)? Opens 3,000 databases, half
// in memory and half in files; every third is closed, the others are dropped for the collector. Prints "ok" and
// exits 0 when the process survives; the bug aborts it ("Assertion failed: (env) != nullptr", exit status 134).
// A forced gc() from JavaScript does not show the bug (the collection runs with a context entered): only a
// collection V8 starts on its own or `gc({ execution: "async" })` does. How it was run: docs/operators.md.
//
//   node --expose-gc scripts/sqlite-gc-probe.mjs [sync|async|alloc|exit|prisma-sync|prisma-async]
//
//   sync    gc() every 100 databases          async  gc({ type: "major", execution: "async" }) instead
//   alloc   no forced collection: garbage and timers, V8 decides (no --expose-gc needed)
//   exit    1,000 databases, two thirds left open, then a natural exit
//   prisma-sync, prisma-async  the same through @prisma/adapter-better-sqlite3: connect, query, dispose or drop
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const mode = process.argv[2] ?? "sync";
const count = mode === "exit" ? 1000 : 3000;
const collect = async () => {
  if (mode.endsWith("async")) await globalThis.gc({ type: "major", execution: "async" });
  else if (mode.endsWith("sync")) globalThis.gc();
  else await new Promise((resolve) => setTimeout(resolve, 1));
};
if (mode !== "alloc" && mode !== "exit" && typeof globalThis.gc !== "function") throw new Error("needs --expose-gc");

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlite-gc-probe-"));
const file = (i) => path.join(dir, `db-${i}.sqlite`);
const kept = [];
for (let i = 0; i < count; i++) {
  const close = i % 3 === 0;
  if (mode.startsWith("prisma")) {
    const factory = new PrismaBetterSqlite3({ url: i % 2 ? ":memory:" : `file:${file(i)}` });
    const adapter = await factory.connect();
    await adapter.executeScript("CREATE TABLE t (x INTEGER)");
    await adapter.queryRaw({ sql: "SELECT count(*) AS n FROM t", args: [], argTypes: [] });
    if (close) await adapter.dispose();
  } else {
    const db = new Database(i % 2 ? ":memory:" : file(i));
    db.exec("CREATE TABLE t (x INTEGER)");
    db.prepare("INSERT INTO t VALUES (?)").run(i);
    db.prepare("SELECT count(*) AS n FROM t").get();
    if (close) db.close();
    else if (mode === "exit") kept.push(db);
  }
  if (mode === "alloc") Array.from({ length: 2000 }, (_, k) => ({ k, s: "x".repeat(50) }));
  if (i % 100 === 99 && mode !== "exit") await collect();
}
if (mode !== "exit") await collect();
fs.rmSync(dir, { recursive: true, force: true });
console.log(`ok: ${mode}, ${count} databases, Node ${process.version}`);
