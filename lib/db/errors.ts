import "server-only";

// What a database failure means: a unique index refused a write (the caller reads again and knows why), or the
// database cannot be reached right now (answered 503, worth a retry) rather than a bug (answered 500).

/** Whether a write was refused by a unique index (Prisma's P2002, on SQLite and PostgreSQL alike). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}

const unavailableCodes = new Set([
  "P1001", // can't reach database server
  "P1002", // database server timed out
  "P1008", // operation timed out
  "P1017", // server closed the connection
  "P2024", // timed out fetching a connection from the pool
  "P2028", // a transaction could not start in time, or timed out
]);

const unavailableKinds = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
  "DatabaseDoesNotExist",
]);

const unavailableSystemCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "SQLITE_BUSY",
  "57P01",
  "57P02",
  "57P03",
  "53300",
  "40P01", // deadlock detected: one side is rolled back, and may try again
  "40001", // serialization failure, likewise
]);

/**
 * What node-postgres throws, as plain `Error`s without a code, when its connection is gone or cannot be had:
 * @prisma/adapter-pg converts only errors with a PostgreSQL or socket code (convertDriverError) and rethrows these
 * as they are, so their message is all that tells them apart. A connection the server ended (pg_terminate_backend,
 * a restart, a failover) marks its client "not queryable": every later query of the transaction holding it fails
 * with the first message below. From pg/lib/client.js and pg-pool/index.js (pg 8.x).
 */
const pgConnectionMessages = [
  "Client has encountered a connection error and is not queryable",
  "Client was closed and is not queryable",
  "Connection terminated unexpectedly",
  "Connection terminated due to connection timeout",
  "timeout exceeded when trying to connect", // the pool's wait for a connection, as P2024
];

type ErrorParts = {
  code?: unknown;
  kind?: unknown;
  name?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
};

/**
 * Whether the error, one of its causes or the driver adapter's error Prisma attaches as `meta.driverAdapterError`
 * (where raw queries report an unreachable server) is one that `sign` picks out.
 */
function anyCause(error: unknown, sign: (parts: ErrorParts) => boolean): boolean {
  const queue: unknown[] = [error];
  for (let seen = 0; queue.length > 0 && seen < 10; seen++) {
    const current = queue.shift();
    if (!current || typeof current !== "object") continue;
    const parts = current as ErrorParts;
    if (sign(parts)) return true;
    queue.push(parts.cause, parts.meta?.driverAdapterError);
  }
  return false;
}

/**
 * Another process holds the SQLite file's write lock past the busy timeout: better-sqlite3's SQLITE_BUSY, which
 * Prisma's adapter reports as a socket timeout ("Operation has timed out").
 */
export function isSqliteBusy(error: unknown): boolean {
  return anyCause(
    error,
    ({ code, kind, message }) =>
      code === "SQLITE_BUSY" ||
      kind === "SocketTimeout" ||
      (typeof message === "string" && /database is locked|SQLITE_BUSY/.test(message)),
  );
}

/** Whether the error, or one of its causes, is a sign of an outage. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return anyCause(error, ({ code, kind, name, message }) => {
    if (typeof code === "string" && (unavailableCodes.has(code) || unavailableSystemCodes.has(code))) return true;
    if (typeof kind === "string" && unavailableKinds.has(kind)) return true;
    if (name === "PrismaClientInitializationError") return true;
    if (code === undefined && typeof message === "string" && pgConnectionMessages.includes(message)) return true;
    return (
      typeof message === "string" &&
      /ECONNREFUSED|Connection terminated|connection timeout|database is locked|Can't reach database server/i.test(
        message,
      )
    );
  });
}
