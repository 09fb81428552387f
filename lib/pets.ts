import "server-only";
import { db } from "@/lib/db/client";
import { IdempotencyClaimLost, type StoredResponse } from "@/lib/idempotency";
import type { NewPet, Pet, PetStatus } from "@/lib/schemas/pet";

// Reads and writes of pets. Every query names its columns, and rows become plain Pet objects here:
// nothing from the client reaches `create` unlisted, and no Prisma row reaches JSON as it is.

const petColumns = { id: true, name: true, categoryId: true, status: true } as const;

function toPet(row: { id: bigint; name: string; categoryId: bigint; status: PetStatus | null }): Pet {
  const pet: Pet = { id: row.id, name: row.name, categoryId: row.categoryId };
  if (row.status !== null) pet.status = row.status;
  return pet;
}

export type PetPage = { pets: Pet[]; lastId?: bigint };

/**
 * One page of pets in ascending id order, after the given id: an index walk on the primary key, or on
 * (status, id) when filtered, however deep the page. `lastId` is set when more pets follow.
 */
export async function listPets(options: { limit: number; status?: PetStatus; afterId?: bigint }): Promise<PetPage> {
  const rows = await db().pet.findMany({
    select: petColumns,
    where: { status: options.status, id: options.afterId === undefined ? undefined : { gt: options.afterId } },
    orderBy: { id: "asc" },
    take: options.limit + 1,
  });
  const pets = rows.slice(0, options.limit).map(toPet);
  return rows.length > options.limit ? { pets, lastId: pets[pets.length - 1].id } : { pets };
}

/** What a create sent with an Idempotency-Key stores as its answer, in the transaction that adds the pet. */
export type IdempotentCreate = { apiKeyId: number; key: string; answer: (pet: Pet) => StoredResponse };

/**
 * Adds a pet. With an idempotency claim, the pet and the stored answer are written in one transaction:
 * either both exist or neither does, so a retry can never create a second pet.
 */
export async function createPet(input: NewPet, idempotency?: IdempotentCreate): Promise<Pet> {
  const data = { name: input.name, categoryId: input.categoryId, status: input.status ?? null };
  if (!idempotency) return toPet(await db().pet.create({ data, select: petColumns }));
  return db().$transaction(async (tx) => {
    const pet = toPet(await tx.pet.create({ data, select: petColumns }));
    const { status, body, location } = idempotency.answer(pet);
    const { count } = await tx.idempotencyRecord.updateMany({
      where: { apiKeyId: idempotency.apiKeyId, key: idempotency.key, responseStatus: null },
      data: { responseStatus: status, responseBody: body, location },
    });
    if (count !== 1) throw new IdempotencyClaimLost(); // rolls the pet back
    return pet;
    // Bounds above the pool's: waiting for a connection gives up first, and is answered 503.
  }, { maxWait: 4000, timeout: 8000 });
}

export async function findPet(id: bigint): Promise<Pet | undefined> {
  const row = await db().pet.findUnique({ where: { id }, select: petColumns });
  return row ? toPet(row) : undefined;
}
