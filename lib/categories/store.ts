import "server-only";
import { recordAudit, type AuditContext } from "@/lib/audit/record";
import {
  compareCategories,
  categoryNameKey,
  type Category,
  type CategoryListing,
  type NewCategory,
} from "@/lib/categories/schema";
import { db, transaction, type Transaction } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { INT64_MAX } from "@/lib/http/int64";
import { Refusal } from "@/lib/refusal";

// Reads and writes of category names over Prisma, knowing nothing of HTTP. Every add and rename writes its audit
// record in the same transaction. Rows become plain Category objects here (no Prisma row reaches JSON). A pet's
// categoryId is not a reference to this table: counts are read from the pets' category_id index.

const columns = { id: true, name: true } as const;

/** Every named category, sorted by name (compareCategories): a handful, named by hand, so all in one read. */
export async function listCategories(tx: Transaction = db()): Promise<Category[]> {
  const rows = await tx.category.findMany({ select: columns });
  return rows.sort(compareCategories);
}

/** How many pets carry a categoryId, for every id some pet carries. */
export type CategoryCount = { id: bigint; pets: number };

/**
 * How many pets each categoryId holds, named or not: one GROUP BY that both databases answer from the
 * pets_category_id_id_idx index alone (an index-only scan; it reads each pet's index entry once, not the table, and not
 * once per category).
 */
export async function countPetsByCategory(tx: Transaction = db()): Promise<CategoryCount[]> {
  const groups = await tx.pet.groupBy({ by: ["categoryId"], _count: { _all: true }, orderBy: { categoryId: "asc" } });
  return groups.map((group) => ({ id: group.categoryId, pets: group._count._all }));
}

/** A row of the Categories page: a named category, or an id pets carry without a name (name null). */
export type { CategoryListing };

/** The named categories by name, each with its pets, then the ids pets carry without a name, by id. */
export async function listCategoriesWithCounts(tx: Transaction = db()): Promise<CategoryListing[]> {
  const [named, counts] = await Promise.all([listCategories(tx), countPetsByCategory(tx)]);
  const byId = new Map(counts.map((count) => [count.id, count.pets]));
  const names = new Set(named.map((category) => category.id));
  return [
    ...named.map((category) => ({ ...category, pets: byId.get(category.id) ?? 0 })),
    ...counts.filter((count) => !names.has(count.id)).map((count) => ({ ...count, name: null })),
  ];
}

function nameTaken(name: string, holder: Category): Refusal {
  const message =
    `The name “${name}” is taken: category ${holder.id} is called “${holder.name}” ` +
    "(names are compared ignoring case).";
  return new Refusal("category_name_taken", { message, errors: [{ path: "name", message }] });
}

async function holderOfName(tx: Transaction, name: string): Promise<Category | null> {
  return tx.category.findUnique({ where: { nameKey: categoryNameKey(name) }, select: columns });
}

/** How many ids in use one read of each index takes, looking for a free id. */
const ID_PAGE = 500;

/**
 * The first id from `from` on that no category names and no pet carries, or undefined when every id from there to
 * the int64 maximum is in use. Walks both indexes upwards a page at a time, so a long run of used ids costs pages,
 * not a read per id.
 */
async function firstFreeIdFrom(tx: Transaction, from: bigint): Promise<bigint | undefined> {
  let candidate = from;
  for (;;) {
    const [named, carried] = await Promise.all([
      tx.category.findMany({
        where: { id: { gte: candidate } },
        select: { id: true },
        orderBy: { id: "asc" },
        take: ID_PAGE,
      }),
      tx.pet.groupBy({
        by: ["categoryId"],
        where: { categoryId: { gte: candidate } },
        orderBy: { categoryId: "asc" },
        take: ID_PAGE,
      }),
    ]);
    const namedIds = named.map((row) => row.id);
    const carriedIds = carried.map((group) => group.categoryId);
    // A full page may stop short of ids the other index has: only ids up to the end of each full page are known.
    const ends = [namedIds, carriedIds].filter((ids) => ids.length === ID_PAGE).map((ids) => ids[ids.length - 1]);
    const known = ends.length > 0 ? ends.reduce((a, b) => (a < b ? a : b)) : INT64_MAX;
    const used = [...new Set([...namedIds, ...carriedIds])]
      .filter((id) => id <= known)
      .sort((a, b) => (a < b ? -1 : 1));
    for (const id of used) {
      if (id > candidate) return candidate;
      if (id === INT64_MAX) return undefined;
      candidate = id + 1n;
    }
    if (known === INT64_MAX || candidate <= known) return candidate;
  }
}

/**
 * A new category's id: the first after the largest named id that no pet carries (so naming it moves no pet into
 * the new category), or, when none is left up to the int64 maximum, the first free one from 1. Ids pets carry are
 * skipped but do not push the next id on: an API client may use any int64, 2^63−1 included, and that must not
 * leave the admins without ids (issue 20).
 */
async function nextId(tx: Transaction): Promise<bigint> {
  const largest = await tx.category.findFirst({ select: { id: true }, orderBy: { id: "desc" } });
  const after = largest && largest.id >= 1n && largest.id < INT64_MAX ? largest.id + 1n : 1n;
  const id = (await firstFreeIdFrom(tx, after)) ?? (after > 1n ? await firstFreeIdFrom(tx, 1n) : undefined);
  // Every positive int64 in use would take more rows than any database holds.
  if (id === undefined) throw new Error("every positive category id is in use");
  return id;
}

