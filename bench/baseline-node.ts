// Baseline (a) of the benchmark: the floor of Node on this machine for the same work as the app's /v1
// pets operations (list with status and q, get, create, update by merge patch, delete) and two of the store's
// (placeOrder, deliverOrder: the same conditional updates in one transaction, without the audit records), and a
// photo's image (getPetPhoto: one size, read with the app's checks) — a bare
// node:http server, better-sqlite3 prepared statements (or `pg` named statements), the same bearer-key check, the
// same queries and indexes, and the same JSON and headers. It does not check If-Match (the benchmark sends
// none) nor keep idempotency records (the benchmark sends no Idempotency-Key). It serves the
// database the app migrated: DATABASE_URL (file: or postgresql://), HOST, PORT (0 = any free port).
// Run: node --import tsx bench/baseline-node.ts
import { createHash, randomUUID } from "node:crypto";
import http from "node:http";
import Database from "better-sqlite3";
import { isInteger, parse } from "lossless-json";
import pg from "pg";

type PetRow = { id: bigint; name: string; category_id: bigint; status: string | null; version: number };
type NewPet = { name: string; categoryId: bigint; status: string | null };
type PetPatch = Partial<NewPet>;
type OrderRow = {
  id: bigint;
  pet_id: bigint;
  pet_name: string;
  status: string;
  customer_name: string;
  customer_email: string | null;
  placed_at: string | Date;
  expires_at: string | Date;
  delivered_at: string | Date | null;
  version: number;
};
type NewOrder = { petId: bigint; customerName: string; customerEmail: string | null };

/**
 * The database work of the requests; `keyState` is undefined for an unknown key. `update` applies the members
 * that differ from the pet's, in one transaction, the version counted up when something changed; undefined
 * for an unknown id. `remove` says whether a pet was deleted.
 */
type Store = {
  keyState(hash: string): Promise<"active" | "revoked" | undefined>;
  list(limit: number, status: string | undefined, afterId: bigint, q: string | undefined): Promise<PetRow[]>;
  create(pet: NewPet): Promise<PetRow>;
  get(id: bigint): Promise<PetRow | undefined>;
  update(id: bigint, patch: PetPatch): Promise<PetRow | undefined>;
  remove(id: bigint): Promise<boolean>;
  /** The order placed, the pet made pending, in one transaction; undefined when the pet is not available. */
  placeOrder(order: NewOrder, expiresAt: Date): Promise<OrderRow | undefined>;
  /** The order delivered and its pet sold, in one transaction; undefined when it is not placed or approved. */
  deliverOrder(id: bigint): Promise<OrderRow | undefined>;
  /** One size of a photo of a pet in the catalogue (the app's checks: the photo is the pet's, the pet exists). */
  photo(petId: bigint, photoId: bigint, size: string): Promise<PhotoImage | undefined>;
};
type PhotoImage = { content_type: string; data: Uint8Array };

/** The app's read of one photo size, with its checks, as one statement. */
const PHOTO_SQL = (p: (n: number) => string) =>
  `SELECT i.content_type, i.data FROM photo_images i JOIN photos p ON p.id = i.photo_id
   WHERE i.photo_id = ${p(1)} AND i.size = ${p(2)} AND p.pet_id = ${p(3)}
   AND EXISTS (SELECT 1 FROM pets WHERE pets.id = p.pet_id)`;

const ORDER_COLUMNS =
  "id, pet_id, pet_name, status, customer_name, customer_email, placed_at, expires_at, delivered_at, version";
const HOLD_MS = 172_800_000;

const KEY_PATTERN = /^ask_[A-Za-z0-9_-]{32}$/;
const STATUSES = new Set(["available", "pending", "sold"]);
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const PET_COLUMNS = "id, name, category_id, status, version";
const COLUMN_OF = { name: "name", categoryId: "category_id", status: "status" } as const;

/** `text` as a LIKE pattern matching names that contain it, with `\` escaping LIKE's wildcards. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, "\\$&")}%`;
}

/** The members of a patch that differ from the pet's, as [column, value] pairs. */
function changes(current: PetRow, patch: PetPatch): [string, unknown][] {
  const now = { name: current.name, categoryId: current.category_id, status: current.status };
  return (Object.keys(COLUMN_OF) as (keyof PetPatch)[])
    .filter((member) => patch[member] !== undefined && patch[member] !== now[member])
    .map((member) => [COLUMN_OF[member], patch[member]]);
}

