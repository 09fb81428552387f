import "server-only";
import { setImmediate as nextTurn } from "node:timers/promises";
import { recordAudits, THE_APP, type AuditContext, type AuditEntry } from "@/lib/audit/record";
import { previousValues } from "@/lib/events/outbox";
import { config } from "@/lib/config";
import { db, transaction, type Database, type Transaction } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { meets, type Expected } from "@/lib/http/conditional";
import { findPet } from "@/lib/pets/store";
import { readStatusCounts } from "@/lib/pets/status-counts";
import type { Pet, PetStatus } from "@/lib/pets/schema";
import { Refusal } from "@/lib/refusal";
import {
  OPEN_ORDER_STATUSES,
  orderStatuses,
  type Inventory,
  type NewOrder,
  type Order,
  type OrderCounts,
  type OrderStatus,
} from "@/lib/orders/schema";

// Orders over Prisma, knowing nothing of HTTP. An order holds its pet: placing it moves the pet from available to
// pending by a conditional update (`… WHERE status = 'available'`), so of any number of concurrent orders for one
// pet exactly one finds it available, on SQLite (one writer at a time) and on PostgreSQL (the row lock the update
// takes; a waiting update checks its condition again on the row as committed). A partial unique index
// (orders_one_open_per_pet) backs this: at most one open order per pet. Every change writes its records (the
// order's, and the pet's when its status moves) in the same transaction. Each status change is a conditional update
// on the order's version too, so that of a concurrent deliver and cancel exactly one wins.

const orderColumns = {
  id: true,
  petId: true,
  status: true,
  customerName: true,
  customerEmail: true,
  petName: true,
  placedAt: true,
  expiresAt: true,
  approvedAt: true,
  deliveredAt: true,
  cancelledAt: true,
  expiredAt: true,
  version: true,
} as const;

export type OrderRow = {
  id: bigint;
  petId: bigint;
  status: OrderStatus;
  customerName: string;
  customerEmail: string | null;
  petName: string;
  placedAt: Date;
  expiresAt: Date;
  approvedAt: Date | null;
  deliveredAt: Date | null;
  cancelledAt: Date | null;
  expiredAt: Date | null;
  version: number;
};

/** An order and the count of its changes, which its ETag is made of. */
export type VersionedOrder = { order: Order; version: number };

/** A row as an Order: absent members for empty columns, `expiresAt` only while the order is placed. */
function toVersioned(row: OrderRow): VersionedOrder {
  const order: Order = {
    id: row.id,
    petId: row.petId,
    petName: row.petName,
    status: row.status,
    customerName: row.customerName,
    ...(row.customerEmail !== null && { customerEmail: row.customerEmail }),
    placedAt: row.placedAt.toISOString(),
    ...(row.status === "placed" && { expiresAt: row.expiresAt.toISOString() }),
    ...(row.approvedAt && { approvedAt: row.approvedAt.toISOString() }),
    ...(row.deliveredAt && { deliveredAt: row.deliveredAt.toISOString() }),
    ...(row.cancelledAt && { cancelledAt: row.cancelledAt.toISOString() }),
    ...(row.expiredAt && { expiredAt: row.expiredAt.toISOString() }),
  };
  return { order, version: row.version };
}

/** A row as the Order its /v1 read shows. */
export function orderOf(row: OrderRow): Order {
  return toVersioned(row).order;
}

/** The 404 of an order that does not exist. */
export function noSuchOrder(id: bigint): Refusal {
  return new Refusal("not_found", { message: `No order has id ${id}.` });
}

/** How a pet's status reads in a sentence. */
function statusWords(status: PetStatus | undefined): string {
  return status ?? "without a status";
}

/** The order's label in the activity log: "Biscuit to Ada Lovelace". */
function orderLabel(petName: string, customerName: string): string {
  return `${petName} to ${customerName}`;
}

/**
 * Moves the pet's status in the order's transaction, and gives the record that says so, for the caller to write
 * with the order's own (one INSERT for both): the pet's history says why. Nothing for a pet gone (a reset of the
 * demo catalogue): the order ends all the same.
 */
