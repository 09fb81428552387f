import "server-only";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { config, type DatabaseConfig } from "@/lib/config";
import { withSqliteAdapter } from "@/lib/db/sqlite-adapter";
import { flushEvents, openOutbox } from "@/lib/events/outbox";
import { privateSqliteFiles } from "@/lib/private-files";
import { PrismaClient as PostgresClient } from "@/lib/generated/postgresql/client";
import { PrismaClient as SqliteClient, type Prisma } from "@/lib/generated/sqlite/client";

// Both generated clients share one model file, so their model types are interchangeable; the
// SQLite client's type stands for both. Provider-only query arguments must be tested on both.
export type Database = SqliteClient;
/** The client inside an interactive transaction; `db()` itself is one too, for work outside a transaction. */
export type Transaction = Prisma.TransactionClient;

type Opened = { client: Database; pool?: pg.Pool };

/**
 * better-sqlite3's `timeout`, SQLite's busy timeout: how long a statement waits for a lock another process holds
 * (the key and staff tools share the file). SQLite waits by sleeping on the calling thread, which is the event
 * loop's: while it waits, the server answers nothing at all, /healthz included. Short, so that a lock held by a
 * tool costs the one request a 503 (SQLITE_BUSY is retryable, lib/db/errors.ts) rather than freezing every
 * request for seconds; the tools' own writes last milliseconds.
 */
const SQLITE_BUSY_TIMEOUT_MS = 250;

function open(database: DatabaseConfig): Opened {
  if (database.provider === "sqlite") {
    privateSqliteFiles(database.file); // usually done already by migrate(), the file's first opener
    const adapter = withSqliteAdapter(
      new PrismaBetterSqlite3({ url: database.file, timeout: SQLITE_BUSY_TIMEOUT_MS }),
      database.synchronous,
    );
    const client = new SqliteClient({ adapter });
    providers.set(client, "sqlite");
    return { client };
  }
  // Bounded waits: when PostgreSQL is away, requests fail fast with 503 instead of hanging. The pool is
  // ours rather than the adapter's so that its use can be read (lib/metrics); the client still ends it.
  const pool = new pg.Pool({
    connectionString: database.url,
    max: 10,
    connectionTimeoutMillis: 3000,
    query_timeout: 5000,
    statement_timeout: 5000,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
  });
  const adapter = new PrismaPg(pool, { disposeExternalPool: true });
  const client = new PostgresClient({ adapter }) as unknown as Database;
  providers.set(client, "postgresql");
  return { client, pool };
}

// Which database each client talks to, for the few statements written differently on each. On globalThis, as the
// client itself (see db()): Next's bundles and the custom server each have their own copy of this module.
const providers = ((
  globalThis as typeof globalThis & { __animalStoreProviders?: WeakMap<Database, string> }
).__animalStoreProviders ??= new WeakMap()) as WeakMap<Database, DatabaseConfig["provider"]>;

/** The provider of a client made by `db()` or `createDatabase`. */
export function providerOf(client: Database): DatabaseConfig["provider"] {
  const provider = providers.get(client);
  if (!provider) throw new Error("not a client of lib/db/client");
  return provider;
}

/**
 * The provider whose SQL a statement on `client` must be written in: a client made here, or a transaction begun by
 * transaction(), knows its own; anything else (a transaction begun by `$transaction` itself) is taken to be `db()`'s,
 * which is the process's own database (config()) except while withDatabase lends `db()` to another.
 */
export function dialect(client?: Database | Transaction): DatabaseConfig["provider"] {
  return (client && providers.get(client as Database)) ?? providerOf(db());
}

/** A new client for the given database; most code wants `db()`, the one client of the process. */
export function createDatabase(database: DatabaseConfig): Database {
  return open(database).client;
}

// One client per process, kept on globalThis so that every module graph of the process (Next's
// bundles, the custom server, dev-mode reloads) shares it instead of opening another pool.
const holder = globalThis as typeof globalThis & { __animalStoreDatabase?: Opened };

export function db(): Database {
  holder.__animalStoreDatabase ??= open(config().database);
  return holder.__animalStoreDatabase.client;
}

let swapped = false;

/**
 * Runs `work` with `db()` answering for another database, then closes that client and puts the process's own back.
 * For the test harness, which makes its fixtures (a key, a staff account) with the tools' own store functions in the
 * test process instead of starting a tool. Nothing else may use `db()` while `work` runs, and `config()` still
 * answers for the process's own database: the statements written per database follow `dialect()`, which follows
 * `db()`, but the few that still ask `config()` (status counts, orders' and staff's row locks) would take the wrong
 * one's, so keep `work` to what the fixtures need. Not reentrant.
 */
export async function withDatabase<T>(database: DatabaseConfig, work: () => Promise<T>): Promise<T> {
  if (swapped) throw new Error("withDatabase is already running: it cannot be nested or run twice at once");
  const own = holder.__animalStoreDatabase;
  const opened = open(database);
  swapped = true;
  holder.__animalStoreDatabase = opened;
  try {
    return await work();
  } finally {
    holder.__animalStoreDatabase = own;
    swapped = false;
    await opened.client.$disconnect();
  }
}

/** How long a transaction may wait for a connection (`maxWait`), and last once it has one (`timeout`). */
export type TransactionBounds = { maxWait: number; timeout: number };

// Above the pool's connectionTimeoutMillis: waiting for a connection gives up first, and is answered 503.
const TRANSACTION_BOUNDS: TransactionBounds = { maxWait: 4000, timeout: 8000 };

/**
 * Runs `work` in one interactive transaction of `database` (by default `db()`): committed when it returns, rolled
 * back when it throws. The events its changes recorded (lib/events/outbox.ts) are written after `work`, the last
 * statements before the commit.
 */
export function transaction<T>(
  work: (tx: Transaction) => Promise<T>,
  bounds: TransactionBounds = TRANSACTION_BOUNDS,
  database: Database = db(),
): Promise<T> {
  return database.$transaction(async (tx) => {
    providers.set(tx as Database, providerOf(database));
    openOutbox(tx);
    const result = await work(tx);
    await flushEvents(tx);
    return result;
  }, bounds);
}

/** The connection pool behind `db()` on PostgreSQL; undefined on SQLite (one connection) or before `db()`. */
export function connectionPool(): pg.Pool | undefined {
  return holder.__animalStoreDatabase?.pool;
}