// SQLite: one prepared statement per query, in safe-integers mode so int64 columns arrive as bigint.
function sqliteStore(file: string): Store {
  const sqlite = new Database(file, { timeout: 5000 });
  // The same durability as the app (lib/db/sqlite-adapter.ts): SQLITE_SYNCHRONOUS, NORMAL by default.
  sqlite.pragma(`synchronous = ${process.env.SQLITE_SYNCHRONOUS === "full" ? "FULL" : "NORMAL"}`);
  const prepare = (sql: string) => sqlite.prepare(sql).safeIntegers(true);
  const keyByHash = prepare("SELECT revoked_at FROM api_keys WHERE hash = ?");
  const photoBySize = prepare(PHOTO_SQL(() => "?"));
  const listAll = prepare(`SELECT ${PET_COLUMNS} FROM pets WHERE id > ? ORDER BY id LIMIT ?`);
  const listByStatus = prepare(`SELECT ${PET_COLUMNS} FROM pets WHERE status = ? AND id > ? ORDER BY id LIMIT ?`);
  // Search: the FTS5 trigram table for 3+ characters, in rowid (pet id) order; shorter text scans in id order.
  const searchColumns = PET_COLUMNS.split(", ")
    .map((column) => `pets.${column}`)
    .join(", ");
  const search = prepare(
    `SELECT ${searchColumns} FROM pets_search JOIN pets ON pets.id = pets_search.rowid
     WHERE pets_search MATCH ? AND pets_search.rowid > ? ORDER BY pets_search.rowid LIMIT ?`,
  );
  const searchByStatus = prepare(
    `SELECT ${searchColumns} FROM pets_search JOIN pets ON pets.id = pets_search.rowid
     WHERE pets_search MATCH ? AND pets_search.rowid > ? AND pets.status = ? ORDER BY pets_search.rowid LIMIT ?`,
  );
  const scan = prepare(`SELECT ${PET_COLUMNS} FROM pets WHERE name LIKE ? ESCAPE '\\' AND id > ? ORDER BY id LIMIT ?`);
  const scanByStatus = prepare(
    `SELECT ${PET_COLUMNS} FROM pets WHERE name LIKE ? ESCAPE '\\' AND status = ? AND id > ? ORDER BY id LIMIT ?`,
  );
  const insert = prepare(`INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?) RETURNING ${PET_COLUMNS}`);
  const byId = prepare(`SELECT ${PET_COLUMNS} FROM pets WHERE id = ?`);
  const updates = new Map<string, Database.Statement>();
  const deleteById = prepare("DELETE FROM pets WHERE id = ?");
  const update = sqlite.transaction((id: bigint, patch: PetPatch) => {
    const current = byId.get(id) as PetRow | undefined;
    if (!current) return undefined;
    const changed = changes(current, patch);
    if (changed.length === 0) return current;
    const set = changed.map(([column]) => `${column} = ?`).join(", ");
    let statement = updates.get(set);
    if (!statement) {
      statement = prepare(`UPDATE pets SET ${set}, version = version + 1 WHERE id = ? RETURNING ${PET_COLUMNS}`);
      updates.set(set, statement);
    }
    return statement.get(...changed.map(([, value]) => value), id) as PetRow;
  });
  // Orders: the app's conditional updates, in one transaction each, its time format for the timestamps.
  const holdPet = prepare(
    "UPDATE pets SET status = 'pending', version = version + 1 WHERE id = ? AND status = 'available' RETURNING name",
  );
  const insertOrder = prepare(
    `INSERT INTO orders (pet_id, pet_name, status, customer_name, customer_email, placed_at, expires_at)
     VALUES (?, ?, 'placed', ?, ?, ?, ?) RETURNING ${ORDER_COLUMNS}`,
  );
  const deliverById = prepare(
    `UPDATE orders SET status = 'delivered', delivered_at = ?, version = version + 1
     WHERE id = ? AND status IN ('placed', 'approved') RETURNING ${ORDER_COLUMNS}`,
  );
  const sellPet = prepare("UPDATE pets SET status = 'sold', version = version + 1 WHERE id = ?");
  const sqliteTime = (date: Date) => date.toISOString().replace("Z", "+00:00");
  const place = sqlite.transaction((order: NewOrder, expiresAt: Date) => {
    const held = holdPet.get(order.petId) as { name: string } | undefined;
    if (!held) return undefined;
    const now = sqliteTime(new Date());
    return insertOrder.get(
      order.petId,
      held.name,
      order.customerName,
      order.customerEmail,
      now,
      sqliteTime(expiresAt),
    ) as OrderRow;
  });
  const deliver = sqlite.transaction((id: bigint) => {
    const row = deliverById.get(sqliteTime(new Date()), id) as OrderRow | undefined;
    if (row) sellPet.run(row.pet_id);
    return row;
  });
  return {
    keyState: async (hash) => {
      const row = keyByHash.get(hash) as { revoked_at: unknown } | undefined;
      return row ? (row.revoked_at === null ? "active" : "revoked") : undefined;
    },
    list: async (limit, status, afterId, q) => {
      if (q === undefined)
        return (
          status === undefined ? listAll.all(afterId, limit) : listByStatus.all(status, afterId, limit)
        ) as PetRow[];
      if ([...q].length >= 3) {
        const phrase = `"${q.replaceAll('"', '""')}"`;
        return (
          status === undefined ? search.all(phrase, afterId, limit) : searchByStatus.all(phrase, afterId, status, limit)
        ) as PetRow[];
      }
      const pattern = containsPattern(q);
      return (
        status === undefined ? scan.all(pattern, afterId, limit) : scanByStatus.all(pattern, status, afterId, limit)
      ) as PetRow[];
    },
    create: async (pet) => insert.get(pet.name, pet.categoryId, pet.status) as PetRow,
    get: async (id) => byId.get(id) as PetRow | undefined,
    update: async (id, patch) => update(id, patch),
    remove: async (id) => deleteById.run(id).changes === 1,
    placeOrder: async (order, expiresAt) => place(order, expiresAt),
    deliverOrder: async (id) => deliver(id),
    photo: async (petId, photoId, size) => photoBySize.get(photoId, size, petId) as PhotoImage | undefined,
  };
}

