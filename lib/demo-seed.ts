import "server-only";
import { COMMAND_LINE, recordAudit, THE_APP, type AuditContext } from "@/lib/audit/record";
import { config } from "@/lib/config";
import type { Category } from "@/lib/categories/schema";
import { nameMissingCategories } from "@/lib/categories/store";
import { transaction, type Database, type Transaction } from "@/lib/db/client";
import { previousValues, recordEventsInSql } from "@/lib/events/outbox";
import { orderOf, type OrderRow } from "@/lib/orders/store";
import type { OrderStatus } from "@/lib/orders/schema";
import type { PetStatus } from "@/lib/pets/schema";

// A believable demo catalogue for an empty database: a few dozen pets across six named categories and
// all three statuses.

/** The demo's categories, named when the demo catalogue is seeded or reset (where the id has no name yet). */
export const DEMO_CATEGORIES: readonly Category[] = [
  { id: 1n, name: "Dogs" },
  { id: 2n, name: "Cats" },
  { id: 3n, name: "Birds" },
  { id: 4n, name: "Fish" },
  { id: 5n, name: "Reptiles" },
  { id: 6n, name: "Small mammals" },
];

const names: Record<number, string[]> = {
  1: ["Biscuit", "Luna", "Max", "Pepper", "Rocky", "Daisy", "Scout", "Maple"],
  2: ["Mittens", "Oliver", "Cleo", "Tiger", "Smokey", "Nala", "Jasper"],
  3: ["Kiwi", "Sunny", "Pip", "Mango", "Echo"],
  4: ["Bubbles", "Nemo", "Goldie", "Finn", "Coral"],
  5: ["Spike", "Iggy", "Shelly", "Rex"],
  6: ["Hazel", "Peanut", "Clover", "Thumper", "Nibbles"],
};
const statuses: PetStatus[] = ["available", "available", "pending", "available", "sold"];

export function demoPets(): { name: string; categoryId: bigint; status: PetStatus }[] {
  const pets = Object.entries(names).flatMap(([categoryId, list]) =>
    list.map((name) => ({ name, categoryId: BigInt(categoryId) })),
  );
  // Interleave categories so the first page already shows variety.
  pets.sort((a, b) => a.name.localeCompare(b.name));
  return pets.map((pet, index) => ({ ...pet, status: statuses[index % statuses.length] }));
}

/**
 * Adds the demo catalogue when the database has no pets; returns how many were added. Instances that
 * start together cannot both seed: the check and the insert run under the database's write lock.
 */
export async function seedDemoCatalogue(database: Database, provider: "sqlite" | "postgresql"): Promise<number> {
  return transaction(
    async (tx) => {
      // The lock first; on SQLite the no-op UPDATE takes the write lock now, not at the insert.
      if (provider === "postgresql") await tx.$executeRawUnsafe("SELECT pg_advisory_xact_lock(727073690)");
      else await tx.$executeRawUnsafe("UPDATE pets SET id = id WHERE 0");
      if ((await tx.pet.count()) > 0) return 0;
      const { count } = await tx.pet.createMany({ data: demoPets() });
      await recordEveryPet(tx, provider, "pet.created", THE_APP);
      await seedDemoOrders(tx, THE_APP);
      // Only with the demo pets: a database that already has pets is never given names it did not ask for.
      await nameMissingCategories(tx, DEMO_CATEGORIES, THE_APP);
      return count;
    },
    undefined,
    database,
  );
}

const CUSTOMERS = [
  ["Ada Lovelace", "ada@example.com"],
  ["Grace Hopper", undefined],
  ["Alan Turing", "alan@example.com"],
  ["Katherine Johnson", "katherine@example.com"],
  ["Edsger Dijkstra", undefined],
  ["Barbara Liskov", "barbara@example.com"],
] as const;

/**
 * The demo store at work: every pending pet held by an open order (placed, or approved), every sold pet by a
 * delivered one, and a few available pets with a cancelled or an expired order behind them, each order with the
 * records of its history at the times it happened. A placed order was placed within the last half of its hold
 * (ORDER_HOLD_SECONDS), so it still holds its pet.
 */
