// Baseline (a) of the benchmark: the floor of Node on this machine for the same work as the app's /v1
// pets operations — a bare node:http server, better-sqlite3 prepared statements (or `pg` named
// statements), the same bearer-key check, the same queries and the same JSON and headers. It serves the
// database the app migrated: DATABASE_URL (file: or postgresql://), HOST, PORT (0 = any free port).
// Run: node --import tsx bench/baseline-node.ts
import { createHash, randomUUID } from "node:crypto";
import http from "node:http";
import Database from "better-sqlite3";
import { isInteger, parse } from "lossless-json";
import pg from "pg";

type PetRow = { id: bigint; name: string; category_id: bigint; status: string | null };
type NewPet = { name: string; categoryId: bigint; status: string | null };

/** The database work of the four requests; `keyState` is undefined for an unknown key. */
type Store = {
  keyState(hash: string): Promise<"active" | "revoked" | undefined>;
  list(limit: number, status: string | undefined, afterId: bigint): Promise<PetRow[]>;
  create(pet: NewPet): Promise<PetRow>;
  get(id: bigint): Promise<PetRow | undefined>;
};

const KEY_PATTERN = /^ask_[A-Za-z0-9_-]{32}$/;
const STATUSES = new Set(["available", "pending", "sold"]);
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const PET_COLUMNS = "id, name, category_id, status";

// SQLite: one prepared statement per query, in safe-integers mode so int64 columns arrive as bigint.
function sqliteStore(file: string): Store {
  const sqlite = new Database(file, { timeout: 5000 });
  // The same durability as the app (lib/db/sqlite-adapter.ts): SQLITE_SYNCHRONOUS, NORMAL by default.
  sqlite.pragma(`synchronous = ${process.env.SQLITE_SYNCHRONOUS === "full" ? "FULL" : "NORMAL"}`);
  const prepare = (sql: string) => sqlite.prepare(sql).safeIntegers(true);
  const keyByHash = prepare("SELECT revoked_at FROM api_keys WHERE hash = ?");
  const listAll = prepare(`SELECT ${PET_COLUMNS} FROM pets WHERE id > ? ORDER BY id LIMIT ?`);
  const listByStatus = prepare(`SELECT ${PET_COLUMNS} FROM pets WHERE status = ? AND id > ? ORDER BY id LIMIT ?`);
  const insert = prepare(`INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?) RETURNING ${PET_COLUMNS}`);
  const byId = prepare(`SELECT ${PET_COLUMNS} FROM pets WHERE id = ?`);
  return {
    keyState: async (hash) => {
      const row = keyByHash.get(hash) as { revoked_at: unknown } | undefined;
      return row ? (row.revoked_at === null ? "active" : "revoked") : undefined;
    },
    list: async (limit, status, afterId) =>
      (status === undefined ? listAll.all(afterId, limit) : listByStatus.all(status, afterId, limit)) as PetRow[],
    create: async (pet) => insert.get(pet.name, pet.categoryId, pet.status) as PetRow,
    get: async (id) => byId.get(id) as PetRow | undefined,
  };
}

// PostgreSQL: a pool of 10 like the app's, named (server-side prepared) statements, int8 read as bigint.
function postgresStore(url: string): Store {
  pg.types.setTypeParser(pg.types.builtins.INT8, (text: string) => BigInt(text));
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const query = async (name: string, text: string, values: unknown[]) =>
    (await pool.query<Record<string, unknown>>({ name, text, values })).rows;
  return {
    keyState: async (hash) => {
      const [row] = await query("key", "SELECT revoked_at FROM api_keys WHERE hash = $1", [hash]);
      return row ? (row.revoked_at === null ? "active" : "revoked") : undefined;
    },
    list: async (limit, status, afterId) =>
      (status === undefined
        ? await query("list", `SELECT ${PET_COLUMNS} FROM pets WHERE id > $1 ORDER BY id LIMIT $2`, [afterId, limit])
        : await query(
            "list_status",
            `SELECT ${PET_COLUMNS} FROM pets WHERE status = $1 AND id > $2 ORDER BY id LIMIT $3`,
            [status, afterId, limit],
          )) as PetRow[],
    create: async (pet) =>
      (
        await query(
          "insert",
          `INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3) RETURNING ${PET_COLUMNS}`,
          [pet.name, pet.categoryId, pet.status],
        )
      )[0] as PetRow,
    get: async (id) =>
      (await query("get", `SELECT ${PET_COLUMNS} FROM pets WHERE id = $1`, [id]))[0] as PetRow | undefined,
  };
}