// PostgreSQL: a pool of 10 like the app's, named (server-side prepared) statements, int8 read as bigint.
function postgresStore(url: string): Store {
  pg.types.setTypeParser(pg.types.builtins.INT8, (text: string) => BigInt(text));
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const query = async (name: string, text: string, values: unknown[]) =>
    (await pool.query<Record<string, unknown>>({ name, text, values })).rows;
  // Search: ILIKE, which the pg_trgm index answers for 3+ characters. Unnamed statements, as the app's raw
  // query: PostgreSQL plans each with its pattern (a named one could settle on a generic plan).
  const search = async (limit: number, status: string | undefined, afterId: bigint, q: string) =>
    (
      await pool.query<PetRow>(
        `SELECT ${PET_COLUMNS} FROM pets WHERE name ILIKE $1 AND id > $2${status ? " AND status = $4" : ""}
         ORDER BY id LIMIT $3`,
        [containsPattern(q), afterId, limit, ...(status ? [status] : [])],
      )
    ).rows;
  const inTransaction = async <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK");
      throw error;
    } finally {
      client.release();
    }
  };
  return {
    keyState: async (hash) => {
      const [row] = await query("key", "SELECT revoked_at FROM api_keys WHERE hash = $1", [hash]);
      return row ? (row.revoked_at === null ? "active" : "revoked") : undefined;
    },
    list: async (limit, status, afterId, q) =>
      (q !== undefined
        ? await search(limit, status, afterId, q)
        : status === undefined
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
    // One transaction holding the pet's row, as the app's (SELECT … FOR UPDATE, then UPDATE).
    update: async (id, patch) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const forUpdate = `SELECT ${PET_COLUMNS} FROM pets WHERE id = $1 FOR UPDATE`;
        const [current] = (await client.query<PetRow>({ name: "for_update", text: forUpdate, values: [id] })).rows;
        const changed = current ? changes(current, patch) : [];
        let row = current;
        if (changed.length > 0) {
          const set = changed.map(([column], index) => `${column} = $${index + 2}`).join(", ");
          const text = `UPDATE pets SET ${set}, version = version + 1 WHERE id = $1 RETURNING ${PET_COLUMNS}`;
          const values = [id, ...changed.map(([, value]) => value)];
          [row] = (await client.query<PetRow>({ name: `update ${set}`, text, values })).rows;
        }
        await client.query("COMMIT");
        return row;
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      } finally {
        client.release();
      }
    },
    remove: async (id) =>
      ((await pool.query({ name: "delete", text: "DELETE FROM pets WHERE id = $1", values: [id] })).rowCount ?? 0) ===
      1,
    placeOrder: (order, expiresAt) =>
      inTransaction(async (client) => {
        const hold =
          "UPDATE pets SET status = 'pending', version = version + 1 WHERE id = $1 AND status = 'available' " +
          "RETURNING name";
        const held = await client.query<{ name: string }>({ name: "hold_pet", text: hold, values: [order.petId] });
        if (held.rowCount === 0) return undefined;
        const text = `INSERT INTO orders (pet_id, pet_name, status, customer_name, customer_email, placed_at,
          expires_at) VALUES ($1, $2, 'placed', $3, $4, now(), $5) RETURNING ${ORDER_COLUMNS}`;
        const values = [order.petId, held.rows[0].name, order.customerName, order.customerEmail, expiresAt];
        return (await client.query<OrderRow>({ name: "insert_order", text, values })).rows[0];
      }),
    deliverOrder: (id) =>
      inTransaction(async (client) => {
        const text = `UPDATE orders SET status = 'delivered', delivered_at = now(), version = version + 1
          WHERE id = $1 AND status IN ('placed', 'approved') RETURNING ${ORDER_COLUMNS}`;
        const [row] = (await client.query<OrderRow>({ name: "deliver", text, values: [id] })).rows;
        if (row) {
          const sell = "UPDATE pets SET status = 'sold', version = version + 1 WHERE id = $1";
          await client.query({ name: "sell_pet", text: sell, values: [row.pet_id] });
        }
        return row;
      }),
    photo: async (petId, photoId, size) =>
      (
        await query(
          "photo",
          PHOTO_SQL((n) => `$${n}`),
          [photoId, size, petId],
        )
      )[0] as PhotoImage | undefined,
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