async function movePet(tx: Transaction, pet: Pet | undefined, to: PetStatus, orderId: bigint): Promise<AuditEntry[]> {
  if (!pet) return [];
  const moved = await tx.pet.updateMany({ where: { id: pet.id }, data: { status: to, version: { increment: 1 } } });
  if (moved.count === 0) return [];
  // Read back under the row lock the update took: a rename committed since `pet` was read is in the event's data.
  const after = (await findPet(pet.id, tx))?.pet ?? { ...pet, status: to };
  return [
    {
      action: "pet.updated",
      target: { type: "pet", id: pet.id, label: pet.name },
      details: { before: { status: pet.status ?? null }, after: { status: to }, order: orderId },
      event: { data: after, previous: { status: pet.status ?? null } },
    },
  ];
}

/** The event of an order's move: the order after it, and the members it changed as they were. */
function orderEvent(before: OrderRow, after: OrderRow): AuditEntry["event"] {
  const data = toVersioned(after).order;
  return { data, previous: previousValues(toVersioned(before).order, data) };
}

/** Writes a change's records, all as made by `context`, in one statement. */
function recordAll(tx: Transaction, context: AuditContext, entries: AuditEntry[]): Promise<void> {
  return recordAudits(
    tx,
    entries.map((entry) => ({ context, entry })),
  );
}

// Expiry. A placed order past its expiresAt is expired, and its pet available, by the first of: housekeeping, or
// any /v1 request (settleExpiredHolds, called by the /v1 guard), so that no read ever shows a lapsed hold. To cost
// nothing per request, this process remembers when the next hold can lapse at the earliest: the earliest expiresAt
// among placed orders when it last looked, and never later than a hold placed just after that look could end
// (every instance has the same ORDER_HOLD_SECONDS), less a minute for a placement committing late.

const LATE_COMMIT_MARGIN_MS = 60_000;
let nextLapseAt = 0;

function holdMs(): number {
  return config().ORDER_HOLD_SECONDS * 1000;
}

/** Expires every placed order whose hold has ended, in batches; returns how many it expired. */
export async function expireLapsedOrders(
  now = new Date(),
  database: Database = db(),
  batchSize = 100,
): Promise<number> {
  let expired = 0;
  for (;;) {
    const due = await database.order.findMany({
      where: { status: "placed", expiresAt: { lte: now } },
      orderBy: { expiresAt: "asc" },
      select: { id: true },
      take: batchSize,
    });
    for (const { id } of due) if (await transaction((tx) => expireOrder(tx, id, now), undefined, database)) expired++;
    if (due.length < batchSize) return expired;
    await nextTurn(); // requests waiting for the event loop (and SQLite's one connection) go first
  }
}

/**
 * Expires one order if it is still placed and past its hold, with its pet and their records; false otherwise. It
 * expired when its hold ended, whenever this runs.
 */
async function expireOrder(tx: Transaction, id: bigint, now: Date): Promise<boolean> {
  const row = await tx.order.findUnique({ where: { id }, select: orderColumns });
  if (row?.status !== "placed" || row.expiresAt > now) return false;
  const ended = await tx.order.updateMany({
    where: { id, version: row.version },
    data: { status: "expired", expiredAt: row.expiresAt, version: row.version + 1 },
  });
  if (ended.count === 0) return false; // approved, delivered or cancelled meanwhile
  const pet = (await findPet(row.petId, tx))?.pet;
  const after = { ...row, status: "expired" as const, expiredAt: row.expiresAt, version: row.version + 1 };
  await recordAll(tx, THE_APP, [
    {
      action: "order.expired",
      target: { type: "order", id, label: orderLabel(row.petName, row.customerName) },
      details: { before: { status: "placed" }, after: { status: "expired" }, petId: row.petId },
      event: orderEvent(row, after),
    },
    ...(await movePet(tx, pet, "available", id)),
  ]);
  return true;
}

