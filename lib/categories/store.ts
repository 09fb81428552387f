import "server-only";
import { recordAudit, type AuditContext } from "@/lib/audit/record";
import { compareCategories, categoryNameKey, type Category, type NewCategory } from "@/lib/categories/schema";
import { db, type Transaction } from "@/lib/db/client";
import { INT64_MAX } from "@/lib/http/int64";

// Reads and writes of category names over Prisma, knowing nothing of HTTP. Every add and rename writes its audit
// record in the same transaction. Rows become plain Category objects here (no Prisma row reaches JSON). A pet's
// categoryId is not a reference to this table: counts are read from the pets' category_id index.

const columns = { id: true, name: true } as const;

/** Why a change was refused; the admin endpoints answer each with a code of lib/http/error-codes.ts. */
export class CategoryError extends Error {
  constructor(
    readonly kind: "name_taken" | "id_taken" | "not_found" | "no_id_left",
    message: string,
  ) {
    super(message);
  }
}

/** Every named category, sorted by name (compareCategories): a handful, named by hand, so all in one read. */
export async function listCategories(tx: Transaction = db()): Promise<Category[]> {
  const rows = await tx.category.findMany({ select: columns });
  return rows.sort(compareCategories);
}

/** How many pets carry a categoryId, for every id some pet carries. */
export type CategoryCount = { id: bigint; pets: number };

/**
 * How many pets each categoryId holds, named or not: one GROUP BY that both databases answer from the
 * pets_category_id_idx index alone (an index-only scan; it reads each pet's index entry once, not the table, and not
 * once per category).
 */
export async function countPetsByCategory(tx: Transaction = db()): Promise<CategoryCount[]> {
  const groups = await tx.pet.groupBy({ by: ["categoryId"], _count: { _all: true }, orderBy: { categoryId: "asc" } });
  return groups.map((group) => ({ id: group.categoryId, pets: group._count._all }));
}

/** A row of the Categories page: a named category, or an id pets carry without a name (name null). */
export type CategoryListing = { id: bigint; name: string | null; pets: number };

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

function nameTaken(name: string, holder: Category): CategoryError {
  return new CategoryError(
    "name_taken",
    `The name “${name}” is taken: category ${holder.id} is called “${holder.name}” (names are compared ignoring case).`,
  );
}

async function holderOfName(tx: Transaction, name: string): Promise<Category | null> {
  return tx.category.findUnique({ where: { nameKey: categoryNameKey(name) }, select: columns });
}

/**
 * The id after every id in use: the largest named id or categoryId a pet carries (each the end of an index), plus
 * one, and at least 1.
 */
async function nextId(tx: Transaction): Promise<bigint> {
  const [named, carried] = await Promise.all([
    tx.category.findFirst({ select: { id: true }, orderBy: { id: "desc" } }),
    tx.pet.findFirst({ select: { categoryId: true }, orderBy: { categoryId: "desc" } }),
  ]);
  const largest = [named?.id ?? 0n, carried?.categoryId ?? 0n].reduce((a, b) => (a > b ? a : b));
  if (largest >= INT64_MAX)
    throw new CategoryError("no_id_left", `No id is left after ${INT64_MAX}: give the category an id (id).`);
  return largest + 1n;
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}

/**
 * Names a categoryId: `input.id`, or the next id after every one in use. Refused when the name is another
 * category's (ignoring case) or the id already has a name. Two admins adding at once are told which of the two
 * refusals applies to them: a unique index refuses the second, and the reasons are read again.
 */
export async function createCategory(input: NewCategory, audit: AuditContext): Promise<Category> {
  const apply = async (tx: Transaction): Promise<Category> => {
    const holder = await holderOfName(tx, input.name);
    if (holder) throw nameTaken(input.name, holder);
    const id = input.id ?? (await nextId(tx));
    const named = await tx.category.findUnique({ where: { id }, select: columns });
    if (named) throw new CategoryError("id_taken", `Category ${id} already has a name: “${named.name}”.`);
    const category = await tx.category.create({
      data: { id, name: input.name, nameKey: categoryNameKey(input.name) },
      select: columns,
    });
    await recordAudit(tx, audit, {
      action: "category.created",
      target: { type: "category", id: category.id, label: category.name },
      details: { after: category },
    });
    return category;
  };
  for (let attempt = 1; ; attempt++) {
    try {
      return await db().$transaction(apply, { maxWait: 4000, timeout: 8000 });
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
    if (!before) throw new CategoryError("not_found", `No category has the id ${id}: add it instead.`);
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
    });
    return { category, changed: true };
  };
  for (let attempt = 1; ; attempt++) {
    try {
      return await db().$transaction(apply, { maxWait: 4000, timeout: 8000 });
    } catch (error) {
      if (!isUniqueViolation(error) || attempt === 3) throw error;
    }
  }
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
    });
    added++;
  }
  return added;
}
