// The database a command-line tool works on: DATABASE_URL's, opened by openDatabase in every tool that uses one.
// A SQLite file that does not exist is refused unless --create asks for it: a mistyped DATABASE_URL would
// otherwise get a new, empty database and the tool would report success on it. A PostgreSQL server that cannot be
// reached, or refuses the connection, is one line saying what to check instead of the driver's message. Which
// database was used is said on stderr, so that stdout stays the command's own output (key create's last line).
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { config, type DatabaseConfig } from "@/lib/config";
import { migrate } from "@/lib/db/migrate";
import { UsageError, type Parsed } from "@/scripts/cli";

export type OpenedDatabase = { database: DatabaseConfig; applied: string[] };

/**
 * Opens DATABASE_URL's database for a tool whose parsed options are `values` (--create among them), says which on
 * stderr, and applies the migrations it lacks (returned). The tool's arguments are checked before: a usage error
 * touches no database.
 */
export async function openDatabase(values: Parsed["values"]): Promise<OpenedDatabase> {
  const { database } = config();
  if (database.provider === "sqlite") {
    const made = !fs.existsSync(database.file);
    if (made && values.create !== true) throw new UsageError(noSqliteFile(database.file));
    console.error(`Database: ${database.file} (SQLite${made ? ", new: made by --create" : ""})`);
  } else {
    const address = await reachPostgres(database.url);
    console.error(`Database: postgresql://${address.user ? `${address.user}@` : ""}${address.where}`);
  }
  return { database, applied: await migrate(database) };
}

function noSqliteFile(file: string): string {
  const folder = path.dirname(file);
  const missing = fs.existsSync(folder) ? file : `${file} (nor its folder ${folder})`;
  return (
    `No SQLite database at ${missing}; nothing was created. Check DATABASE_URL, or make a new database: run ` +
    "this again with --create, or start the server once (npm start)."
  );
}

/** Whom and where pg connects to (DATABASE_URL with pg's defaults), `where` as host:port/database. */
type PostgresAddress = { user?: string; database: string; where: string };

/** Connects once to the PostgreSQL database, to refuse in words one that cannot be reached or refuses. */
async function reachPostgres(url: string): Promise<PostgresAddress> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  const host = client.host.includes(":") && !client.host.startsWith("/") ? `[${client.host}]` : client.host;
  const database = client.database ?? "";
  const address = { user: client.user, database, where: `${host}:${client.port}/${database}` };
  try {
    await client.connect();
    return address;
  } catch (error) {
    throw new Error(postgresRefusal(error, address, url, Boolean(client.password)));
  } finally {
    await client.end().catch(() => {});
  }
}

const networkFailures: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "unknown host",
  EAI_AGAIN: "the host name could not be looked up",
  ETIMEDOUT: "no answer",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ECONNRESET: "connection reset",
};

/**
 * What a failed connection says, in one line naming the address and what to check, never the password. pg throws
 * a system error (`code` ECONNREFUSED, ENOTFOUND, …) when the server cannot be reached, "Connection terminated" when
 * it does not answer in time, and the server's own error when it refuses: SQLSTATE 28P01 (wrong password), 28000
 * (no such role, or pg_hba.conf has no line for it), 3D000 (no such database); a server that wants a password
 * none was given for fails in pg's SASL step.
 */
function postgresRefusal(
  error: unknown,
  { user, database, where }: PostgresAddress,
  url: string,
  hasPassword: boolean,
): string {
  const { code } = error as { code?: unknown };
  const message = error instanceof Error ? error.message : String(error);
  // Neither pg's messages nor the server's hold the password; a URL echoed whole would.
  let reason = message.replaceAll(url, "DATABASE_URL").replace(/\s+/g, " ").trim();
  const network = typeof code === "string" ? networkFailures[code] : undefined;
  if (network || reason.startsWith("Connection terminated"))
    return (
      `cannot reach PostgreSQL at ${where} (${network ?? "no answer"}): check that PostgreSQL is ` +
      "running and accepts connections at that host and port (DATABASE_URL's)."
    );
  if (code === "28P01" || code === "28000" || /^SASL|password/i.test(reason)) {
    if (reason.startsWith("SASL") && !hasPassword) reason = "it wants a password; DATABASE_URL has none";
    return (
      `PostgreSQL at ${where} refused user "${user ?? ""}" (${reason}): check the user and password in ` +
      "DATABASE_URL, and that the server lets that user connect from here (pg_hba.conf)."
    );
  }
  if (code === "3D000")
    return (
      `PostgreSQL at ${where} has no database "${database}": check the name in DATABASE_URL, or create the ` +
      `database first (createdb ${database}); the tools and the server make its tables, not the database.`
    );
  return (
    `cannot connect to PostgreSQL at ${where} (${reason}): check that PostgreSQL is running and reachable at ` +
    "that address, the user and password in DATABASE_URL, and that the database exists."
  );
}
