import "server-only";
import { recordAudit, recordAudits, type AuditContext } from "@/lib/audit/record";
import { previousValues } from "@/lib/events/outbox";
import { db, dialect, transaction, type Transaction } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { openOrderOf, petOnHold } from "@/lib/orders/store";
import { readStatusCounts } from "@/lib/pets/status-counts";
import { meets, type Expected } from "@/lib/http/conditional";
import { Refusal } from "@/lib/refusal";
import { parseJson } from "@/lib/http/json";
import {
  petMembers,
  petSchema,
  SEARCH_COUNT_LIMIT,
  type NewPet,
  type Pet,
  type PetCounts,
  type PetPatch,
  type PetSort,
  type PetStatus,
  type PetStatusFilter,
} from "@/lib/pets/schema";

// Reads and writes of pets over Prisma, knowing nothing of HTTP. Each takes an optional transaction to
// run in (a caller that must record something with the change hands one in). Every change writes its
// audit record (lib/audit) in the same transaction, naming who made it. Every statement names the columns
// it writes and selects petSchema's members, and rows become plain Pet objects here: nothing from a client
// reaches a statement unlisted, and no row reaches JSON as it is.

const petColumns = Object.fromEntries(petMembers.map((member) => [member, true])) as { [Member in keyof Pet]-?: true };
const versionedColumns = { ...petColumns, version: true } as const;

type PetRow = {
  [Member in keyof Pet]-?: Exclude<Pet[Member], undefined> | (undefined extends Pet[Member] ? null : never);
};

/** A row as a Pet: a column that is null is a member that is absent. */
function toPet(row: PetRow): Pet {
  return Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null)) as Pet;
}

/** A pet and the count of its changes, which its ETag is made of. */
export type VersionedPet = { pet: Pet; version: number };

export function toVersioned({ version, ...row }: PetRow & { version: number }): VersionedPet {
  return { pet: toPet(row), version };
}

/**
 * A pet's columns as the statements of the request path select or return them, for each provider: int64s as text
 * (exact whatever the driver makes of them), the status as text. A pet's reads and writes are Prisma raw statements
 * rather than Prisma queries: Prisma sends a raw statement to the driver without its query interpreter, which
 * profiled at about 160 µs of a 450 µs request (docs/decisions/024-hot-paths-as-raw-statements.md). Restoring a
 * pet, which is rare, stays a Prisma query.
 */
export const PET_COLUMNS = {
  sqlite: "CAST(id AS TEXT) AS id, name, CAST(category_id AS TEXT) AS category_id, status, version",
  postgresql: "id::text AS id, name, category_id::text AS category_id, status::text AS status, version",
};
export type RawPetRow = {
  id: string;
  name: string;
  category_id: string;
  status: string | null;
  version: number | bigint;
};

export function fromRawRow(row: RawPetRow): VersionedPet {
  return toVersioned({
    id: BigInt(row.id),
    name: row.name,
    categoryId: BigInt(row.category_id),
    status: row.status as PetStatus | null,
    version: Number(row.version),
  });
}

/** The pets of a list of ids (a JSON array of their digits): one statement whatever their number. */
const PETS_BY_IDS = {
  sqlite: `SELECT ${PET_COLUMNS.sqlite} FROM pets WHERE pets.id IN (SELECT CAST(value AS INTEGER) FROM json_each(?))`,
  postgresql: `SELECT ${PET_COLUMNS.postgresql} FROM pets
    WHERE pets.id IN (SELECT CAST(jsonb_array_elements_text(CAST($1 AS jsonb)) AS bigint))`,
};

/**
 * The statement of a first-page or keyset read in id order, optionally of one status (null: the pets without one):
 * one text per shape, so each is prepared once. Walks the primary key, or (status, id) when filtered.
 */
function pageSql(
  provider: "sqlite" | "postgresql",
  status: PetStatus | null | undefined,
  afterId: bigint | undefined,
  take: number,
): { text: string; params: unknown[] } {
  const sql = new Sql(provider);
  const conditions: string[] = [];
  if (status === null) conditions.push("pets.status IS NULL");
  else if (status !== undefined) conditions.push(`pets.status = ${sql.param(status, '"PetStatus"')}`);
  if (afterId !== undefined) conditions.push(`pets.id > ${sql.param(afterId)}`);
  const where = conditions.length ? ` WHERE ${conditions.join(" AND ")}` : "";
  const text = `SELECT ${PET_COLUMNS[provider]} FROM pets${where} ORDER BY pets.id LIMIT ${sql.param(take)}`;
  return { text, params: sql.params };
}

export type PetPage = { pets: Pet[]; more: boolean };

