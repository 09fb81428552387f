import "server-only";
import { setImmediate as nextTurn } from "node:timers/promises";
import { recordAudits, type AuditContext } from "@/lib/audit/record";
import { dialect, type Transaction } from "@/lib/db/client";
import { previousValues } from "@/lib/events/outbox";
import type { Handler } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/body";
import { stringifyJson } from "@/lib/http/json";
import { parseOrThrow } from "@/lib/http/validation";
import { OPEN_ORDER_STATUSES } from "@/lib/orders/schema";
import { idempotency } from "@/lib/idempotency";
import { BATCH_BODY_LIMIT_BYTES, petBatchSchema, type PetBatch } from "@/lib/pets/batch-schema";
import type { Pet, PetStatus } from "@/lib/pets/schema";
import { changedMembers, fromRawRow, PET_COLUMNS, type RawPetRow, type VersionedPet } from "@/lib/pets/store";
import { Refusal } from "@/lib/refusal";
import { auditContextOf, type ApiClient } from "@/lib/v1/guard";

// POST /v1/pets/batch — one change to many pets at once (the admin app's bulk actions): set a status or a category,
// or delete. Atomic: every pet named is changed, or none is, and a refusal names each pet that stood in the way
// (unknown, or held by an open order), so that a client can leave them out and send the rest again. Each pet gets
// its own audit record and event, in the same transaction, as a PATCH or DELETE of it would write.

type BatchResult = {
  action: PetBatch["action"];
  changed: number;
  results: { id: bigint; changed: boolean; pet: Pet; previous?: Record<string, unknown> }[];
};

/**
 * The statements of a batch, for each provider, each of one text whatever the number of pets: the ids come as one
 * JSON array parameter, so each is compiled and prepared once (Prisma's `in` lists are compiled anew for every
 * length: docs/decisions/001-sqlite-writes-yield.md). Rows come back with ids as text, never rounded.
 */
const OPEN = OPEN_ORDER_STATUSES.map((status) => `'${status}'`).join(", ");
const SQLITE_IDS = "SELECT CAST(value AS INTEGER) FROM json_each(?)";
const SQLITE_PET = PET_COLUMNS.sqlite;
const POSTGRES_IDS = "SELECT CAST(value AS bigint) FROM jsonb_array_elements_text(CAST($1 AS jsonb))";
const POSTGRES_PET = PET_COLUMNS.postgresql;
const SQL = {
  sqlite: {
    select: `SELECT ${SQLITE_PET} FROM pets WHERE id IN (${SQLITE_IDS})`,
    holds:
      "SELECT CAST(pet_id AS TEXT) AS pet_id, CAST(id AS TEXT) AS id FROM orders " +
      `WHERE status IN (${OPEN}) AND pet_id IN (${SQLITE_IDS})`,
    update:
      "UPDATE pets SET status = CASE WHEN ? THEN ? ELSE status END, " +
      "category_id = CASE WHEN ? THEN CAST(? AS INTEGER) ELSE category_id END, version = version + 1 " +
      `WHERE id IN (${SQLITE_IDS}) RETURNING ${SQLITE_PET}`,
    delete: `DELETE FROM pets WHERE id IN (${SQLITE_IDS})`,
  },
  postgresql: {
    // The rows are taken in id order, so that two batches over the same pets wait for each other, never deadlock.
    select: `SELECT ${POSTGRES_PET} FROM pets WHERE id IN (${POSTGRES_IDS}) ORDER BY id FOR UPDATE`,
    holds:
      "SELECT pet_id::text AS pet_id, id::text AS id FROM orders " +
      `WHERE status IN (${OPEN}) AND pet_id IN (${POSTGRES_IDS})`,
    update:
      'UPDATE pets SET status = CASE WHEN $2 THEN CAST($3 AS "PetStatus") ELSE status END, ' +
      "category_id = CASE WHEN $4 THEN CAST($5 AS bigint) ELSE category_id END, version = version + 1 " +
      `WHERE id IN (${POSTGRES_IDS}) RETURNING ${POSTGRES_PET}`,
    delete: `DELETE FROM pets WHERE id IN (${POSTGRES_IDS})`,
  },
};