/**
 * Names a categoryId: `input.id`, or a new one (nextId). Refused when the name is another
 * category's (ignoring case) or the id already has a name. Two admins adding at once are told which of the two
 * refusals applies to them: a unique index refuses the second, and the reasons are read again.
 */
export async function createCategory(input: NewCategory, audit: AuditContext): Promise<Category> {
  const apply = async (tx: Transaction): Promise<Category> => {
    const holder = await holderOfName(tx, input.name);
    if (holder) throw nameTaken(input.name, holder);
    const id = input.id ?? (await nextId(tx));
    const named = await tx.category.findUnique({ where: { id }, select: columns });
    if (named) {
      const message = `Category ${id} already has a name: “${named.name}”.`;
      throw new Refusal("category_named", { message, errors: [{ path: "id", message }] });
    }
    const category = await tx.category.create({
      data: { id, name: input.name, nameKey: categoryNameKey(input.name) },
      select: columns,
    });
    await recordAudit(tx, audit, {
      action: "category.created",
      target: { type: "category", id: category.id, label: category.name },
      details: { after: category },
      event: { data: category },
    });
    return category;
  };
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction(apply);
    } catch (error) {
      // Another admin's add committed between the checks and the insert: the checks, run again, say which.
      if (!isUniqueViolation(error) || attempt === 3) throw error;
    }
  }
}

/** What a rename did: `changed` is false when the name was already exactly that (nothing recorded). */
export type CategoryRename = { category: Category; changed: boolean };

/** Renames a category; refused when the name is another category's (ignoring case). */
export async function renameCategory(id: bigint, name: string, audit: AuditContext): Promise<CategoryRename> {
  const apply = async (tx: Transaction): Promise<CategoryRename> => {
    const before = await tx.category.findUnique({ where: { id }, select: columns });
    if (!before) throw new Refusal("not_found", { message: `No category has the id ${id}: add it instead.` });
    if (before.name === name) return { category: before, changed: false };
    const holder = await holderOfName(tx, name);
    if (holder && holder.id !== id) throw nameTaken(name, holder);
    const category = await tx.category.update({
      where: { id },
      data: { name, nameKey: categoryNameKey(name) },
      select: columns,
    });
    await recordAudit(tx, audit, {
      action: "category.renamed",
      target: { type: "category", id, label: name },
      details: { before: { name: before.name }, after: { name } },
      event: { data: category, previous: { name: before.name } },
    });
    return { category, changed: true };
  };
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction(apply);
    } catch (error) {
      if (!isUniqueViolation(error) || attempt === 3) throw error;
    }
  }
}

/** What rekeyCategoryNames did: the keys it brought up to date, and the categories left with their old key. */
export type CategoryRekeying = {
  rekeyed: number;
  clashes: { category: Category; sameNameAs: Category }[];
};

/**
 * Brings every stored name_key up to date with categoryNameKey, run at start-up: a change of the key (issue 20:
 * format characters no longer count) would otherwise leave old rows keyed the old way, so a new "Dogs" would not
 * meet an old "Dogs" followed by a zero-width space. Categories are a handful named by hand: all are read at once.
 * Two old rows whose names are one name under the new key cannot both hold it (the unique index): the row whose key
 * is already current keeps it, the other keeps its old key and is reported, for an admin to rename; nothing fails
 * and both names still refuse a new duplicate. Idempotent, and safe beside another instance doing the same.
 */
export async function rekeyCategoryNames(tx: Transaction = db()): Promise<CategoryRekeying> {
  const rows = await tx.category.findMany({ select: { ...columns, nameKey: true }, orderBy: { id: "asc" } });
  const holders = new Map(rows.map((row) => [row.nameKey, row]));
  const result: CategoryRekeying = { rekeyed: 0, clashes: [] };
  for (const row of rows) {
    const key = categoryNameKey(row.name);
    if (key === row.nameKey) continue;
    const holder = holders.get(key);
    if (holder) {
      result.clashes.push({
        category: { id: row.id, name: row.name },
        sameNameAs: { id: holder.id, name: holder.name },
      });
      continue;
    }
    try {
      await tx.category.update({ where: { id: row.id, nameKey: row.nameKey }, data: { nameKey: key } });
    } catch (error) {
      // Another instance re-keyed it meanwhile, or a clashing name was added: the next start looks again.
      if (isUniqueViolation(error) || isNotFound(error)) continue;
      throw error;
    }
    holders.delete(row.nameKey);
    holders.set(key, row);
    result.rekeyed++;
  }
  return result;
}

function isNotFound(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2025";
}

/** The demo seed's names (lib/demo-seed.ts): each added where its id has no name and the name is free. */
export async function nameMissingCategories(
  tx: Transaction,
  categories: readonly Category[],
  audit: AuditContext,
): Promise<number> {
  let added = 0;
  for (const { id, name } of categories) {
    const [named, holder] = await Promise.all([
      tx.category.findUnique({ where: { id }, select: { id: true } }),
      holderOfName(tx, name),
    ]);
    if (named || holder) continue;
    await tx.category.create({ data: { id, name, nameKey: categoryNameKey(name) }, select: { id: true } });
    await recordAudit(tx, audit, {
      action: "category.created",
      target: { type: "category", id, label: name },
      details: { after: { id, name } },
      event: { data: { id, name } },
    });
    added++;
  }
  return added;
}
