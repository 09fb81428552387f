import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { COMMAND_LINE } from "@/lib/audit/record";
import { databaseConfig } from "@/lib/config";
import { createDatabase, db, withDatabase, type Database } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/sqlite/client";
import { runHousekeeping } from "@/lib/housekeeping";
import { IDEMPOTENCY_TTL_MS } from "@/lib/idempotency";
import { findOrder, placeOrder } from "@/lib/orders/store";
import { createPet, findPet } from "@/lib/pets/store";
import { oldestRateLimitWindowKept } from "@/lib/rate-limit";
import { createMigratedDatabase, startServer, testProviders, type TestDatabase } from "@/scripts/harness/servers";

// Housekeeping on each database: a backlog far larger than one batch is deleted in one run, batch by
// batch, and every row still needed survives; activity records go only past AUDIT_RETENTION_DAYS; the
// server runs it at start; a placed order past its hold is expired by it, its pet freed.

const BACKLOG = 25_000;
const SESSIONS_BACKLOG = 2_500;
const BATCH_SIZE = 700; // a last batch of 500 rows, then none: the run stops on a short batch
const AUDIT_BACKLOG = 2_500;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const providers = await testProviders();

/**
 * Inserts a backlog, 1,000 rows a statement; `rows` name the table's columns. (Prisma's createMany took
 * about 20 s for 25,000 records here.) The dates go through the same adapter as the app's own writes.
 */
async function insertBacklog(client: Database, table: string, rows: Record<string, unknown>[]): Promise<void> {
  const columns = Prisma.raw(
    Object.keys(rows[0])
      .map((column) => `"${column}"`)
      .join(", "),
  );
  for (let start = 0; start < rows.length; start += 1000) {
    const values = rows.slice(start, start + 1000).map((row) => Prisma.sql`(${Prisma.join(Object.values(row))})`);
    await client.$executeRaw`INSERT INTO ${Prisma.raw(`"${table}"`)} (${columns}) VALUES ${Prisma.join(values)}`;
  }
}