/** How many pets one statement of a batch takes; between two, the other requests get their turn. */
const CHUNK = 100;

/** Runs `work` on each CHUNK of `items`, waiting for the event loop's next turn between two. */
async function inChunks<T, R>(items: T[], work: (chunk: T[]) => Promise<R[]>): Promise<R[]> {
  const done: R[] = [];
  for (let start = 0; start < items.length; start += CHUNK) {
    if (start > 0) await nextTurn();
    done.push(...(await work(items.slice(start, start + CHUNK))));
  }
  return done;
}

/**
 * The UPDATE's parameters in each provider's order: whether to set the status and to what, whether to set the
 * category and to what, and the ids (first on PostgreSQL, whose ids list is $1; last on SQLite, whose `?` count
 * from the left).
 */
function updateParameters(
  provider: "sqlite" | "postgresql",
  ids: string,
  status: PetStatus | null | undefined,
  categoryId: bigint | undefined,
) {
  const set = [status !== undefined, status ?? null, categoryId !== undefined, categoryId?.toString() ?? null];
  return provider === "postgresql" ? [ids, ...set] : [...set.map(sqliteValue), ids];
}

/** A value as better-sqlite3 binds it: booleans as 1 and 0. */
function sqliteValue(value: boolean | string | null): number | string | null {
  return typeof value === "boolean" ? Number(value) : value;
}

/** Writes the records (and events) in chunks, as the pets were changed. */
async function recordAuditsInChunks(tx: Transaction, records: Parameters<typeof recordAudits>[1]): Promise<void> {
  await inChunks(records, async (chunk) => {
    await recordAudits(tx, chunk);
    return [];
  });
}

/** The ids as the statements' JSON array parameter. */
const idList = (ids: bigint[]) => JSON.stringify(ids.map(String));