/**
 * Expires the holds that have ended, when one can have: at most one indexed read per lapse, nothing otherwise.
 * Every /v1 request calls it before its work; requests arriving while a settling runs wait for that one.
 */
export async function settleExpiredHolds(now = Date.now()): Promise<void> {
  while (now >= nextLapseAt) {
    // A settling that began before `now` may have missed a hold ending in between: wait for it, then look again.
    settling ??= { from: now, done: settle(now).finally(() => (settling = undefined)) };
    const { from, done } = settling;
    await done;
    if (from >= now) return;
  }
}

let settling: { from: number; done: Promise<void> } | undefined;

async function settle(now: number): Promise<void> {
  await expireLapsedOrders(new Date(now));
  const next = await db().order.findFirst({
    where: { status: "placed" },
    orderBy: { expiresAt: "asc" },
    select: { expiresAt: true },
  });
  nextLapseAt = Math.min(next?.expiresAt.getTime() ?? Infinity, now + holdMs() - LATE_COMMIT_MARGIN_MS);
}

/** Forgets when the next hold lapses, so that the next request looks (for tests that move the clock). */
export function forgetNextLapse(): void {
  nextLapseAt = 0;
}

/**
 * Places an order for an available pet: the pet becomes pending, the order is placed, holding it for
 * ORDER_HOLD_SECONDS, and both are recorded, in `tx` (which the caller commits: an idempotent request's) or a
 * transaction of its own. 400 `unknown_pet` without the pet; 409 `pet_not_available` when it is not available.
 */
export async function placeOrder(input: NewOrder, audit: AuditContext, tx?: Transaction): Promise<VersionedOrder> {
  const apply = async (tx: Transaction): Promise<VersionedOrder> => {
    const now = new Date();
    const held = await tx.pet.updateMany({
      where: { id: input.petId, status: "available" },
      data: { status: "pending", version: { increment: 1 } },
    });
    const pet = await findPet(input.petId, tx);
    if (!pet) {
      throw new Refusal("unknown_pet", {
        message: `Invalid order: no pet has id ${input.petId}.`,
        errors: [{ path: "petId", message: `no pet has id ${input.petId}` }],
      });
    }
    if (held.count === 0) {
      throw new Refusal("pet_not_available", {
        message: `Pet #${input.petId} is ${statusWords(pet.pet.status)}, not available: it cannot be ordered.`,
      });
    }
    const placed = toVersioned(
      await tx.order.create({
        data: {
          petId: input.petId,
          status: "placed",
          customerName: input.customerName,
          customerEmail: input.customerEmail ?? null,
          petName: pet.pet.name,
          placedAt: now,
          expiresAt: new Date(now.getTime() + holdMs()),
        },
        select: orderColumns,
      }),
    );
    const { order } = placed;
    await recordAll(tx, audit, [
      {
        action: "order.placed",
        target: { type: "order", id: order.id, label: orderLabel(pet.pet.name, order.customerName) },
        details: { after: order },
        event: { data: order },
      },
      {
        action: "pet.updated",
        target: { type: "pet", id: pet.pet.id, label: pet.pet.name },
        details: { before: { status: "available" }, after: { status: "pending" }, order: order.id },
        event: { data: pet.pet, previous: { status: "available" } },
      },
    ]);
    return placed;
  };
  let placed: VersionedOrder;
  try {
    placed = await (tx ? apply(tx) : transaction(apply));
  } catch (error) {
    // orders_one_open_per_pet: only reachable if the pet's status was set back by hand while an order held it.
    if (isUniqueViolation(error))
      throw new Refusal("pet_not_available", { message: `Pet #${input.petId} is held by another order.` });
    throw error;
  }
  nextLapseAt = Math.min(nextLapseAt, Date.parse(placed.order.expiresAt!));
  return placed;
}

export async function findOrder(id: bigint, tx: Transaction = db()): Promise<VersionedOrder | undefined> {
  const row = await tx.order.findUnique({ where: { id }, select: orderColumns });
  return row ? toVersioned(row) : undefined;
}