async function seedDemoOrders(tx: Transaction, context: AuditContext): Promise<void> {
  const pets = await tx.pet.findMany({ orderBy: { id: "asc" }, select: { id: true, name: true, status: true } });
  const now = Date.now();
  const hold = config().ORDER_HOLD_SECONDS * 1000;
  const step = Math.min(3_600_000, hold / (2 * (pets.length + 1))); // an hour apart, within half a hold
  let available = 0;
  for (const [index, pet] of pets.entries()) {
    const [customerName, customerEmail] = CUSTOMERS[index % CUSTOMERS.length];
    let placedAt = new Date(now - (index + 1) * step);
    const later = new Date(placedAt.getTime() + step / 2);
    const moves: { status: OrderStatus; at: Date }[] = [];
    if (pet.status === "pending" && index % 2 === 0) moves.push({ status: "approved", at: later });
    else if (pet.status === "sold") moves.push({ status: "delivered", at: later });
    else if (pet.status === "available" && available < 4) {
      placedAt = new Date(placedAt.getTime() - 2 * hold); // long ago
      moves.push(
        available++ % 2 === 0
          ? { status: "cancelled", at: new Date(placedAt.getTime() + hold / 2) }
          : { status: "expired", at: new Date(placedAt.getTime() + hold) },
      );
    } else if (pet.status !== "pending") continue;
    const last = moves.at(-1);
    const stamp = { approved: "approvedAt", delivered: "deliveredAt", cancelled: "cancelledAt", expired: "expiredAt" };
    const order = await tx.order.create({
      data: {
        petId: pet.id,
        petName: pet.name,
        customerName,
        customerEmail: customerEmail ?? null,
        status: last?.status ?? "placed",
        placedAt,
        expiresAt: new Date(placedAt.getTime() + hold),
        ...Object.fromEntries(moves.map((move) => [stamp[move.status as keyof typeof stamp], move.at])),
      },
      select: { id: true },
    });
    const target = { type: "order" as const, id: order.id, label: `${pet.name} to ${customerName}` };
    // Its events tell the same history: the order as placed, then as each move left it.
    let row: OrderRow = {
      id: order.id,
      petId: pet.id,
      petName: pet.name,
      status: "placed",
      customerName,
      customerEmail: customerEmail ?? null,
      placedAt,
      expiresAt: new Date(placedAt.getTime() + hold),
      approvedAt: null,
      deliveredAt: null,
      cancelledAt: null,
      expiredAt: null,
      version: 1,
    };
    await recordAudit(tx, context, {
      action: "order.placed",
      target,
      details: { demo: true },
      at: placedAt,
      event: { data: orderOf(row) },
    });
    for (const move of moves) {
      const before = orderOf(row);
      row = { ...row, status: move.status, [stamp[move.status as keyof typeof stamp]]: move.at };
      await recordAudit(tx, move.status === "expired" ? THE_APP : context, {
        action: `order.${move.status as "approved" | "delivered" | "cancelled" | "expired"}`,
        target,
        details: { demo: true },
        at: move.at,
        event: { data: orderOf(row), previous: previousValues(before, orderOf(row)) },
      });
    }
  }
}

/** A pet row as the JSON of its /v1 read (members in petSchema's order, no status when it has none), in SQL. */
const PET_JSON = {
  sqlite:
    "CASE WHEN status IS NULL THEN json_object('id', id, 'name', name, 'categoryId', category_id) " +
    "ELSE json_object('id', id, 'name', name, 'categoryId', category_id, 'status', status) END",
  postgresql:
    "json_strip_nulls(json_build_object('id', id, 'name', name, 'categoryId', category_id, 'status', status))::text",
};

/**
 * One record and one event per pet of `table` (pets, or the reset's copy of the pets it deleted), each written by
 * one INSERT … SELECT in the transaction of the bulk change (the seed's pets just added, or the reset's deleted), so
 * a bulk change is recorded like any other: every pet's history starts with its addition and ends with its
 * deletion, and the events feed tells both. The time has the form Prisma writes.
 */
async function recordEveryPet(
  tx: Transaction,
  provider: "sqlite" | "postgresql",
  action: "pet.created" | "pet.deleted",
  { actor }: AuditContext,
  table = "pets",
): Promise<void> {
  const now = provider === "sqlite" ? "strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')" : "now() AT TIME ZONE 'UTC'";
  const parameter = (index: number) => (provider === "sqlite" ? "?" : `$${index}`);
  await tx.$executeRawUnsafe(
    `INSERT INTO audit_events (at, actor_type, actor_label, action, target_type, target_id, target_label)
     SELECT ${now}, ${parameter(1)}, ${parameter(2)}, ${parameter(3)}, 'pet', CAST(id AS TEXT), name FROM ${table}`,
    actor.type,
    actor.label,
    action,
  );
  recordEventsInSql(
    tx,
    `INSERT INTO events (type, occurred_at, data)
     SELECT ${parameter(1)}, ${now}, ${PET_JSON[provider]} FROM ${table} ORDER BY id`,
    [action],
  );
}

/**
 * Restores the demo catalogue: deletes every pet and adds the demo pets again (with new ids), each deletion and
 * addition recorded as the command line's, and names the demo's categories whose id has no name yet (and whose name
 * is free), each recorded too. Categories that have names keep them (renames are not undone, none is deleted). API
 * keys and staff accounts are left alone. Returns how many pets were added.
 */
export async function resetDemoCatalogue(database: Database, provider: "sqlite" | "postgresql"): Promise<number> {
  return transaction(
    async (tx) => {
      // The pets deleted, kept until the commit for their records and events (written last: lib/events/outbox.ts).
      await tx.$executeRawUnsafe(
        "CREATE TEMPORARY TABLE reset_deleted_pets (id BIGINT, name TEXT, category_id BIGINT, status TEXT)",
      );
      if (provider === "postgresql")
        await tx.$executeRawUnsafe(
          `WITH deleted AS (DELETE FROM pets RETURNING id, name, category_id, status::text)
           INSERT INTO reset_deleted_pets SELECT * FROM deleted`,
        );
      else {
        // One writer at a time: what is read is what the next statement deletes.
        await tx.$executeRawUnsafe("INSERT INTO reset_deleted_pets SELECT id, name, category_id, status FROM pets");
        await tx.pet.deleteMany();
      }
      await recordEveryPet(tx, provider, "pet.deleted", COMMAND_LINE, "reset_deleted_pets");
      recordEventsInSql(tx, "DROP TABLE reset_deleted_pets"); // after the events read it
      await tx.order.deleteMany(); // the demo's sales go with its pets (no record: a reset starts the demo over)
      const { count } = await tx.pet.createMany({ data: demoPets() });
      await recordEveryPet(tx, provider, "pet.created", COMMAND_LINE);
      await seedDemoOrders(tx, COMMAND_LINE);
      await nameMissingCategories(tx, DEMO_CATEGORIES, COMMAND_LINE);
      return count;
    },
    { maxWait: 4000, timeout: 600_000 }, // a large catalogue's deletion records take a while
    database,
  );
}