async function readJson(request: http.IncomingMessage): Promise<Record<string, unknown>> {
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
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new HttpError(400, "invalid_body");
  return body as Record<string, unknown>;
}

const validName = (name: unknown): name is string =>
  typeof name === "string" && name.trim().length > 0 && [...name].length <= 200;
const validCategoryId = (categoryId: unknown): categoryId is bigint =>
  typeof categoryId === "bigint" && categoryId >= INT64_MIN && categoryId <= INT64_MAX;
const validStatus = (status: unknown): status is string => typeof status === "string" && STATUSES.has(status);

async function readNewPet(request: http.IncomingMessage): Promise<NewPet> {
  const { name, categoryId, status, ...rest } = await readJson(request);
  const valid =
    Object.keys(rest).length === 0 &&
    validName(name) &&
    validCategoryId(categoryId) &&
    (status === undefined || validStatus(status));
  if (!valid) throw new HttpError(400, "invalid_body");
  return { name, categoryId, status: status ?? null };
}

/** A JSON Merge Patch of a pet: any of the three members; `"status": null` removes the status. */
async function readPatch(request: http.IncomingMessage): Promise<PetPatch> {
  const type = request.headers["content-type"]?.split(";")[0].trim().toLowerCase();
  if (type !== "application/merge-patch+json" && type !== "application/json") throw new HttpError(415, "unsupported");
  const { name, categoryId, status, ...rest } = await readJson(request);
  const valid =
    Object.keys(rest).length === 0 &&
    (name === undefined || validName(name)) &&
    (categoryId === undefined || validCategoryId(categoryId)) &&
    (status === undefined || status === null || validStatus(status));
  if (!valid) throw new HttpError(400, "invalid_body");
  return { name, categoryId, status };
}

const etag = (pet: PetRow) => `"${pet.id}.${pet.version}"`;

const time = (value: string | Date) => (typeof value === "string" ? new Date(value) : value).toISOString();

/** An order as the API writes it. */
function orderJson(row: OrderRow): string {
  const email = row.customer_email === null ? "" : `,"customerEmail":${JSON.stringify(row.customer_email)}`;
  const expires = row.status === "placed" ? `,"expiresAt":"${time(row.expires_at)}"` : "";
  const delivered = row.delivered_at === null ? "" : `,"deliveredAt":"${time(row.delivered_at)}"`;
  return (
    `{"id":${row.id},"petId":${row.pet_id},"petName":${JSON.stringify(row.pet_name)},"status":"${row.status}",` +
    `"customerName":${JSON.stringify(row.customer_name)}${email},"placedAt":"${time(row.placed_at)}"` +
    `${expires}${delivered}}`
  );
}

async function readNewOrder(request: http.IncomingMessage): Promise<NewOrder> {
  const { petId, customerName, customerEmail, ...rest } = await readJson(request);
  const valid =
    Object.keys(rest).length === 0 &&
    validCategoryId(petId) &&
    typeof customerName === "string" &&
    customerName.trim().length > 0 &&
    [...customerName.trim()].length <= 100 &&
    (customerEmail === undefined || (typeof customerEmail === "string" && /^[^\s@]+@[^\s@]+$/.test(customerEmail)));
  if (!valid) throw new HttpError(400, "invalid_body");
  return { petId, customerName: customerName.trim(), customerEmail: customerEmail ?? null };
}

