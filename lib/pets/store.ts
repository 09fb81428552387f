import "server-only";
import { db, type Transaction } from "@/lib/db/client";
import { petMembers, type NewPet, type Pet, type PetStatus } from "@/lib/pets/schema";

// Reads and writes of pets over Prisma, knowing nothing of HTTP. Each takes an optional transaction to
// run in (a caller that must record something with the change hands one in). Every query selects
// petSchema's members, and rows become plain Pet objects here: nothing from a client reaches `create`
// unlisted, and no Prisma row reaches JSON as it is.

const petColumns = Object.fromEntries(petMembers.map((member) => [member, true])) as { [Member in keyof Pet]-?: true };

type PetRow = {
  [Member in keyof Pet]-?: Exclude<Pet[Member], undefined> | (undefined extends Pet[Member] ? null : never);
};

/** A row as a Pet: a column that is null is a member that is absent. */
function toPet(row: PetRow): Pet {
  return Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null)) as Pet;
}

export type PetPage = { pets: Pet[]; more: boolean };

/**
 * One page of pets in ascending id order, after the given id: an index walk on the primary key, or on
 * (status, id) when filtered, however deep the page. `more` says whether pets follow.
 */
export async function listPets(
  options: { limit: number; status?: PetStatus; afterId?: bigint },
  tx: Transaction = db(),
): Promise<PetPage> {
  const rows = await tx.pet.findMany({
    select: petColumns,
    where: { status: options.status, id: options.afterId === undefined ? undefined : { gt: options.afterId } },
    orderBy: { id: "asc" },
    take: options.limit + 1,
  });
  return { pets: rows.slice(0, options.limit).map(toPet), more: rows.length > options.limit };
}

export async function createPet(input: NewPet, tx: Transaction = db()): Promise<Pet> {
  return toPet(
    await tx.pet.create({
      data: { name: input.name, categoryId: input.categoryId, status: input.status ?? null },
      select: petColumns,
    }),
  );
}

export async function findPet(id: bigint, tx: Transaction = db()): Promise<Pet | undefined> {
  const row = await tx.pet.findUnique({ where: { id }, select: petColumns });
  return row ? toPet(row) : undefined;
}