/**
 * The open (placed or approved) order holding a pet, if one does. Only a pending pet can have one (an order makes
 * its pet pending, and nothing else may change its status while the order is open), so for any other the answer is
 * known without a query: deletes and status changes of the rest of the catalogue pay nothing for orders.
 */
export async function openOrderOf(pet: Pet, tx: Transaction = db()): Promise<{ id: bigint } | undefined> {
  if (pet.status !== "pending") return undefined;
  const row = await tx.order.findFirst({
    where: { petId: pet.id, status: { in: [...OPEN_ORDER_STATUSES] } },
    select: { id: true },
  });
  return row ?? undefined;
}

/** The 409 of a change an open order forbids the pet: its status, or its deletion. */
export function petOnHold(petId: bigint, orderId: bigint, change: string): Refusal {
  return new Refusal("pet_on_hold", {
    message:
      `Order #${orderId} holds pet #${petId}: ${change} until the order is delivered, cancelled or expires ` +
      `(/v1/store/orders/${orderId}).`,
  });
}

export type OrderPage = { orders: Order[]; more: boolean };

export type ListOrdersOptions = {
  limit: number;
  status?: OrderStatus;
  petId?: bigint;
  q?: string;
  sort?: "id" | "-id";
  after?: bigint;
};

/**
 * A page of orders in id order (ascending, or descending for `-id`) after the given id, optionally of one status
 * and one pet (each an index ending in the id), and whose customer name contains `q` as plain text (no wildcards;
 * ASCII letters ignoring case on SQLite, all letters on PostgreSQL): a walk testing each order, as a search of a
 * store's few thousand orders needs.
 */
export async function listOrders(options: ListOrdersOptions, tx: Transaction = db()): Promise<OrderPage> {
  const descending = options.sort === "-id";
  const take = options.limit + 1;
  const after = options.after === undefined ? undefined : descending ? { lt: options.after } : { gt: options.after };
  const where = { status: options.status, petId: options.petId, id: after };
  const orderBy = { id: descending ? ("desc" as const) : ("asc" as const) };
  let rows: OrderRow[];
  if (options.q === undefined) {
    rows = await tx.order.findMany({ select: orderColumns, where, orderBy, take });
  } else {
    const ids = await matchingOrderIds({ ...options, q: options.q }, take, tx);
    rows = await tx.order.findMany({ select: orderColumns, where: { id: { in: ids } }, orderBy });
  }
  return {
    orders: rows.slice(0, options.limit).map((row) => toVersioned(row).order),
    more: rows.length > options.limit,
  };
}

/** The ids of listOrders' page when it searches: the customer name's containing `q` tested as text, not a pattern. */
async function matchingOrderIds(options: ListOrdersOptions & { q: string }, take: number, tx: Transaction) {
  const postgres = config().database.provider === "postgresql";
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return postgres ? `$${params.length}` : "?";
  };
  const where = [`${postgres ? "strpos" : "instr"}(lower(customer_name), lower(${param(options.q)})) > 0`];
  if (options.status)
    where.push(`status = ${postgres ? `CAST(${param(options.status)} AS "OrderStatus")` : param(options.status)}`);
  if (options.petId !== undefined) where.push(`pet_id = ${param(options.petId)}`);
  const descending = options.sort === "-id";
  if (options.after !== undefined) where.push(`id ${descending ? "<" : ">"} ${param(options.after)}`);
  const text =
    `SELECT CAST(id AS TEXT) AS id FROM orders WHERE ${where.join(" AND ")} ` +
    `ORDER BY id${descending ? " DESC" : ""} LIMIT ${param(take)}`;
  const rows: { id: string }[] = await tx.$queryRawUnsafe(text, ...params);
  return rows.map((row) => BigInt(row.id));
}

/** How many orders each status holds: a count over the (status, id) index. */
export async function countOrders(tx: Transaction = db()): Promise<OrderCounts> {
  const groups = await tx.order.groupBy({ by: ["status"], _count: { _all: true } });
  const byStatus = Object.fromEntries(orderStatuses.map((status) => [status, 0])) as OrderCounts["byStatus"];
  for (const group of groups) byStatus[group.status] = group._count._all;
  return { total: Object.values(byStatus).reduce((sum, count) => sum + count, 0), byStatus };
}