for (const provider of providers) {
  describe(`housekeeping on ${provider}`, () => {
    let database: TestDatabase;
    let client: Database;
    let staffId: number;

    before(async () => {
      database = await createMigratedDatabase(provider);
      client = createDatabase(databaseConfig(database.url));
      staffId = (
        await client.staff.create({
          data: { email: "housekeeping@animal-store.example", passwordHash: "unused" },
          select: { id: true },
        })
      ).id;
    });

    after(async () => {
      await client?.$disconnect();
      await database?.drop();
    });

    test(`${BACKLOG} rows of a backlog go in one run of bounded batches; live rows stay`, async () => {
      const now = new Date();
      const expiry = now.getTime() - IDEMPOTENCY_TTL_MS;
      const record = (key: string, createdAt: Date) => ({
        apiKeyId: 1 + (key.length % 3),
        key,
        requestHash: "0".repeat(64),
        responseStatus: 201,
        responseBody: "{}",
        lockedAt: createdAt,
        createdAt,
      });
      // Expired: from a minute past the 24 hours back to a few days; live: from exactly 24 hours on.
      await insertBacklog(
        client,
        "idempotency_records",
        Array.from({ length: BACKLOG }, (_, index) => {
          const createdAt = new Date(expiry - MINUTE - index * 10_000);
          return {
            api_key_id: 1 + (index % 3),
            key: `expired-${index}`,
            request_hash: "0".repeat(64),
            response_status: 201,
            response_body: "{}",
            locked_at: createdAt,
            created_at: createdAt,
          };
        }),
      );
      // The rows that must survive are written by Prisma, as the app writes them.
      const liveRecords = [
        record("live-at-the-limit", new Date(expiry)),
        record("live-a-minute-inside", new Date(expiry + MINUTE)),
        ...Array.from({ length: 300 }, (_, index) => record(`live-${index}`, new Date(now.getTime() - index * 1000))),
      ];
      await client.idempotencyRecord.createMany({ data: liveRecords });

      // Counters: 250 keys × 100 windows before the oldest one kept; live: that window and the two after it.
      const oldest = oldestRateLimitWindowKept(now.getTime());
      const window = 60n;
      const counters = (windows: bigint[]) =>
        Array.from({ length: 250 }, (_, key) =>
          windows.map((windowStart) => ({ apiKeyId: key + 1, windowStart, count: 7 })),
        ).flat();
      await insertBacklog(
        client,
        "rate_limit_counters",
        counters(Array.from({ length: 100 }, (_, index) => oldest - 1n - BigInt(index) * window)).map(
          ({ apiKeyId, windowStart, count }) => ({ api_key_id: apiKeyId, window_start: windowStart, count }),
        ),
      );
      await client.rateLimitCounter.createMany({ data: counters([oldest, oldest + window, oldest + 2n * window]) });

      // Sessions: expired from the current instant back; live from a minute on.
      const session = (id: string, expiresAt: Date) => ({ id, staffId, createdAt: now, expiresAt });
      await insertBacklog(
        client,
        "staff_sessions",
        Array.from({ length: SESSIONS_BACKLOG }, (_, index) => ({
          id: `expired-${index}`,
          staff_id: staffId,
          created_at: now,
          expires_at: new Date(now.getTime() - index * MINUTE),
        })),
      );
      await client.staffSession.createMany({
        data: Array.from({ length: 20 }, (_, index) =>
          session(`live-${index}`, new Date(now.getTime() + (index + 1) * MINUTE)),
        ),
      });

      const started = performance.now();
      const report = await runHousekeeping({ database: client, batchSize: BATCH_SIZE, now, auditRetentionDays: 0 });
      const elapsed = performance.now() - started;

      const batchesFor = (rows: number) => Math.floor(rows / BATCH_SIZE) + 1; // full batches, then a short one
      assert.deepEqual(report, {
        idempotencyRecords: { rows: BACKLOG, batches: batchesFor(BACKLOG) },
        rateLimitCounters: { rows: BACKLOG, batches: batchesFor(BACKLOG) },
        staffSessions: { rows: SESSIONS_BACKLOG, batches: batchesFor(SESSIONS_BACKLOG) },
        signInThrottles: { rows: 0, batches: 1 },
        signInLocks: { rows: 0, batches: 1 },
        auditEvents: { rows: 0, batches: 0 },
        petStatusCountDeltas: { rows: 0, batches: provider === "postgresql" ? 1 : 0 },
        expiredOrders: { rows: 0, batches: 1 },
        events: { rows: 0, batches: 1 },
        webhookDeliveries: { rows: 0, batches: 1 },
        photos: { rows: 0, batches: 1 },
      });
      assert.deepEqual(
        (await client.idempotencyRecord.findMany({ select: { key: true } })).map(({ key }) => key).sort(),
        liveRecords.map(({ key }) => key).sort(),
      );
      assert.equal(await client.rateLimitCounter.count(), 250 * 3);
      assert.equal(await client.rateLimitCounter.count({ where: { windowStart: { lt: oldest } } }), 0);
      assert.deepEqual(
        (await client.staffSession.findMany({ select: { id: true } })).map(({ id }) => id).sort(),
        Array.from({ length: 20 }, (_, index) => `live-${index}`).sort(),
      );

      // Nothing is left to do: the next run deletes nothing, in one batch of each kind.
      assert.deepEqual(await runHousekeeping({ database: client, batchSize: BATCH_SIZE, now, auditRetentionDays: 0 }), {
        idempotencyRecords: { rows: 0, batches: 1 },
        rateLimitCounters: { rows: 0, batches: 1 },
        staffSessions: { rows: 0, batches: 1 },
        signInThrottles: { rows: 0, batches: 1 },
        signInLocks: { rows: 0, batches: 1 },
        auditEvents: { rows: 0, batches: 0 },
        petStatusCountDeltas: { rows: 0, batches: provider === "postgresql" ? 1 : 0 },
        expiredOrders: { rows: 0, batches: 1 },
        events: { rows: 0, batches: 1 },
        webhookDeliveries: { rows: 0, batches: 1 },
        photos: { rows: 0, batches: 1 },
      });
      console.log(`housekeeping ${provider}: ${2 * BACKLOG + SESSIONS_BACKLOG} rows in ${Math.round(elapsed)} ms`);
    });

    test("activity records older than AUDIT_RETENTION_DAYS go in bounded batches; 0 keeps every one", async () => {
      const now = new Date();
      const RETENTION_DAYS = 30;
      const cutoff = now.getTime() - RETENTION_DAYS * DAY;
      const record = (index: number, at: Date) => ({
        actorType: "api_key",
        actorId: 1,
        actorLabel: "shop",
        action: "pet.updated",
        targetType: "pet",
        targetId: String(index + 1),
        targetLabel: `pet ${index}`,
        details: '{"before":{"status":"available"},"after":{"status":"sold"}}',
        clientAddress: "203.0.113.7",
        requestId: `request-${index}`,
        at,
      });
      // Old: from a minute past the retention back a year or so; kept: exactly at the limit, and newer.
      await client.auditEvent.createMany({
        data: Array.from({ length: AUDIT_BACKLOG }, (_, index) =>
          record(index, new Date(cutoff - MINUTE - index * 3 * 60 * MINUTE)),
        ),
      });
      const kept = [
        record(AUDIT_BACKLOG, new Date(cutoff)),
        ...Array.from({ length: 40 }, (_, index) =>
          record(AUDIT_BACKLOG + 1 + index, new Date(now.getTime() - (index * DAY) / 2)),
        ),
      ];
      await client.auditEvent.createMany({ data: kept });
      const total = AUDIT_BACKLOG + kept.length;

      const keepAll = await runHousekeeping({ database: client, batchSize: BATCH_SIZE, now, auditRetentionDays: 0 });
      assert.deepEqual(keepAll.auditEvents, { rows: 0, batches: 0 });
      assert.equal(await client.auditEvent.count(), total);

      const report = await runHousekeeping({
        database: client,
        batchSize: BATCH_SIZE,
        now,
        auditRetentionDays: RETENTION_DAYS,
      });
      assert.deepEqual(report.auditEvents, {
        rows: AUDIT_BACKLOG,
        batches: Math.floor(AUDIT_BACKLOG / BATCH_SIZE) + 1,
      });
      assert.deepEqual(
        (await client.auditEvent.findMany({ select: { requestId: true }, orderBy: { id: "asc" } })).map(
          ({ requestId }) => requestId,
        ),
        kept.map(({ requestId }) => requestId),
      );
      const again = await runHousekeeping({ database: client, batchSize: BATCH_SIZE, now, auditRetentionDays: 30 });
      assert.deepEqual(again.auditEvents, { rows: 0, batches: 1 });
      await client.auditEvent.deleteMany();
    });

    test("events past EVENT_RETENTION_DAYS go oldest first, in bounded batches, up to the first one kept", async () => {
      const now = new Date();
      const RETENTION_DAYS = 30;
      const cutoff = now.getTime() - RETENTION_DAYS * DAY;
      const event = (index: number, at: Date) => ({ type: "pet.created", occurredAt: at, data: `{"id":${index}}` });
      // Oldest first, as the feed writes them: a backlog past the retention, then one at the limit and newer ones,
      // and behind them one older again (the demo's made-up history), which waits for those before it.
      const old = Array.from({ length: AUDIT_BACKLOG }, (_, index) =>
        event(index, new Date(cutoff - MINUTE - (AUDIT_BACKLOG - index) * 60 * MINUTE)),
      );
      const kept = [
        event(AUDIT_BACKLOG, new Date(cutoff)),
        ...Array.from({ length: 10 }, (_, index) =>
          event(AUDIT_BACKLOG + 1 + index, new Date(now.getTime() - index * DAY)),
        ),
        event(AUDIT_BACKLOG + 11, new Date(cutoff - DAY)),
      ];
      await client.event.createMany({ data: [...old, ...kept] });

      const report = await runHousekeeping({ database: client, batchSize: BATCH_SIZE, now, eventRetentionDays: 30 });
      assert.deepEqual(report.events, { rows: AUDIT_BACKLOG, batches: Math.floor(AUDIT_BACKLOG / BATCH_SIZE) + 1 });
      assert.deepEqual(
        (await client.event.findMany({ select: { data: true }, orderBy: { id: "asc" } })).map(({ data }) => data),
        kept.map(({ data }) => data),
      );
      const again = await runHousekeeping({ database: client, batchSize: BATCH_SIZE, now, eventRetentionDays: 30 });
      assert.deepEqual(again.events, { rows: 0, batches: 1 });
      await client.event.deleteMany();
    });

    test("webhook deliveries done and older than EVENT_RETENTION_DAYS go; pending and recent ones stay", async () => {
      const now = new Date();
      const endpoint = await client.webhookEndpoint.create({
        data: { url: "https://hooks.example/", secret: "whsec_unused", lastEventId: 0n },
      });
      const delivery = (state: string, createdAt: Date, index: number) => ({
        endpointId: endpoint.id,
        eventType: "pet.created",
        messageId: `evt_${index}`,
        state,
        createdAt,
      });
      const old = new Date(now.getTime() - 31 * DAY);
      const done = Array.from({ length: AUDIT_BACKLOG }, (_, index) =>
        delivery(index % 2 ? "failed" : "succeeded", old, index),
      );
      const kept = [delivery("pending", old, -1), delivery("succeeded", new Date(now.getTime() - 29 * DAY), -2)];
      await client.webhookDelivery.createMany({ data: [...done, ...kept] });
      const report = await runHousekeeping({ database: client, batchSize: BATCH_SIZE, now, eventRetentionDays: 30 });
      assert.deepEqual(report.webhookDeliveries, {
        rows: AUDIT_BACKLOG,
        batches: Math.floor(AUDIT_BACKLOG / BATCH_SIZE) + 1,
      });
      assert.deepEqual(
        (await client.webhookDelivery.findMany({ select: { messageId: true }, orderBy: { id: "asc" } })).map(
          ({ messageId }) => messageId,
        ),
        ["evt_-1", "evt_-2"],
      );
      await client.webhookEndpoint.delete({ where: { id: endpoint.id } });
    });

    test("a deleted pet's photos are marked, kept past a restore's window, then go with their images", async () => {
      const now = new Date();
      const pet = await client.pet.create({ data: { name: "Gone", categoryId: 1n }, select: { id: true } });
      const kept = await client.pet.create({ data: { name: "Kept", categoryId: 1n }, select: { id: true } });
      const photoOf = async (petId: bigint) => {
        const photo = await client.photo.create({
          data: { petId, position: 0, contentType: "image/png", width: 1, height: 1, bytes: 1 },
          select: { id: true },
        });
        for (const size of ["thumb", "medium", "full"])
          await client.photoImage.create({
            data: { photoId: photo.id, size, contentType: "image/png", width: 1, height: 1, data: new Uint8Array([1]) },
          });
        return photo.id;
      };
      const gone = await photoOf(pet.id);
      const stays = await photoOf(kept.id);
      await client.pet.delete({ where: { id: pet.id } });
      const run = (at: Date) => runHousekeeping({ database: client, batchSize: BATCH_SIZE, now: at });

      assert.deepEqual((await run(now)).photos, { rows: 0, batches: 1 }, "marked, not deleted");
      const marked = await client.photo.findUnique({ where: { id: gone }, select: { petDeletedAt: true } });
      assert.equal(marked?.petDeletedAt?.getTime(), now.getTime());
      assert.deepEqual((await run(new Date(now.getTime() + 59_000))).photos.rows, 0, "within a restore's window");
      assert.deepEqual((await run(new Date(now.getTime() + 61_000))).photos, { rows: 1, batches: 1 });
      assert.deepEqual(
        (await client.photo.findMany({ select: { id: true } })).map(({ id }) => id),
        [stays],
      );
      assert.deepEqual(
        [...new Set((await client.photoImage.findMany({ select: { photoId: true } })).map(({ photoId }) => photoId))],
        [stays],
        "the images went with it",
      );

      // A pet restored after its photos were marked (restorePet puts the row back, same id): they stay, unmarked.
      const back = await client.pet.create({ data: { name: "Back", categoryId: 1n }, select: { id: true } });
      const returns = await photoOf(back.id);
      await client.pet.delete({ where: { id: back.id } });
      await run(now);
      await client.pet.create({ data: { id: back.id, name: "Back", categoryId: 1n } });
      assert.equal((await run(new Date(now.getTime() + 61_000))).photos.rows, 0);
      assert.deepEqual(await client.photo.findUnique({ where: { id: returns }, select: { petDeletedAt: true } }), {
        petDeletedAt: null,
      });

      await client.photoImage.deleteMany();
      await client.photo.deleteMany();
      await client.pet.deleteMany({ where: { id: { in: [kept.id, back.id] } } });
    });

    test("refuses a batch size that could never finish", async () => {
      for (const batchSize of [0, -1, 1.5, Number.NaN]) {
        await assert.rejects(runHousekeeping({ database: client, batchSize }), RangeError, String(batchSize));
      }
    });

    test("the server runs it at start, and logs what it deleted", async () => {
      await client.idempotencyRecord.deleteMany();
      await client.rateLimitCounter.deleteMany();
      await client.staffSession.deleteMany();
      const longAgo = new Date(Date.now() - IDEMPOTENCY_TTL_MS - 60 * MINUTE);
      await client.idempotencyRecord.createMany({
        data: Array.from({ length: 3 }, (_, index) => ({
          apiKeyId: 1,
          key: `left-behind-${index}`,
          requestHash: "0".repeat(64),
          lockedAt: longAgo,
          createdAt: longAgo,
        })),
      });
      await client.rateLimitCounter.create({ data: { apiKeyId: 1, windowStart: 0n, count: 1 } });
      await client.staffSession.create({ data: { id: "left-behind", staffId, expiresAt: longAgo } });
      await client.auditEvent.create({
        data: {
          at: new Date(Date.now() - 8 * DAY),
          actorType: "cli",
          actorLabel: "command line",
          action: "api_key.created",
          targetType: "api_key",
          targetId: "1",
          targetLabel: "left behind",
        },
      });
      const server = await startServer("custom", database.url, { AUDIT_RETENTION_DAYS: "7" });
      try {
        const deadline = Date.now() + 10_000;
        while (!server.logs().includes('"message":"housekeeping"') && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const line = server
          .logs()
          .split("\n")
          .find((entry) => entry.includes('"message":"housekeeping"'));
        assert.ok(line, server.logs());
        const logged = JSON.parse(line) as Record<string, unknown>;
        assert.deepEqual(
          [logged.idempotencyRecords, logged.rateLimitCounters, logged.staffSessions, logged.auditEvents],
          [
            { rows: 3, batches: 1 },
            { rows: 1, batches: 1 },
            { rows: 1, batches: 1 },
            { rows: 1, batches: 1 },
          ],
        );
        assert.equal(await client.idempotencyRecord.count({ where: { key: { startsWith: "left-behind" } } }), 0);
        assert.equal(await client.rateLimitCounter.count(), 0);
        assert.equal(await client.staffSession.count({ where: { id: "left-behind" } }), 0);
        assert.equal(await client.auditEvent.count({ where: { targetLabel: "left behind" } }), 0);
      } finally {
        await server.stop();
      }
    });
  });
}

// In the test process, on SQLite only: the orders store's provider-specific statements (its row locks) read the
// provider from config(), which is the process's DATABASE_URL, not withDatabase's (the pets, audit and events
// statements follow dialect()). On PostgreSQL the same expiry (expireOrder) is proven through requests in
// tests/orders.test.ts; in-process PostgreSQL waits for the orders store to follow dialect() too.
for (const provider of providers.filter((each) => each === "sqlite")) {
  describe(`housekeeping ends holds on ${provider}`, () => {
    test("an order past its hold is expired, its pet available, with both events; not a moment before", async () => {
      const database = await createMigratedDatabase(provider);
      try {
        await withDatabase(databaseConfig(database.url), async () => {
          const { pet } = await createPet({ name: "Held", categoryId: 1n, status: "available" }, COMMAND_LINE);
          const { order } = await placeOrder({ petId: pet.id, customerName: "Ada Lovelace" }, COMMAND_LINE);
          const end = new Date(Date.parse(order.expiresAt!));
          const lastEvent = (await db().event.findFirst({ orderBy: { id: "desc" }, select: { id: true } }))!.id;

          const early = await runHousekeeping({ now: new Date(end.getTime() - 1000), auditRetentionDays: 0 });
          assert.deepEqual(early.expiredOrders, { rows: 0, batches: 1 });
          assert.equal((await findOrder(order.id))!.order.status, "placed");
          assert.equal((await findPet(pet.id))!.pet.status, "pending");

          const report = await runHousekeeping({ now: end, auditRetentionDays: 0 });
          assert.deepEqual(report.expiredOrders, { rows: 1, batches: 1 });
          const expired = (await findOrder(order.id))!.order;
          assert.equal(expired.status, "expired");
          assert.equal(expired.expiredAt, order.expiresAt, "expired when its hold ended");
          assert.equal((await findPet(pet.id))!.pet.status, "available");
          const events = await db().event.findMany({
            where: { id: { gt: lastEvent } },
            orderBy: { id: "asc" },
            select: { type: true },
          });
          assert.deepEqual(
            events.map((event) => event.type),
            ["order.expired", "pet.updated"],
          );

          const again = await runHousekeeping({ now: end, auditRetentionDays: 0 });
          assert.deepEqual(again.expiredOrders, { rows: 0, batches: 1 }, "once");
        });
      } finally {
        await database.drop();
      }
    });
  });
}