export type ListOptions = {
  limit: number;
  /** A status, or `none`: the pets without one. */
  status?: PetStatusFilter;
  /** Only pets of these categories (at most CATEGORY_FILTER_MAX). */
  categoryIds?: readonly bigint[];
  q?: string;
  /** The order; oldest first (ascending id) when absent. */
  sort?: PetSort;
  /**
   * The last pet of the previous page, in this order: its id and its key in the order (a name order's name, a
   * status order's status, null for none, or a category order's categoryId).
   */
  after?: { id: bigint; name?: string; status?: PetStatus | null; categoryId?: bigint };
};

/**
 * One page of pets in the order asked for, after the given pet: an index walk, however deep the page. Oldest and
 * newest first walk the primary key, or (status, id) when filtered, forwards or backwards; name orders walk
 * (name, id) or (status, name, id) (the 0009_pet_sort_orders migrations), from the cursor's (name, id) on. With
 * categories, each category's (category_id, id) or (category_id, name, id) is walked (0016_pet_category_filter).
 * Status orders walk (status, id) once per status, category orders (category_id, id) or, with a status,
 * (status, category_id, id) (0017_pet_status_category_sort).
 * With `q`, only pets whose name contains it, ignoring case (see matchingIds). `more` says whether pets follow.
 */