/** getInventory: pets by status, from the counts the catalogue keeps exact (lib/pets/status-counts.ts). */
export async function inventory(tx: Transaction = db()): Promise<Inventory> {
  const counts: Inventory = { available: 0, pending: 0, sold: 0 };
  for (const { status, count } of await readStatusCounts(tx))
    if (Object.hasOwn(counts, status)) counts[status as keyof Inventory] = Number(count);
  return counts;
}

/** The status changes staff and clients make, each from the statuses it may leave. */
export const ORDER_TRANSITIONS = {
  approve: { from: ["placed"], to: "approved", stamp: "approvedAt", pet: undefined },
  deliver: { from: ["placed", "approved"], to: "delivered", stamp: "deliveredAt", pet: "sold" },
  cancel: { from: ["placed", "approved"], to: "cancelled", stamp: "cancelledAt", pet: "available" },
} as const satisfies Record<
  string,
  { from: readonly OrderStatus[]; to: OrderStatus; stamp: keyof OrderRow; pet: PetStatus | undefined }
>;
export type OrderTransition = keyof typeof ORDER_TRANSITIONS;

/** What a refused transition says: the order's status, and what that status allows instead. */
function transitionRefused(id: bigint, transition: OrderTransition, status: OrderStatus): Refusal {
  const verb = { approve: "approved", deliver: "delivered", cancel: "cancelled" }[transition];
  const allowed = ORDER_TRANSITIONS[transition].from.join(" or ");
  return new Refusal("order_status_conflict", {
    message: `Order #${id} is ${status}: only a ${allowed} order can be ${verb}. Nothing changed.`,
  });
}

/**
 * Approves, delivers or cancels an order, only while its version meets `expected` (else 412; 404 without the
 * order) and its status allows it (else 409 `order_status_conflict` naming the status); delivering sells its pet,
 * cancelling makes it available again, all in one transaction with their records. The update is conditional on the
 * version read, so of two concurrent changes exactly one applies; the other reads the order again and is judged
 * against what won.
 */
export async function changeOrder(
  id: bigint,
  transition: OrderTransition,
  expected: Expected,
  audit: AuditContext,
): Promise<VersionedOrder> {
  const { from, to, stamp, pet: petStatus } = ORDER_TRANSITIONS[transition];
  for (;;) {
    const now = new Date();
    await settleExpiredHolds(now.getTime());
    const outcome = await transaction(async (tx): Promise<VersionedOrder | "again"> => {
      const current = await tx.order.findUnique({ where: { id }, select: orderColumns });
      if (!current) throw noSuchOrder(id);
      if (!meets(expected, current.version)) {
        throw new Refusal("precondition_failed", {
          message:
            `Order #${id} has changed since it was read: If-Match does not match its current ETag. ` + "Read it again.",
        });
      }
      if (!(from as readonly OrderStatus[]).includes(current.status))
        throw transitionRefused(id, transition, current.status);
      // A hold that ended this instant is the expiry's: settle it, then judge again.
      if (current.status === "placed" && current.expiresAt <= now) return "again";
      const changed = await tx.order.updateMany({
        where: { id, version: current.version },
        data: { status: to, [stamp]: now, version: current.version + 1 },
      });
      if (changed.count === 0) return "again"; // another change won: judge against it
      const pet = (await findPet(current.petId, tx))?.pet;
      const next = { ...current, status: to, [stamp]: now, version: current.version + 1 };
      await recordAll(tx, audit, [
        {
          action: `order.${to}`,
          target: { type: "order", id, label: orderLabel(current.petName, current.customerName) },
          details: { before: { status: current.status }, after: { status: to }, petId: current.petId },
          event: orderEvent(current, next),
        },
        ...(petStatus ? await movePet(tx, pet, petStatus, id) : []),
      ]);
      return toVersioned(next);
    });
    if (outcome !== "again") return outcome;
    nextLapseAt = 0;
  }
}