/** The pets named, their rows held for the rest of the transaction (SQLite writes one transaction at a time). */
async function heldPets(ids: bigint[], tx: Transaction): Promise<Map<bigint, VersionedPet>> {
  const sql = SQL[dialect(tx)];
  // In ascending id order across the chunks too (PostgreSQL locks each chunk's rows as it reads them), so that two
  // batches naming the same pets in any order take their locks in the same order.
  const ascending = [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const rows = await inChunks(ascending, (chunk) => tx.$queryRawUnsafe<RawPetRow[]>(sql.select, idList(chunk)));
  return new Map(rows.map((row) => [BigInt(row.id), fromRawRow(row)]));
}

/** The open order holding each of these pets, by pet id (only a pending pet can be held). */
async function holdsOf(pets: VersionedPet[], tx: Transaction): Promise<Map<bigint, bigint>> {
  const pending = pets.filter(({ pet }) => pet.status === "pending").map(({ pet }) => pet.id);
  const sql = SQL[dialect(tx)];
  const rows = await inChunks(pending, (chunk) =>
    tx.$queryRawUnsafe<{ pet_id: string; id: string }[]>(sql.holds, idList(chunk)),
  );
  return new Map(rows.map((row) => [BigInt(row.pet_id), BigInt(row.id)]));
}

/** The 409 of a batch that changed nothing, naming every pet in its way by its place in `ids`. */
function batchRefused(problems: { index: number; message: string }[]): Refusal {
  const count = problems.length;
  return new Refusal("batch_refused", {
    message:
      `Nothing was changed: ${count} of the pets named ${count === 1 ? "stands" : "stand"} in the way ` +
      "(errors[] names each). Leave them out and send the batch again.",
    errors: problems.map(({ index, message }) => ({ path: `ids.${index}`, message })),
  });
}

/** The members a pet gets from `set`, those it has already left out. */
function changesFor(pet: Pet, set: Extract<PetBatch, { action: "update" }>["set"]) {
  const data: { categoryId?: bigint; status?: PetStatus | null } = {};
  if (set.categoryId !== undefined && set.categoryId !== pet.categoryId) data.categoryId = set.categoryId;
  if (set.status !== undefined && set.status !== (pet.status ?? null)) data.status = set.status;
  return data;
}

/**
 * Applies a batch in `tx`: every pet named exists and no open order holds one whose status would change (or that
 * would be deleted), or nothing changes (409 batch_refused). A pet that already has what `set` gives is left as it
 * is, without a record. One UPDATE (or DELETE) for the pets that change and one INSERT for their records.
 */
export async function applyBatch(batch: PetBatch, audit: AuditContext, tx: Transaction): Promise<BatchResult> {
  const found = await heldPets(batch.ids, tx);
  const problems: { index: number; message: string }[] = [];
  batch.ids.forEach((id, index) => {
    if (!found.has(id)) problems.push({ index, message: `No pet has id ${id}.` });
  });
  const present = batch.ids.flatMap((id) => found.get(id) ?? []);
  const changes = new Map(
    present.map(({ pet }) => [pet.id, batch.action === "update" ? changesFor(pet, batch.set) : {}] as const),
  );
  const touchesStatus = (id: bigint) => batch.action === "delete" || changes.get(id)?.status !== undefined;
  const holds = await holdsOf(
    present.filter(({ pet }) => touchesStatus(pet.id)),
    tx,
  );
  batch.ids.forEach((id, index) => {
    const order = holds.get(id);
    if (order === undefined) return;
    const change = batch.action === "delete" ? "it cannot be deleted" : "its status cannot change";
    problems.push({ index, message: `Order #${order} holds pet #${id}: ${change} until the order ends.` });
  });
  if (problems.length) throw batchRefused(problems.sort((a, b) => a.index - b.index));

  if (batch.action === "delete") {
    const sql = SQL[dialect(tx)];
    await inChunks(present, async (chunk) => {
      await tx.$executeRawUnsafe(sql.delete, idList(chunk.map(({ pet }) => pet.id)));
      return [];
    });
    await recordAuditsInChunks(
      tx,
      present.map(({ pet, version }) => ({
        context: audit,
        entry: {
          action: "pet.deleted" as const,
          target: { type: "pet" as const, id: pet.id, label: pet.name },
          details: { before: pet, version },
          event: { data: pet },
        },
      })),
    );
    return {
      action: "delete",
      changed: present.length,
      results: present.map(({ pet }) => ({ id: pet.id, changed: true, pet })),
    };
  }

  const changing = present.filter(({ pet }) => Object.keys(changes.get(pet.id)!).length > 0);
  // One statement a chunk: members a pet has already are set to the same value, which changes nothing.
  const { status, categoryId } = batch.set;
  const sql = SQL[dialect(tx)];
  const updated = await inChunks(changing, (chunk) =>
    tx.$queryRawUnsafe<RawPetRow[]>(
      sql.update,
      ...updateParameters(dialect(tx), idList(chunk.map(({ pet }) => pet.id)), status, categoryId),
    ),
  );
  const after = new Map(updated.map((row) => [BigInt(row.id), fromRawRow(row)]));
  await recordAuditsInChunks(
    tx,
    changing.map(({ pet }) => {
      const now = after.get(pet.id)!.pet;
      return {
        context: audit,
        entry: {
          action: "pet.updated" as const,
          target: { type: "pet" as const, id: pet.id, label: now.name },
          details: changedMembers(pet, now),
          event: { data: now, previous: previousValues(pet, now) },
        },
      };
    }),
  );
  return {
    action: "update",
    changed: changing.length,
    results: present.map(({ pet }) => {
      const updated = after.get(pet.id)?.pet;
      return updated
        ? { id: pet.id, changed: true, pet: updated, previous: changedMembers(pet, updated).before }
        : { id: pet.id, changed: false, pet };
    }),
  };
}

// POST /v1/pets/batch — batchPets
export const batchPetsHandler: Handler<ApiClient> = async ({ request, requestId, caller }) => {
  const once = idempotency(request, caller.apiKey.id, caller.actingStaff?.id);
  const body = await readJsonBody(request, undefined, BATCH_BODY_LIMIT_BYTES);
  const batch = parseOrThrow(petBatchSchema, body.json, "invalid_body", "Invalid batch");
  return once.run(body.text, async (tx) => {
    const result = await applyBatch(batch, auditContextOf(caller, requestId), tx);
    return { status: 200, body: stringifyJson(result), location: null, etag: null };
  });
};