/** A pet as the API writes it: ids as plain JSON integers, `status` absent when null. */
function petJson(row: PetRow): string {
  const status = row.status === null ? "" : `,"status":${JSON.stringify(row.status)}`;
  return `{"id":${row.id},"name":${JSON.stringify(row.name)},"categoryId":${row.category_id}${status}}`;
}

function send(response: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    "X-Request-Id": randomUUID(),
    ...headers,
  });
  response.end(body);
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
  }
}

async function authenticate(store: Store, request: http.IncomingMessage): Promise<void> {
  const token = /^Bearer +([^\s]+) *$/i.exec(request.headers.authorization ?? "")?.[1];
  const hash = token && KEY_PATTERN.test(token) ? createHash("sha256").update(token).digest("hex") : undefined;
  if (!hash || (await store.keyState(hash)) !== "active") throw new HttpError(401, "unauthorized");
}

function decodeCursor(cursor: string | null): bigint {
  if (cursor === null) return 0n;
  const match = /^p1:([1-9][0-9]{0,18})$/.exec(Buffer.from(cursor, "base64url").toString("latin1"));
  if (!match) throw new HttpError(400, "invalid_query");
  return BigInt(match[1]);
}

async function readNewPet(request: http.IncomingMessage): Promise<NewPet> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  let body: unknown;
  try {
    body = parse(Buffer.concat(chunks).toString("utf8"), null, (text) =>
      isInteger(text) ? BigInt(text) : Number(text),
    );
  } catch {
    throw new HttpError(400, "invalid_json");
  }
  const { name, categoryId, status, ...rest } = (body ?? {}) as Record<string, unknown>;
  const valid =
    typeof body === "object" &&
    !Array.isArray(body) &&
    Object.keys(rest).length === 0 &&
    typeof name === "string" &&
    name.trim().length > 0 &&
    [...name].length <= 200 &&
    typeof categoryId === "bigint" &&
    categoryId >= INT64_MIN &&
    categoryId <= INT64_MAX &&
    (status === undefined || (typeof status === "string" && STATUSES.has(status)));
  if (!valid) throw new HttpError(400, "invalid_body");
  return { name, categoryId, status: status ?? null };
}

// The three operations, routed by path and method.
async function handle(store: Store, request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  const url = new URL(request.url ?? "/", "http://localhost");
  await authenticate(store, request);
  if (url.pathname === "/v1/pets" && request.method === "GET") {
    const limit = Number(url.searchParams.get("limit") ?? "20");
    const status = url.searchParams.get("status") ?? undefined;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100 || (status !== undefined && !STATUSES.has(status)))
      throw new HttpError(400, "invalid_query");
    const rows = await store.list(limit + 1, status, decodeCursor(url.searchParams.get("cursor")));
    const pets = rows.slice(0, limit);
    const headers: Record<string, string> = {};
    if (rows.length > limit) {
      const next = new URLSearchParams({ limit: String(limit) });
      if (status) next.set("status", status);
      next.set("cursor", Buffer.from(`p1:${pets[pets.length - 1].id}`).toString("base64url"));
      headers.Link = `<${url.pathname}?${next}>; rel="next"`;
    }
    return send(response, 200, `[${pets.map(petJson).join(",")}]`, headers);
  }
  if (url.pathname === "/v1/pets" && request.method === "POST") {
    const pet = await store.create(await readNewPet(request));
    return send(response, 201, petJson(pet), { Location: `/v1/pets/${pet.id}` });
  }
  const petId = /^\/v1\/pets\/([1-9][0-9]{0,18})$/.exec(url.pathname)?.[1];
  if (petId && request.method === "GET") {
    const pet = await store.get(BigInt(petId));
    if (!pet) throw new HttpError(404, "not_found");
    return send(response, 200, petJson(pet), {
      Deprecation: "@1795219200",
      Sunset: "Thu, 05 Dec 2030 00:00:00 GMT",
      Link: '</v1/pets>; rel="successor-version"',
    });
  }
  throw new HttpError(404, "not_found");
}

const databaseUrl = process.env.DATABASE_URL ?? "";
const store = databaseUrl.startsWith("file:")
  ? sqliteStore(databaseUrl.slice("file:".length))
  : postgresStore(databaseUrl);
const server = http.createServer((request, response) => {
  handle(store, request, response).catch((error: unknown) => {
    const status = error instanceof HttpError ? error.status : 500;
    const code = error instanceof HttpError ? error.code : "internal";
    if (status === 500) console.error(error);
    if (!response.headersSent) send(response, status, JSON.stringify({ code, message: code, status }));
  });
});
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  console.log(`Baseline listening on http://${process.env.HOST ?? "127.0.0.1"}:${port}`);
});
process.once("SIGTERM", () => server.close(() => process.exit(0)).closeAllConnections());
