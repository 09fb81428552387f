import type { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type BetterSqlite3 from "better-sqlite3";

// Prisma's better-sqlite3 adapter prepares every statement anew, for every query: profiled, that was a
// tenth of a /v1 request's CPU. This wraps the adapter's connection so each distinct SQL text is
// prepared once and its statement reused, the arguments passed per call instead of bound for good.
// It relies on the adapter keeping its connection in `client` (adapter 7.10, pinned by the lockfile);
// if that ever changes, the adapter is left as it is and simply runs uncached.

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

function cacheStatements(adapter: SqlDriverAdapter): void {
  const client = (adapter as unknown as { client?: BetterSqlite3.Database }).client;
  if (!client || typeof client.prepare !== "function") return;
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

export function withStatementCache(factory: PrismaBetterSqlite3): SqlMigrationAwareDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => {
      const adapter = await factory.connect();
      cacheStatements(adapter);
      return adapter;
    },
    connectToShadowDb: () => factory.connectToShadowDb(),
  };
}
