import "server-only";
import { recordAudit, type AuditContext } from "@/lib/audit/record";
import { config } from "@/lib/config";
import { db, type Transaction } from "@/lib/db/client";
import { petMembers, type NewPet, type Pet, type PetPatch, type PetStatus } from "@/lib/pets/schema";

// Reads and writes of pets over Prisma, knowing nothing of HTTP. Each takes an optional transaction to
// run in (a caller that must record something with the change hands one in). Every change writes its
// audit record (lib/audit) in the same transaction, naming who made it. Every query selects
// petSchema's members, and rows become plain Pet objects here: nothing from a client reaches `create`
// unlisted, and no Prisma row reaches JSON as it is.

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

function toVersioned({ version, ...row }: PetRow & { version: number }): VersionedPet {
  return { pet: toPet(row), version };
}

export type PetPage = { pets: Pet[]; more: boolean };

export type ListOptions = { limit: number; status?: PetStatus; q?: string; afterId?: bigint };

/**
 * One page of pets in ascending id order, after the given id: an index walk on the primary key, or on
 * (status, id) when filtered, however deep the page. With `q`, only pets whose name contains it, ignoring
 * case, found through the name's own index (see matchingIds). `more` says whether pets follow.
 */
export async function listPets(options: ListOptions, tx: Transaction = db()): Promise<PetPage> {
  const take = options.limit + 1;
  const after = options.afterId === undefined ? undefined : { gt: options.afterId };
  if (options.q === undefined) {
    const rows = await tx.pet.findMany({
      select: petColumns,
      where: { status: options.status, id: after },
      orderBy: { id: "asc" },
      take,
    });
    return { pets: rows.slice(0, options.limit).map(toPet), more: rows.length > options.limit };
  }
  // Whether more follow is the matches' to say: a pet deleted between the two reads leaves a shorter page, never
  // a page without its next link.
  const ids = await matchingIds({ ...options, q: options.q }, take, tx);
  const rows = await tx.pet.findMany({
    select: petColumns,
    where: { id: { in: ids.slice(0, options.limit) } },
    orderBy: { id: "asc" },
  });
  return { pets: rows.map(toPet), more: ids.length > options.limit };
}

/** `text` as a LIKE pattern matching names that contain it, with `\` escaping LIKE's wildcards. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, "\\$&")}%`;
}

/**
 * The ids of the first `take` pets after `afterId` whose name contains `q`, ignoring case, in ascending order.
 * PostgreSQL: ILIKE, which a pg_trgm GIN index answers for three characters or more. SQLite: the FTS5
 * trigram table pets_search, which returns its rowids (pet ids) in order, so the walk stops after `take`
 * matches; shorter fragments have no trigram to look up and scan the table in id order instead. Ids are read
 * as text: SQLite hands raw integers back as JavaScript numbers. ORDER BY names the table's column: a bare `id`
 * would mean the select list's text `id`, sorting ids as strings ("100" before "57"), which picks the wrong
 * pets for the page and cannot walk the primary key (both databases then sort every match).
 */
async function matchingIds(options: ListOptions & { q: string }, take: number, tx: Transaction): Promise<bigint[]> {
  const { q, status, afterId = 0n } = options;
  let rows: { id: string }[];
  if (config().database.provider === "postgresql") {
    const byStatus = status ? ` AND status = CAST($4 AS "PetStatus")` : "";
    const sql = `SELECT id::text AS id FROM pets WHERE name ILIKE $1 AND id > $2${byStatus} ORDER BY pets.id LIMIT $3`;
    rows = await tx.$queryRawUnsafe(sql, containsPattern(q), afterId, take, ...(status ? [status] : []));
  } else if ([...q].length >= 3) {
    const phrase = `"${q.replaceAll('"', '""')}"`; // one FTS5 string: the text itself, as a phrase of its trigrams
    const sql = status
      ? `SELECT CAST(pets_search.rowid AS TEXT) AS id FROM pets_search JOIN pets ON pets.id = pets_search.rowid
         WHERE pets_search MATCH ? AND pets_search.rowid > ? AND pets.status = ? ORDER BY pets_search.rowid LIMIT ?`
      : `SELECT CAST(rowid AS TEXT) AS id FROM pets_search WHERE pets_search MATCH ? AND rowid > ?
         ORDER BY rowid LIMIT ?`;
    rows = await tx.$queryRawUnsafe(sql, phrase, afterId, ...(status ? [status] : []), take);
  } else {
    // LIKE ignores the case of ASCII letters only, which is all an ASCII fragment needs; any other fragment is
    // matched by contains_folded (lib/db/sqlite-adapter.ts), which lower-cases as JavaScript does.
    const ascii = !/[^\x20-\x7e]/.test(q); // q has no control characters (petSearchSchema)
    const byStatus = status ? " AND status = ?" : "";
    const matches = ascii ? "name LIKE ? ESCAPE '\\'" : "contains_folded(name, ?)";
    const sql = `SELECT CAST(id AS TEXT) AS id FROM pets WHERE ${matches} AND id > ?${byStatus}
                 ORDER BY pets.id LIMIT ?`;
    const search = ascii ? containsPattern(q) : q.toLowerCase();
    rows = await tx.$queryRawUnsafe(sql, search, afterId, ...(status ? [status] : []), take);
  }
  return rows.map((row) => BigInt(row.id));
}