export async function listPets(options: ListOptions, tx: Transaction = db()): Promise<PetPage> {
  const take = options.limit + 1;
  const sort = options.sort ?? "id";
  if (options.q === undefined && sort === "id" && !options.categoryIds?.length) {
    const status = options.status === "none" ? null : options.status;
    const { text, params } = pageSql(dialect(tx), status, options.after?.id, take);
    const rows: RawPetRow[] = await tx.$queryRawUnsafe(text, ...params);
    return {
      pets: rows.slice(0, options.limit).map((row) => fromRawRow(row).pet),
      more: rows.length > options.limit,
    };
  }
  // Whether more follow is the ids' to say: a pet deleted between the two reads leaves a shorter page, never
  // a page without its next link.
  const ids = await matchingIds({ ...options, sort }, take, tx);
  const shown = ids.slice(0, options.limit);
  const provider = dialect(tx);
  const rows: RawPetRow[] = await tx.$queryRawUnsafe(
    PETS_BY_IDS[provider],
    JSON.stringify(shown.map((id) => String(id))),
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const pets = shown.flatMap((id) => {
    const row = byId.get(String(id));
    return row ? [fromRawRow(row).pet] : [];
  });
  return { pets, more: ids.length > options.limit };
}

/** The statuses in the status order, the pets without one last: a status's rank is its index here. */
const STATUS_RANKS = ["available", "pending", "sold", "none"] as const;

/** A status's rank in the status order (null: the pets without one). */
function rankOf(status: PetStatus | null): number {
  return STATUS_RANKS.indexOf(status ?? "none");
}

/** The status order's key of a status column: its rank, as rankOf gives it. */
function statusRank(column: string): string {
  return (
    `CASE WHEN ${column} IS NULL THEN 3 WHEN ${column} = 'available' THEN 0 ` +
    `WHEN ${column} = 'pending' THEN 1 ELSE 2 END`
  );
}

/** `text` as a LIKE pattern matching names that contain it, with `\` escaping LIKE's wildcards. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, "\\$&")}%`;
}

/** A raw query's text and parameters, written in order: `param` gives each value its placeholder. */
class Sql {
  readonly params: unknown[] = [];
  constructor(private readonly provider: "sqlite" | "postgresql") {}
  param(value: unknown, cast?: string): string {
    this.params.push(value);
    const placeholder = this.provider === "postgresql" ? `$${this.params.length}` : "?";
    return cast && this.provider === "postgresql" ? `CAST(${placeholder} AS ${cast})` : placeholder;
  }
}

/**
 * The name order's key: the name with ASCII letters folded to lower case, compared byte by byte (UTF-8, so by
 * code point). SQLite: the NOCASE collation; PostgreSQL: lower() under "C", which folds A-Z only. The indexes
 * of the 0009 migrations are on exactly these expressions, which is what lets the planner walk them.
 */
function nameKey(provider: "sqlite" | "postgresql", column: string): string {
  return provider === "postgresql" ? `lower(${column} COLLATE "C")` : `${column} COLLATE NOCASE`;
}

/**
 * The ids of the first `take` pets after `after` in the order asked for, whose name contains `q` (ignoring case)
 * when given. PostgreSQL: ILIKE, which a pg_trgm GIN index answers for three characters or more; in id order the
 * planner chooses between walking the primary key until a page of matches turns up and sorting the index's matches.
 * SQLite: for three characters or more, the FTS5 trigram table pets_search; in id order it returns its rowids (pet
 * ids) in order, so the walk stops after `take` matches. In name order, both take the matches of three characters
 * or more from the trigram index and sort them (the cost grows with the matches, as counting them does). Shorter
 * fragments have no trigram to look up: the order's index is walked, testing each name. Ids are read as text:
 * SQLite hands raw integers back as JavaScript numbers. ORDER BY names the table's column: a bare `id` would mean
 * the select list's text `id`, sorting ids as strings ("100" before "57").
 */
async function matchingIds(options: ListOptions & { sort: PetSort }, take: number, tx: Transaction): Promise<bigint[]> {
  const { text, params } = listingSql(dialect(tx), options, take);
  const rows: { id: string }[] = await tx.$queryRawUnsafe(text, ...params);
  return rows.map((row) => BigInt(row.id));
}

/** The test of a pet's status: `none` is the pets without one. */
function statusCondition(sql: Sql, column: string, status: PetStatusFilter): string {
  return status === "none" ? `${column} IS NULL` : `${column} = ${sql.param(status, '"PetStatus"')}`;
}

/** The test of a pet's category, one of `ids`. */
function categoryCondition(sql: Sql, column: string, ids: readonly bigint[]): string {
  return ids.length === 1
    ? `${column} = ${sql.param(ids[0])}`
    : `${column} IN (${ids.map((id) => sql.param(id)).join(", ")})`;
}

/**
 * The query of matchingIds, for `provider`. Exported for the tests, which read its plans.
 *
 * Several categories are one walk each, of (category_id, id) or (category_id, name, id) from the cursor on, each
 * stopping after `take` pets, merged and cut to `take`: at most `take` rows per category are read, however many
 * pets the categories hold (one walk of `category_id IN (…)` would come out in category order, and sorting it
 * would read every pet of the categories).
 */
export function listingSql(
  provider: "sqlite" | "postgresql",
  options: ListOptions & { sort: PetSort },
  take: number,
): { text: string; params: unknown[] } {
  const { q, status, sort, after } = options;
  const categoryIds = options.categoryIds ?? [];
  const sql = new Sql(provider);
  const descending = sort.startsWith("-");
  const key = sort.replace("-", "") as "id" | "name" | "status" | "category";
  const before = descending ? "<" : ">";
  const direction = descending ? " DESC" : "";
  const trigrams = q !== undefined && [...q].length >= 3;
  const idText = (table: string) => (provider === "postgresql" ? `${table}.id::text` : `CAST(${table}.id AS TEXT)`);
  /** The order's key of a row of `table`, before its id. */
  const sortKey = (table: string): string | undefined =>
    key === "name"
      ? nameKey(provider, `${table}.name`)
      : key === "category"
        ? `${table}.category_id`
        : key === "status"
          ? statusRank(`${table}.status`)
          : undefined;
  const order = (table: string, rank?: string) => {
    const first = rank ?? sortKey(table);
    // A category order with a status walks (status, category_id, id), ordered by its own columns: PostgreSQL takes
    // `status IS NULL` for no equality, and ordered by (category_id, id) alone would sort every such pet.
    const byStatusFirst = key === "category" && status && table === "pets" ? `pets.status${direction}, ` : "";
    return `${byStatusFirst}${first ? `${first}${direction}, ` : ""}${table}.id${direction}`;
  };

  if (provider === "sqlite" && trigrams && key === "id") {
    // The FTS5 table walks its rowids in either direction.
    const phrase = sql.param(ftsPhrase(q));
    const from = after ? ` AND pets_search.rowid ${before} ${sql.param(after.id)}` : "";
    const filters = [
      ...(status ? [statusCondition(sql, "pets.status", status)] : []),
      ...(categoryIds.length ? [categoryCondition(sql, "pets.category_id", categoryIds)] : []),
    ];
    const text = filters.length
      ? `SELECT CAST(pets_search.rowid AS TEXT) AS id FROM pets_search JOIN pets ON pets.id = pets_search.rowid
         WHERE pets_search MATCH ${phrase}${from} AND ${filters.join(" AND ")}
         ORDER BY pets_search.rowid${direction} LIMIT ${sql.param(take)}`
      : `SELECT CAST(rowid AS TEXT) AS id FROM pets_search WHERE pets_search MATCH ${phrase}${from}
         ORDER BY pets_search.rowid${direction} LIMIT ${sql.param(take)}`;
    return { text, params: sql.params };
  }

  /**
   * The conditions of one walk of `table` from the cursor on, in the order their parameters are written. `from`
   * says how the cursor bounds the walk: by the order's key and id (the default), by id alone (a walk of one
   * status, in a status order), or not at all (a status after the cursor's).
   */
  const walkConditions = (
    table: string,
    filters: { q?: string; status?: PetStatusFilter; categoryId?: bigint; categoriesAfter?: bigint },
    from: "key" | "id" | "none" = "key",
  ) => {
    const where: string[] = [];
    if (filters.q !== undefined) {
      if (provider === "postgresql") where.push(`${table}.name ILIKE ${sql.param(containsPattern(filters.q))}`);
      else where.push(sqliteContains(sql, filters.q));
    }
    if (filters.status) where.push(statusCondition(sql, `${table}.status`, filters.status));
    if (filters.categoryId !== undefined) where.push(`${table}.category_id = ${sql.param(filters.categoryId)}`);
    if (filters.categoriesAfter !== undefined)
      where.push(`${table}.category_id ${before} ${sql.param(filters.categoriesAfter)}`);
    const rowKey = sortKey(table);
    if (after && from === "key" && rowKey) {
      const cursorKey = () =>
        key === "name"
          ? nameKey(provider, sql.param(after.name ?? "", "text"))
          : key === "category"
            ? sql.param(after.categoryId ?? 0n)
            : String(rankOf(after.status ?? null));
      // The first condition is the index's range start (SQLite takes none from the row value alone).
      where.push(`${rowKey} ${before}= ${cursorKey()}`);
      where.push(`(${rowKey}, ${table}.id) ${before} (${cursorKey()}, ${sql.param(after.id)})`);
    } else if (after && from !== "none") {
      where.push(`${table}.id ${before} ${sql.param(after.id)}`);
    }
    return where.length ? ` WHERE ${where.join(" AND ")}` : "";
  };

  if (trigrams && key !== "id") {
    // The search's matches, from its trigram index, sorted here: walking the order's index instead would test
    // names until a page of matches turned up, and a name search's matches sit together in name order
    // ("Ziggy 1" … "Ziggy 100"), possibly at the far end of the walk.
    const matches =
      provider === "postgresql"
        ? `SELECT id, name, status, category_id FROM pets WHERE name ILIKE ${sql.param(containsPattern(q))}`
        : `SELECT pets.id, pets.name, pets.status, pets.category_id
           FROM pets_search JOIN pets ON pets.id = pets_search.rowid
           WHERE pets_search MATCH ${sql.param(ftsPhrase(q))}`;
    const byStatus = status ? ` AND ${statusCondition(sql, "status", status)}` : "";
    const byCategory = categoryIds.length ? ` AND ${categoryCondition(sql, "category_id", categoryIds)}` : "";
    // MATERIALIZED keeps either planner from folding the matches back into a walk of the name index.
    const prefix = `WITH matches AS MATERIALIZED (${matches}${byStatus}${byCategory}) `;
    const text =
      `${prefix}SELECT ${idText("matches")} AS id FROM matches${walkConditions("matches", {})} ` +
      `ORDER BY ${order("matches")} LIMIT ${sql.param(take)}`;
    return { text, params: sql.params };
  }

  const filters = { q, status };
  if (key === "status") {
    // One walk of (status, id) per status from the cursor's on (per status and category with categories), each of
    // at most `take` pets, merged by the status's rank: at most four walks, however many pets each status holds.
    const ranks = status ? [rankOf(status === "none" ? null : status)] : [0, 1, 2, 3];
    if (descending) ranks.reverse();
    const start = after ? rankOf(after.status ?? null) : undefined;
    const walks = ranks
      .filter((rank) => start === undefined || (descending ? rank <= start : rank >= start))
      .flatMap((rank) => (categoryIds.length ? categoryIds : [undefined]).map((categoryId) => ({ rank, categoryId })));
    const walk = ({ rank, categoryId }: { rank: number; categoryId?: bigint }, select: string) =>
      `SELECT ${select} FROM pets` +
      `${walkConditions("pets", { q, status: STATUS_RANKS[rank], categoryId }, start === rank ? "id" : "none")} ` +
      // Ordered by the index's own columns: PostgreSQL takes `status IS NULL` for no equality, so ordered by id
      // alone it may walk the primary key testing each pet, which reads the whole table when none match.
      `ORDER BY pets.status${direction}, ${categoryId === undefined ? "" : `pets.category_id${direction}, `}` +
      `pets.id${direction} LIMIT ${sql.param(take)}`;
    if (walks.length === 1) return { text: walk(walks[0], `${idText("pets")} AS id`), params: sql.params };
    // A cursor whose status the filter excludes continues nothing.
    if (walks.length === 0) return { text: `SELECT ${idText("pets")} AS id FROM pets WHERE 1 = 0`, params: [] };
    const merged = walks.map(
      (spec, index) => `SELECT * FROM (${walk(spec, `pets.id AS id, ${spec.rank} AS status_rank`)}) AS walk${index}`,
    );
    const text =
      `SELECT ${idText("picked")} AS id FROM (${merged.join(" UNION ALL ")}) AS picked ` +
      `ORDER BY ${order("picked", "picked.status_rank")} LIMIT ${sql.param(take)}`;
    return { text, params: sql.params };
  }
  if (key === "category" && after) {
    // From the cursor on: the rest of the cursor's category, a walk of (category_id, id) from its id, then the
    // categories after it. One row-value range over the index would do on PostgreSQL, but SQLite seeks only to the
    // category's start and would step over every pet of it before the cursor.
    const cursorCategory = after.categoryId ?? 0n;
    const walks: string[] = [];
    const walk = (filter: Parameters<typeof walkConditions>[1], from: "id" | "none") =>
      `SELECT * FROM (SELECT pets.id AS id, pets.category_id AS category_id FROM pets` +
      `${walkConditions("pets", { q, status, ...filter }, from)} ORDER BY ${order("pets")} ` +
      `LIMIT ${sql.param(take)}) AS walk${walks.length}`;
    if (categoryIds.length === 0) {
      walks.push(walk({ categoryId: cursorCategory }, "id"));
      walks.push(walk({ categoriesAfter: cursorCategory }, "none"));
    } else {
      for (const categoryId of [...categoryIds].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
        if (categoryId === cursorCategory) walks.push(walk({ categoryId }, "id"));
        else if (descending ? categoryId < cursorCategory : categoryId > cursorCategory)
          walks.push(walk({ categoryId }, "none"));
      }
    }
    if (walks.length === 0) return { text: `SELECT ${idText("pets")} AS id FROM pets WHERE 1 = 0`, params: [] };
    const text =
      `SELECT ${idText("picked")} AS id FROM (${walks.join(" UNION ALL ")}) AS picked ` +
      `ORDER BY ${order("picked")} LIMIT ${sql.param(take)}`;
    return { text, params: sql.params };
  }
  if (categoryIds.length > 1) {
    const walks = categoryIds.map(
      (categoryId, index) =>
        `SELECT * FROM (SELECT pets.id AS id, pets.name AS name, pets.category_id AS category_id FROM pets` +
        `${walkConditions("pets", { ...filters, categoryId })} ORDER BY ${order("pets")} ` +
        `LIMIT ${sql.param(take)}) AS walk${index}`,
    );
    const text =
      `SELECT ${idText("picked")} AS id FROM (${walks.join(" UNION ALL ")}) AS picked ` +
      `ORDER BY ${order("picked")} LIMIT ${sql.param(take)}`;
    return { text, params: sql.params };
  }
  const text =
    `SELECT ${idText("pets")} AS id FROM pets${walkConditions("pets", { ...filters, categoryId: categoryIds[0] })} ` +
    `ORDER BY ${order("pets")} LIMIT ${sql.param(take)}`;
  return { text, params: sql.params };
}

/** `q` as one FTS5 string: the text itself, as a phrase of its trigrams. */
function ftsPhrase(q: string): string {
  return `"${q.replaceAll('"', '""')}"`;
}

/**
 * SQLite's test of a name containing `q` without the trigram table. LIKE ignores the case of ASCII letters only,
 * which is all an ASCII fragment needs; any other fragment is matched by contains_folded
 * (lib/db/sqlite-adapter.ts), which lower-cases as JavaScript does.
 */
function sqliteContains(sql: Sql, q: string): string {
  const ascii = !/[^\x20-\x7e]/.test(q); // q has no control characters (petSearchSchema)
  return ascii
    ? `pets.name LIKE ${sql.param(containsPattern(q))} ESCAPE '\\'`
    : `contains_folded(pets.name, ${sql.param(q.toLowerCase())})`;
}

const noPets = (): PetCounts["byStatus"] => ({ available: 0, pending: 0, sold: 0, none: 0 });

/**
 * How many pets each status holds, and in all. Without `q` or categories, one read of the counts the 0009
 * migrations' triggers keep exact (lib/pets/status-counts.ts). With either, the matches are counted (a search as
 * matchingIds finds it, categories from their index), at most SEARCH_COUNT_LIMIT + 1 of them: beyond, the answer
 * says it is not exact and each number is a lower bound.
 */
export async function countPets(
  filters: { q?: string; categoryIds?: readonly bigint[] },
  tx: Transaction = db(),
): Promise<PetCounts> {
  const { q } = filters;
  const categoryIds = filters.categoryIds ?? [];
  const byStatus = noPets();
  let rows: { status: string; count: number | bigint | string }[];
  const everything = q === undefined && categoryIds.length === 0;
  if (everything) {
    rows = await readStatusCounts(tx);
  } else {
    const provider = dialect(tx);
    const sql = new Sql(provider);
    let matches: string;
    if (q === undefined) matches = `SELECT pets.status AS status FROM pets WHERE true`;
    else if (provider === "postgresql")
      matches = `SELECT pets.status AS status FROM pets WHERE pets.name ILIKE ${sql.param(containsPattern(q))}`;
    else if ([...q].length >= 3)
      matches = `SELECT pets.status AS status FROM pets_search JOIN pets ON pets.id = pets_search.rowid
                 WHERE pets_search MATCH ${sql.param(ftsPhrase(q))}`;
    else matches = `SELECT pets.status AS status FROM pets WHERE ${sqliteContains(sql, q)}`;
    if (categoryIds.length) matches += ` AND ${categoryCondition(sql, "pets.category_id", categoryIds)}`;
    const status = provider === "postgresql" ? "status::text" : "status";
    const text =
      `SELECT coalesce(${status}, 'none') AS status, CAST(count(*) AS TEXT) AS count ` +
      `FROM (${matches} LIMIT ${sql.param(SEARCH_COUNT_LIMIT + 1)}) AS matches GROUP BY 1`;
    rows = await tx.$queryRawUnsafe(text, ...sql.params);
  }
  for (const { status, count } of rows)
    if (Object.hasOwn(byStatus, status)) byStatus[status as keyof typeof byStatus] = Number(count);
  const total = Object.values(byStatus).reduce((sum, count) => sum + count, 0);
  return { total, byStatus, exact: everything || total <= SEARCH_COUNT_LIMIT };
}

/**
 * Adds a pet and its audit record, in `tx` (which the caller commits) or a transaction of its own: createPets'
 * statements, for one pet.
 */
export async function createPet(input: NewPet, audit: AuditContext, tx?: Transaction): Promise<VersionedPet> {
  const apply = async (tx: Transaction) => (await createPets([{ input, audit }], tx))[0];
  return tx ? apply(tx) : transaction(apply);
}

/**
 * The one INSERT of createPets, for each provider: every pet of the batch from one JSON parameter (an array of
 * [name, categoryId as text, status or null]), so that its text, and the statement prepared for it, are the same
 * whatever the batch's size (Prisma's createMany makes a statement of another shape, compiled anew, for every
 * number of rows). The rows are inserted in the array's order, so their ids ascend in it.
 */
const INSERT_PETS = {
  sqlite: `INSERT INTO pets (name, category_id, status, created_at)
    SELECT value ->> 0, CAST(value ->> 1 AS INTEGER), value ->> 2, ? FROM json_each(?) ORDER BY key
    RETURNING ${PET_COLUMNS.sqlite}`,
  postgresql: `INSERT INTO pets (name, category_id, status, created_at)
    SELECT item ->> 0, (item ->> 1)::bigint, (item ->> 2)::"PetStatus", CAST($1 AS timestamp(3))
    FROM jsonb_array_elements(CAST($2 AS jsonb)) WITH ORDINALITY AS items (item, position) ORDER BY position
    RETURNING ${PET_COLUMNS.postgresql}`,
};

/**
 * Adds many pets in `tx`, each with its audit record as createPet writes it, for an import's batch: one INSERT for
 * the pets and one for the records, each of a fixed shape (see INSERT_PETS and recordAudits). Returns them in the
 * order given. A statement's rows get ascending ids in the order of its input, so the returned rows sorted by id
 * are the inputs' in order; each is checked against its input all the same, and a mismatch rolls the batch back
 * rather than recording a line against another's pet.
 */
export async function createPets(
  items: { input: NewPet; audit: AuditContext }[],
  tx: Transaction,
): Promise<VersionedPet[]> {
  if (items.length === 0) return [];
  const data = items.map(({ input }) => ({
    name: input.name,
    categoryId: input.categoryId,
    status: input.status ?? null,
  }));
  const rows: RawPetRow[] = await tx.$queryRawUnsafe(
    INSERT_PETS[dialect(tx)],
    new Date(),
    JSON.stringify(data.map((pet) => [pet.name, String(pet.categoryId), pet.status])),
  );
  const created = rows.map(fromRawRow).sort((a, b) => (a.pet.id < b.pet.id ? -1 : a.pet.id > b.pet.id ? 1 : 0));
  if (created.length !== data.length) throw new Error("createPets: not every row was inserted");
  created.forEach(({ pet }, index) => {
    const wanted = data[index];
    if (pet.name !== wanted.name || pet.categoryId !== wanted.categoryId || (pet.status ?? null) !== wanted.status)
      throw new Error("createPets: the inserted rows do not come back in the order given");
  });
  await recordAudits(
    tx,
    created.map(({ pet }, index) => ({
      context: items[index].audit,
      entry: {
        action: "pet.created" as const,
        target: { type: "pet" as const, id: pet.id, label: pet.name },
        details: { after: pet },
        event: { data: pet },
      },
    })),
  );
  return created;
}

const FIND_PET = {
  sqlite: `SELECT ${PET_COLUMNS.sqlite} FROM pets WHERE id = ?`,
  postgresql: `SELECT ${PET_COLUMNS.postgresql} FROM pets WHERE id = $1`,
};
/** findPet's read, its row taken for the rest of the transaction (PostgreSQL; SQLite writes one at a time). */
const HOLD_PET = { ...FIND_PET, postgresql: `${FIND_PET.postgresql} FOR UPDATE` };

export async function findPet(id: bigint, tx: Transaction = db()): Promise<VersionedPet | undefined> {
  const rows: RawPetRow[] = await tx.$queryRawUnsafe(FIND_PET[dialect(tx)], id);
  return rows.length ? fromRawRow(rows[0]) : undefined;
}

/** The 404 of a pet that is not in the catalogue. */
export function noSuchPet(id: bigint): Refusal {
  return new Refusal("not_found", { message: `No pet has id ${id}.` });
}

/** The pet, its row held; refused when it does not exist, or its version does not meet `expected` (412). */
export async function heldPet(id: bigint, expected: Expected, tx: Transaction): Promise<VersionedPet> {
  const rows: RawPetRow[] = await tx.$queryRawUnsafe(HOLD_PET[dialect(tx)], id);
  if (!rows.length) throw noSuchPet(id);
  const current = fromRawRow(rows[0]);
  if (!meets(expected, current.version)) throw new Refusal("precondition_failed");
  return current;
}

/** The members whose values differ, each side as it was and as it is (an absent status as null). */
export function changedMembers(before: Pet, after: Pet): Record<"before" | "after", Record<string, unknown>> {
  const changed = { before: {} as Record<string, unknown>, after: {} as Record<string, unknown> };
  for (const member of petMembers) {
    if (before[member] === after[member]) continue;
    changed.before[member] = before[member] ?? null;
    changed.after[member] = after[member] ?? null;
  }
  return changed;
}

const DELETE_PET = {
  sqlite: "DELETE FROM pets WHERE id = ? AND version = ?",
  postgresql: "DELETE FROM pets WHERE id = $1 AND version = $2",
};

/**
 * Writes the changed members of a pet held at `version` and counts its version up, in one raw statement (one text
 * per set of members, so each is prepared once); the pet as it is after.
 */
async function writePet(
  id: bigint,
  version: number,
  data: { name?: string; categoryId?: bigint; status?: PetStatus | null },
  tx: Transaction,
): Promise<VersionedPet> {
  const provider = dialect(tx);
  const sql = new Sql(provider);
  const assignments: string[] = [];
  if (data.name !== undefined) assignments.push(`name = ${sql.param(data.name)}`);
  if (data.categoryId !== undefined) assignments.push(`category_id = ${sql.param(data.categoryId)}`);
  if (data.status !== undefined) assignments.push(`status = ${sql.param(data.status, '"PetStatus"')}`);
  assignments.push(`version = ${sql.param(version + 1)}`);
  const text =
    `UPDATE pets SET ${assignments.join(", ")} WHERE id = ${sql.param(id)} AND version = ${sql.param(version)} ` +
    `RETURNING ${PET_COLUMNS[provider]}`;
  const rows: RawPetRow[] = await tx.$queryRawUnsafe(text, ...sql.params);
  if (rows.length !== 1) throw new Error(`updatePet: pet ${id}, held at version ${version}, was not updated`);
  return fromRawRow(rows[0]);
}

/**
 * Applies a merge patch to a pet, only while its version meets `expected` (else 412; 404 without the pet).
 * Members equal to the pet's are no change: a patch that changes nothing writes nothing (no record either) and
 * keeps the version. The pet is read and written in one transaction holding its row (PostgreSQL: FOR UPDATE;
 * SQLite runs one write transaction at a time), so a change can neither be lost nor be checked against a version
 * that is already gone.
 */
export async function updatePet(
  id: bigint,
  patch: PetPatch,
  expected: Expected,
  audit: AuditContext,
  tx?: Transaction,
): Promise<VersionedPet> {
  const apply = async (tx: Transaction): Promise<VersionedPet> => {
    const current = await heldPet(id, expected, tx);
    const data: { name?: string; categoryId?: bigint; status?: PetStatus | null } = {};
    if (patch.name !== undefined && patch.name !== current.pet.name) data.name = patch.name;
    if (patch.categoryId !== undefined && patch.categoryId !== current.pet.categoryId)
      data.categoryId = patch.categoryId;
    if (patch.status !== undefined && patch.status !== (current.pet.status ?? null)) {
      const order = await openOrderOf(current.pet, tx);
      if (order) throw petOnHold(id, order.id, "its status cannot change");
      data.status = patch.status;
    }
    if (Object.keys(data).length === 0) return current;
    const updated = await writePet(id, current.version, data, tx);
    await recordAudit(tx, audit, {
      action: "pet.updated",
      target: { type: "pet", id, label: updated.pet.name },
      details: changedMembers(current.pet, updated.pet),
      event: { data: updated.pet, previous: previousValues(current.pet, updated.pet) },
    });
    return updated;
  };
  return tx ? apply(tx) : transaction(apply);
}

/**
 * Deletes a pet, only while its version meets `expected` (else 412; 404 without the pet), with its record. Its id
 * is never given again.
 */
export async function deletePet(id: bigint, expected: Expected, audit: AuditContext, tx?: Transaction): Promise<void> {
  const apply = async (tx: Transaction): Promise<void> => {
    const current = await heldPet(id, expected, tx);
    const order = await openOrderOf(current.pet, tx);
    if (order) throw petOnHold(id, order.id, "it cannot be deleted");
    const deleted = await tx.$executeRawUnsafe(DELETE_PET[dialect(tx)], id, current.version);
    if (deleted !== 1) throw new Error(`deletePet: pet ${id}, held at version ${current.version}, was not deleted`);
    await recordAudit(tx, audit, {
      action: "pet.deleted",
      target: { type: "pet", id, label: current.pet.name },
      // The version too: a restore (restorePet) puts the pet back one version on, so an ETag read before the
      // deletion never matches the pet brought back.
      details: { before: current.pet, version: current.version },
      event: { data: current.pet },
    });
  };
  return tx ? apply(tx) : transaction(apply);
}

/** How long after its deletion a pet can be restored (the admin app's Undo offers it for the first seconds). */
export const RESTORE_WINDOW_MS = 60_000;

/** The 409 of a restore of a pet that is in the catalogue (restored already). */
function restoredAlready(id: bigint): Refusal {
  return new Refusal("pet_exists", { message: `Pet #${id} is in the catalogue: it cannot be restored again.` });
}

/** What a pet.deleted record says the pet was, or undefined if it does not say (a record of another shape). */
function deletedState(details: string | null): { pet: Pet; version: number } | undefined {
  let parsed: unknown;
  try {
    parsed = details === null ? undefined : parseJson(details);
  } catch {
    return undefined;
  }
  const { before, version } = (parsed ?? {}) as { before?: unknown; version?: unknown };
  const pet = petSchema.safeParse(before);
  if (!pet.success || typeof version !== "bigint" || version < 1n || version >= 2n ** 31n - 1n) return undefined;
  return { pet: pet.data, version: Number(version) };
}

/**
 * Brings back a pet deleted less than RESTORE_WINDOW_MS ago, exactly as it was (same id, name, category and
 * status), from its pet.deleted record, with a pet.restored record in the same transaction. Its id was issued
 * once already, so nothing a create is given later can collide with it: neither SQLite's AUTOINCREMENT nor
 * PostgreSQL's sequence moves back. The status counts' triggers (and SQLite's search index) see an insert.
 * Refused when the pet exists (409 `pet_exists`, also when a second restore runs at the same time), when its last
 * record is not a deletion (404), when the deletion is older than the window (409 `restore_too_late`), when its
 * record does not say what the pet was (`restore_too_late` too), or when someone else deleted it (403
 * `restore_not_yours`).
 */
export async function restorePet(id: bigint, audit: AuditContext, now = new Date()): Promise<VersionedPet> {
  const apply = async (tx: Transaction): Promise<VersionedPet> => {
    if (await findPet(id, tx)) throw restoredAlready(id);
    const last = await tx.auditEvent.findFirst({
      where: { targetType: "pet", targetId: String(id) },
      orderBy: { id: "desc" },
      select: { action: true, at: true, details: true, actorType: true, actorId: true },
    });
    if (last?.action !== "pet.deleted") {
      // A restore committed since the first read (PostgreSQL reads each statement's own snapshot): the pet is
      // there now, with the record just read.
      if (await findPet(id, tx)) throw restoredAlready(id);
      throw new Refusal("not_found", { message: `No deleted pet has id ${id}: there is nothing to restore.` });
    }
    if (now.getTime() - last.at.getTime() > RESTORE_WINDOW_MS) throw new Refusal("restore_too_late");
    // A bulk reset's records (lib/demo-seed.ts) and deletions recorded before restoring existed hold no version.
    const state = deletedState(last.details);
    if (!state)
      throw new Refusal("restore_too_late", {
        message:
          `Pet #${id} cannot be restored: the record of its deletion does not say what it was (a reset of the ` +
          "demo catalogue, or a deletion made before restoring existed). Add it again instead.",
      });
    // Undo is of one's own deletion: not another staff member's, nor an API client's (final for /v1).
    const { actor } = audit;
    if (last.actorType !== actor.type || last.actorId !== ("id" in actor ? actor.id : null))
      throw new Refusal("restore_not_yours");
    const { pet } = state;
    const restored = toVersioned(
      await tx.pet.create({
        data: {
          id,
          name: pet.name,
          categoryId: pet.categoryId,
          status: pet.status ?? null,
          version: state.version + 1,
        },
        select: versionedColumns,
      }),
    );
    await recordAudit(tx, audit, {
      action: "pet.restored",
      target: { type: "pet", id, label: restored.pet.name },
      details: { after: restored.pet },
      event: { data: restored.pet },
    });
    return restored;
  };
  try {
    return await transaction(apply);
  } catch (error) {
    // Another restore of the same pet committed first: its insert holds the id.
    if (isUniqueViolation(error)) throw restoredAlready(id);
    throw error;
  }
}
