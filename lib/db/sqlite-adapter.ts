import "server-only";
import type { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import type {
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
  Transaction,
} from "@prisma/driver-adapter-utils";
import type BetterSqlite3 from "better-sqlite3";
import type { SqliteSynchronous } from "@/lib/config";

// Prisma's better-sqlite3 adapter, made safe and cheap. It runs every query of the process on one
// connection, and its transactions only wait for each other: a query of another request that arrived
// while a transaction was open ran inside that transaction, saw its uncommitted rows, and was undone
// with it on a rollback — after its own request had been answered. This wrapper:
// - holds every query outside a transaction until the open transaction has committed or rolled back, and lets
//   the next waiter go on only in the event loop's next turn, so that other requests are read in between;
// - sets SQLite's synchronous mode as configured (SQLITE_SYNCHRONOUS): NORMAL, the default, keeps every
//   answered commit through a crash of the process (WAL), and only the last ones can be lost if the
//   machine itself loses power; FULL syncs each commit to disk before it is answered, at the price of
//   one fsync per write (the figure: docs/operators.md, Database and migrations);
// - prepares each distinct SQL text once and reuses the statement (profiled, preparing every query anew
//   was a tenth of a /v1 request's CPU), passing the arguments per call instead of binding them for good.
// The statement cache relies on the adapter keeping its connection in `client` (adapter 7.10, pinned by
// the lockfile); if that ever changes, the adapter simply runs uncached.

type Statement = BetterSqlite3.Statement<unknown[]>;
const CACHE_LIMIT = 500;
// A statement's columns never change; the adapter asks for them on every query.
const columnsOf = new WeakMap<Statement, BetterSqlite3.ColumnDefinition[]>();

/** A cached statement with its arguments: what the adapter gets from `prepare(sql).bind(args)`. */
class BoundStatement {
  constructor(
    private readonly statement: Statement,
    private readonly args: unknown[] = [],
  ) {}
  get reader() {
    return this.statement.reader;
  }
  bind(args: unknown[]) {
    return new BoundStatement(this.statement, args);
  }
  columns() {
    let columns = columnsOf.get(this.statement);
    if (!columns) {
      columns = this.statement.columns();
      columnsOf.set(this.statement, columns);
    }
    return columns;
  }
  raw(toggle = true) {
    this.statement.raw(toggle);
    return this;
  }
  run() {
    return this.statement.run(...this.args);
  }
  all() {
    return this.statement.all(...this.args);
  }
  get() {
    return this.statement.get(...this.args);
  }
}

function cacheStatements(client: BetterSqlite3.Database): void {
  const prepare = client.prepare.bind(client) as (sql: string) => Statement;
  const cache = new Map<string, Statement>();
  (client as unknown as { prepare: (sql: string) => BoundStatement }).prepare = (sql: string) => {
    let statement = cache.get(sql);
    if (!statement) {
      if (cache.size >= CACHE_LIMIT) cache.clear();
      statement = prepare(sql);
      cache.set(sql, statement);
    }
    return new BoundStatement(statement);
  };
}

/** Keeps queries outside a transaction from running while one is open on the shared connection. */
function isolateTransactions(adapter: SqlDriverAdapter): void {
  // Settles when the open transaction ends. Every wait below re-checks it in the same synchronous step
  // as the work it guards, so nothing can begin in between.
  let open: Promise<void> | undefined;
  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (isolationLevel) => {
    while (open) await open;
    let end!: () => void;
    const mine = new Promise<void>((resolve) => (end = resolve));
    open = mine;
    // The next transaction or query waiting goes on in the event loop's next turn, not in this one's microtasks:
    // handed over at once, a queue of transactions ran back to back without ever returning to the event loop
    // (Prisma's steps and better-sqlite3's calls are all promises and synchronous work), so no other request,
    // not even /healthz or a new connection, was read until the whole queue had drained
    // (docs/decisions/001-sqlite-writes-yield.md).
    const finish = () =>
      setImmediate(() => {
        if (open === mine) open = undefined;
        end();
      });
    let transaction: Transaction;
    try {
      transaction = await startTransaction(isolationLevel);
    } catch (error) {
      finish();
      throw error;
    }
    // Prisma sends COMMIT or ROLLBACK through the transaction, then calls commit() or rollback().
    const commit = transaction.commit.bind(transaction);
    const rollback = transaction.rollback.bind(transaction);
    transaction.commit = () => commit().finally(finish);
    transaction.rollback = () => rollback().finally(finish);
    return transaction;
  };
  for (const method of ["queryRaw", "executeRaw", "executeScript"] as const) {
    const run = (adapter[method] as (argument: never) => Promise<unknown>).bind(adapter);
    // Once called, the adapter runs the query synchronously: it cannot land inside a later transaction.
    (adapter as unknown as Record<string, (argument: never) => Promise<unknown>>)[method] = async (argument) => {
      while (open) await open;
      return run(argument);
    };
  }
}

/**
 * SQL functions of our own. `contains_folded(text, fragment)`: whether the text, lower-cased as JavaScript does
 * it (Unicode-aware), contains the fragment, given lower-cased. SQLite's LIKE folds ASCII letters only, so a
 * search for a short non-ASCII fragment (`é`) uses this to ignore case as every other search does.
 */
function addFunctions(client: BetterSqlite3.Database): void {
  client.function("contains_folded", { deterministic: true }, (text: unknown, fragment: unknown) =>
    typeof text === "string" && typeof fragment === "string" && text.toLowerCase().includes(fragment) ? 1 : 0,
  );
}

export function withSqliteAdapter(
  factory: PrismaBetterSqlite3,
  synchronous: SqliteSynchronous,
): SqlMigrationAwareDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => {
      const adapter = await factory.connect();
      const client = (adapter as unknown as { client?: BetterSqlite3.Database }).client;
      if (client && typeof client.prepare === "function") {
        client.pragma(`synchronous = ${synchronous === "full" ? "FULL" : "NORMAL"}`);
        cacheStatements(client);
        addFunctions(client);
      }
      isolateTransactions(adapter);
      return adapter;
    },
    connectToShadowDb: () => factory.connectToShadowDb(),
  };
}