/** Adds a pet and its audit record, in `tx` (which the caller commits) or a transaction of its own. */
export async function createPet(input: NewPet, audit: AuditContext, tx?: Transaction): Promise<VersionedPet> {
  const apply = async (tx: Transaction): Promise<VersionedPet> => {
    const created = toVersioned(
      await tx.pet.create({
        data: { name: input.name, categoryId: input.categoryId, status: input.status ?? null },
        select: versionedColumns,
      }),
    );
    const { pet } = created;
    await recordAudit(tx, audit, {
      action: "pet.created",
      target: { type: "pet", id: pet.id, label: pet.name },
      details: { after: pet },
    });
    return created;
  };
  return tx ? apply(tx) : db().$transaction(apply, { maxWait: 4000, timeout: 8000 });
}

export async function findPet(id: bigint, tx: Transaction = db()): Promise<VersionedPet | undefined> {
  const row = await tx.pet.findUnique({ where: { id }, select: versionedColumns });
  return row ? toVersioned(row) : undefined;
}

/**
 * What a conditional change expects of the pet's version: one of `among` (If-Match), and none of `notAmong`
 * (If-None-Match). An absent member asks nothing.
 */
export type Expected = { among?: number[]; notAmong?: number[] };

function meets(expected: Expected, version: number): boolean {
  return (!expected.among || expected.among.includes(version)) && !expected.notAmong?.includes(version);
}

export type ChangeOutcome<T> = { kind: "done"; result: T } | { kind: "not_found" } | { kind: "stale" };

/** Takes the pet's row for the rest of the transaction (PostgreSQL: FOR UPDATE; SQLite writes one at a time). */
async function holdPet(id: bigint, tx: Transaction): Promise<void> {
  if (config().database.provider === "postgresql")
    await tx.$executeRawUnsafe("SELECT 1 FROM pets WHERE id = $1 FOR UPDATE", id);
}

/** The members whose values differ, each side as it was and as it is (an absent status as null). */
function changedMembers(before: Pet, after: Pet): Record<"before" | "after", Record<string, unknown>> {
  const changed = { before: {} as Record<string, unknown>, after: {} as Record<string, unknown> };
  for (const member of petMembers) {
    if (before[member] === after[member]) continue;
    changed.before[member] = before[member] ?? null;
    changed.after[member] = after[member] ?? null;
  }
  return changed;
}

/**
 * Applies a merge patch to a pet, only while its version meets `expected`. Members equal to the pet's are no
 * change: a patch that changes nothing writes nothing (no record either) and keeps the version. The pet is read
 * and written in one transaction holding its row (PostgreSQL: FOR UPDATE; SQLite runs one write transaction
 * at a time), so a change can neither be lost nor be checked against a version that is already gone.
 */
export async function updatePet(
  id: bigint,
  patch: PetPatch,
  expected: Expected,
  audit: AuditContext,
  tx?: Transaction,
): Promise<ChangeOutcome<VersionedPet>> {
  const apply = async (tx: Transaction): Promise<ChangeOutcome<VersionedPet>> => {
    await holdPet(id, tx);
    const current = await findPet(id, tx);
    if (!current) return { kind: "not_found" };
    if (!meets(expected, current.version)) return { kind: "stale" };
    const data: { name?: string; categoryId?: bigint; status?: PetStatus | null } = {};
    if (patch.name !== undefined && patch.name !== current.pet.name) data.name = patch.name;
    if (patch.categoryId !== undefined && patch.categoryId !== current.pet.categoryId)
      data.categoryId = patch.categoryId;
    if (patch.status !== undefined && patch.status !== (current.pet.status ?? null)) data.status = patch.status;
    if (Object.keys(data).length === 0) return { kind: "done", result: current };
    const row = await tx.pet.update({
      where: { id, version: current.version },
      data: { ...data, version: current.version + 1 },
      select: versionedColumns,
    });
    const updated = toVersioned(row);
    await recordAudit(tx, audit, {
      action: "pet.updated",
      target: { type: "pet", id, label: updated.pet.name },
      details: changedMembers(current.pet, updated.pet),
    });
    return { kind: "done", result: updated };
  };
  return tx ? apply(tx) : db().$transaction(apply, { maxWait: 4000, timeout: 8000 });
}

/** Deletes a pet, only while its version meets `expected`, with its record. Its id is never given again. */
export async function deletePet(
  id: bigint,
  expected: Expected,
  audit: AuditContext,
  tx?: Transaction,
): Promise<ChangeOutcome<undefined>> {
  const apply = async (tx: Transaction): Promise<ChangeOutcome<undefined>> => {
    await holdPet(id, tx);
    const current = await findPet(id, tx);
    if (!current) return { kind: "not_found" };
    if (!meets(expected, current.version)) return { kind: "stale" };
    await tx.pet.delete({ where: { id, version: current.version }, select: { id: true } });
    await recordAudit(tx, audit, {
      action: "pet.deleted",
      target: { type: "pet", id, label: current.pet.name },
      details: { before: current.pet },
    });
    return { kind: "done", result: undefined };
  };
  return tx ? apply(tx) : db().$transaction(apply, { maxWait: 4000, timeout: 8000 });
}