// The operations, routed by path and method.
async function handle(store: Store, request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  const url = new URL(request.url ?? "/", "http://localhost");
  await authenticate(store, request);
  if (url.pathname === "/v1/pets" && request.method === "GET") {
    const limit = Number(url.searchParams.get("limit") ?? "20");
    const status = url.searchParams.get("status") ?? undefined;
    const q = url.searchParams.get("q") ?? undefined;
    if (
      !Number.isInteger(limit) ||
      limit < 1 ||
      limit > 100 ||
      (status !== undefined && !STATUSES.has(status)) ||
      (q !== undefined && (q.length === 0 || [...q].length > 100))
    )
      throw new HttpError(400, "invalid_query");
    const rows = await store.list(limit + 1, status, decodeCursor(url.searchParams.get("cursor")), q);
    const pets = rows.slice(0, limit);
    const headers: Record<string, string> = {};
    if (rows.length > limit) {
      const next = new URLSearchParams({ limit: String(limit) });
      if (status) next.set("status", status);
      if (q) next.set("q", q);
      next.set("cursor", Buffer.from(`p1:${pets[pets.length - 1].id}`).toString("base64url"));
      headers.Link = `<${url.pathname}?${next}>; rel="next"`;
    }
    return send(response, 200, `[${pets.map(petJson).join(",")}]`, headers);
  }
  if (url.pathname === "/v1/pets" && request.method === "POST") {
    const pet = await store.create(await readNewPet(request));
    return send(response, 201, petJson(pet), { Location: `/v1/pets/${pet.id}`, ETag: etag(pet) });
  }
  const petId = /^\/v1\/pets\/([1-9][0-9]{0,18})$/.exec(url.pathname)?.[1];
  if (petId && request.method === "GET") {
    const pet = await store.get(BigInt(petId));
    if (!pet) throw new HttpError(404, "not_found");
    return send(response, 200, petJson(pet), {
      ETag: etag(pet),
      Deprecation: "@1795219200",
      Sunset: "Thu, 05 Dec 2030 00:00:00 GMT",
      Link: '</v1/pets>; rel="successor-version"',
    });
  }
  if (petId && request.method === "PATCH") {
    const pet = await store.update(BigInt(petId), await readPatch(request));
    if (!pet) throw new HttpError(404, "not_found");
    return send(response, 200, petJson(pet), { ETag: etag(pet) });
  }
  if (petId && request.method === "DELETE") {
    if (!(await store.remove(BigInt(petId)))) throw new HttpError(404, "not_found");
    response.writeHead(204, { "Cache-Control": "no-store", "X-Request-Id": randomUUID() });
    return void response.end();
  }
  if (url.pathname === "/v1/store/orders" && request.method === "POST") {
    const order = await store.placeOrder(await readNewOrder(request), new Date(Date.now() + HOLD_MS));
    if (!order) throw new HttpError(409, "pet_not_available");
    return send(response, 201, orderJson(order), {
      Location: `/v1/store/orders/${order.id}`,
      ETag: `"${order.id}.${order.version}"`,
    });
  }
  const photo = /^\/v1\/pets\/([1-9][0-9]{0,18})\/photos\/([1-9][0-9]{0,18})$/.exec(url.pathname);
  if (photo && request.method === "GET") {
    const size = url.searchParams.get("size") ?? "full";
    const image = await store.photo(BigInt(photo[1]), BigInt(photo[2]), size);
    if (!image) throw new HttpError(404, "not_found");
    const data = Buffer.from(image.data);
    response.writeHead(200, {
      "Content-Type": image.content_type,
      "Content-Length": data.length,
      ETag: `"photo-${photo[2]}-${size}"`,
      "Cache-Control": "public, max-age=31536000, immutable",
      Vary: "Authorization",
      "X-Request-Id": randomUUID(),
    });
    return void response.end(data);
  }
  const deliverId = /^\/v1\/store\/orders\/([1-9][0-9]{0,18})\/deliver$/.exec(url.pathname)?.[1];
  if (deliverId && request.method === "POST") {
    const order = await store.deliverOrder(BigInt(deliverId));
    if (!order) throw new HttpError(409, "order_status_conflict");
    return send(response, 200, orderJson(order), { ETag: `"${order.id}.${order.version}"` });
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
