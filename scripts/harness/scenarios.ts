import fs from "node:fs";
import Database from "better-sqlite3";
import { call } from "./http";
import {
  createKeyWithTool,
  createTestDatabase,
  runScript,
  startServer,
  startServers,
  type RunningServer,
} from "./servers";
import { startPrivatePostgres } from "./private-postgres";

// Fault scenarios over the real server and databases, shared by tests/reliability.test.ts (small runs
// in CI) and scripts/reliability.ts (larger runs whose figures go into docs/reliability.md).

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// These scenarios test durability and recovery, not the limiter: their load must not meet a quota.
const unlimited = { RATE_LIMIT_REQUESTS: "0" };

type Intent = { name: string; idempotencyKey: string; body: string; ackedId?: bigint; ackedText?: string };

async function post(baseUrl: string, key: string, intent: Intent) {
  return call(baseUrl, "POST", "/v1/pets", {
    key,
    body: intent.body,
    headers: { "Idempotency-Key": intent.idempotencyKey },
  });
}

/** Every pet, walking the cursor. */
async function allPets(
  baseUrl: string,
  key: string,
): Promise<{ id: bigint; name: string; categoryId: bigint; status?: string }[]> {
  const pets = [];
  let path: string | undefined = "/v1/pets?limit=100";
  while (path) {
    const reply = await call(baseUrl, "GET", path, { key });
    if (reply.status !== 200) throw new Error(`listing failed: ${reply.status} ${reply.text}`);
    pets.push(...reply.body);
    const link = reply.headers.get("link");
    path = link ? /^<([^>]+)>/.exec(link)![1] : undefined;
  }
  return pets;
}

/** Sends an intent until it is acknowledged (waiting out 409s and outages), up to a deadline. */
async function settle(baseUrl: string, key: string, intent: Intent, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      const reply = await post(baseUrl, key, intent);
      if (reply.status === 201) {
        intent.ackedId = reply.body.id;
        intent.ackedText = reply.text;
        return;
      }
      if (reply.status !== 409 && reply.status !== 503) throw new Error(`unexpected ${reply.status}: ${reply.text}`);
    } catch (error) {
      if (!(error instanceof TypeError)) throw error; // TypeError: the connection failed
    }
    await sleep(250);
  }
  throw new Error(`${intent.name} was never acknowledged`);
}

export type CrashFigures = {
  provider: string;
  crashes: number;
  acknowledged: number;
  retriedAfterCrash: number;
  lost: number;
  duplicates: number;
  rows: number;
  invalidRows: number;
  integrity: string;
};

/**
 * Concurrent creates, each with its own Idempotency-Key; the server is killed with SIGKILL in the
 * middle, restarted, and the requests that got no answer are retried. Every answered pet must be
 * stored exactly as answered, no pet may exist twice, and no row may be half written.
 */
export async function crashScenario(
  provider: "sqlite" | "postgresql",
  options: { crashes: number; writers: number },
): Promise<CrashFigures> {
  const database = await createTestDatabase(provider);
  let server: RunningServer | undefined;
  const intents: Intent[] = [];
  let retriedAfterCrash = 0;
  try {
    await runScript("db-migrate.ts", ["--create"], database.url);
    const key = await createKeyWithTool(database.url);
    let sequence = 0;
    const newIntent = (): Intent => {
      const name = `crash-${sequence++}`;
      const intent = {
        name,
        idempotencyKey: `idem-${name}`,
        body: JSON.stringify({ name, categoryId: sequence, status: "available" }),
      };
      intents.push(intent);
      return intent;
    };

    for (let round = 0; round < options.crashes; round++) {
      server = await startServer("custom", database.url, unlimited);
      const baseUrl = server.baseUrl;
      const retries = intents.filter((intent) => !intent.ackedId);
      retriedAfterCrash += retries.length;
      let alive = true;
      const writer = async () => {
        while (alive) {
          const intent = retries.pop() ?? newIntent();
          try {
            const reply = await post(baseUrl, key, intent);
            if (reply.status === 201) {
              intent.ackedId = reply.body.id;
              intent.ackedText = reply.text;
            } else if (reply.status !== 409 && reply.status !== 503) {
              throw new Error(`unexpected ${reply.status}: ${reply.text}`);
            }
          } catch (error) {
            if (!(error instanceof TypeError)) throw error;
            return; // the server is gone
          }
        }
      };
      const writers = Array.from({ length: options.writers }, writer);
      await sleep(600 + Math.random() * 900);
      process.kill(server.pid, "SIGKILL");
      alive = false;
      await Promise.all(writers);
      await server.stop();
    }

    server = await startServer("custom", database.url, unlimited);
    const unanswered = intents.filter((intent) => !intent.ackedId);
    retriedAfterCrash += unanswered.length;
    const deadline = Date.now() + 30_000;
    await Promise.all(unanswered.map((intent) => settle(server!.baseUrl, key, intent, deadline)));

    let lost = 0;
    for (const intent of intents) {
      const reply = await call(server.baseUrl, "GET", `/v1/pets/${intent.ackedId}`, { key });
      if (reply.text !== intent.ackedText) lost++;
    }
    const pets = await allPets(server.baseUrl, key);
    const byName = new Map<string, number>();
    for (const pet of pets) byName.set(pet.name, (byName.get(pet.name) ?? 0) + 1);
    const duplicates = [...byName.values()].filter((count) => count > 1).length;
    const invalidRows = pets.filter(
      (pet) =>
        typeof pet.name !== "string" ||
        !/^crash-\d+$/.test(pet.name) ||
        typeof pet.categoryId !== "bigint" ||
        pet.status !== "available",
    ).length;
    let integrity = "n/a";
    if (database.provider === "sqlite") {
      await server.stop();
      server = undefined;
      const sqlite = new Database(database.url.slice("file:".length), { readonly: true });
      integrity = String(sqlite.pragma("integrity_check", { simple: true }));
      sqlite.close();
    }
    return {
      provider,
      crashes: options.crashes,
      acknowledged: intents.length,
      retriedAfterCrash,
      lost,
      duplicates,
      rows: pets.length,
      invalidRows,
      integrity,
    };
  } finally {
    await server?.stop();
    await database.drop();
  }
}

export type OutageFigures = {
  requestsDuringOutage: number;
  byStatusDuringOutage: Record<string, number>;
  slowestDuringOutageMs: number;
  otherFailures: number;
  readyDuringOutage: string;
  recoveryMs: number;
  readyRecoveryMs: number;
  acknowledged: number;
  lost: number;
};

/**
 * A PostgreSQL of our own is stopped (immediate shutdown) under load and started again: requests must
 * fail fast with 503 Error bodies, /readyz must say so, and the app must recover by itself.
 */
export async function outageScenario(options: { outageMs: number; concurrency: number }): Promise<OutageFigures> {
  const postgres = await startPrivatePostgres();
  let server: RunningServer | undefined;
  try {
    await runScript("db-migrate.ts", ["--create"], postgres.url);
    const key = await createKeyWithTool(postgres.url);
    server = await startServer("custom", postgres.url, unlimited);
    const baseUrl = server.baseUrl;
    let phase: "before" | "outage" | "after" = "before";
    const outage = { requests: 0, byStatus: {} as Record<string, number>, slowest: 0 };
    let otherFailures = 0;
    let recoveredAt = 0;
    const acked: Intent[] = [];
    let sequence = 0;
    let running = true;

    const worker = async (index: number) => {
      while (running) {
        const started = Date.now();
        const during = phase === "outage";
        let status: number | string;
        let body: any;
        try {
          if (index % 2 === 0) {
            const reply = await call(baseUrl, "GET", "/v1/pets?limit=5", { key });
            status = reply.status;
            body = reply.body;
            if (status === 200 && phase === "after" && !recoveredAt) recoveredAt = Date.now();
          } else {
            const intent: Intent = { name: `outage-${sequence++}`, idempotencyKey: "", body: "" };
            intent.body = JSON.stringify({ name: intent.name, categoryId: 1 });
            const reply = await call(baseUrl, "POST", "/v1/pets", { key, body: intent.body });
            status = reply.status;
            body = reply.body;
            if (status === 201) {
              intent.ackedId = reply.body.id;
              intent.ackedText = reply.text;
              acked.push(intent);
            }
          }
        } catch (error) {
          status = `network error: ${(error as Error).message}`;
        }
        const elapsed = Date.now() - started;
        if (during) {
          outage.requests++;
          outage.byStatus[status] = (outage.byStatus[status] ?? 0) + 1;
          outage.slowest = Math.max(outage.slowest, elapsed);
        }
        const wellFormed503 = status === 503 && body?.code === "service_unavailable" && Number(body?.status) === 503;
        if (typeof status === "string" || (status >= 500 && !wellFormed503)) otherFailures++;
        if (status !== 200 && status !== 201) await sleep(50);
      }
    };
    const workers = Array.from({ length: options.concurrency }, (_, index) => worker(index));

    await sleep(1500);
    postgres.stop();
    phase = "outage";
    const readiness: number[] = [];
    const outageEnds = Date.now() + options.outageMs;
    while (Date.now() < outageEnds) {
      readiness.push((await call(baseUrl, "GET", "/readyz")).status);
      await sleep(250);
    }
    postgres.start();
    const restartedAt = Date.now();
    phase = "after";
    let readyAt = 0;
    while (!readyAt && Date.now() - restartedAt < 30_000) {
      if ((await call(baseUrl, "GET", "/readyz")).status === 200) readyAt = Date.now();
      else await sleep(100);
    }
    while (!recoveredAt && Date.now() - restartedAt < 30_000) await sleep(50);
    await sleep(1000);
    running = false;
    await Promise.all(workers);

    let lost = 0;
    for (const intent of acked) {
      const reply = await call(baseUrl, "GET", `/v1/pets/${intent.ackedId}`, { key });
      if (reply.text !== intent.ackedText) lost++;
    }
    const readyCounts = readiness.reduce<Record<number, number>>(
      (counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }),
      {},
    );
    return {
      requestsDuringOutage: outage.requests,
      byStatusDuringOutage: outage.byStatus,
      slowestDuringOutageMs: outage.slowest,
      otherFailures,
      readyDuringOutage: Object.entries(readyCounts)
        .map(([status, count]) => `${count}×${status}`)
        .join(", "),
      recoveryMs: recoveredAt ? recoveredAt - restartedAt : -1,
      readyRecoveryMs: readyAt ? readyAt - restartedAt : -1,
      acknowledged: acked.length,
      lost,
    };
  } finally {
    await server?.stop();
    postgres.destroy();
  }
}

export type TwoInstanceFigures = {
  creates: number;
  distinctIds: number;
  lost: number;
  idempotentRetries: number;
  duplicatePets: number;
  rateLimitQuota: number;
  admittedAcrossBoth: number;
};

/**
 * Two app instances on one PostgreSQL database: concurrent creates spread over both get distinct ids
 * and are all retrievable from either; one Idempotency-Key sent to both creates one pet; and, with a
 * second pair started with a small quota, a key's quota is shared by both.
 */
export async function twoInstancesScenario(options: {
  creates: number;
  concurrency: number;
}): Promise<TwoInstanceFigures> {
  const database = await createTestDatabase("postgresql");
  const quota = 10;
  let servers: RunningServer[] = [];
  const startPair = async (env: Record<string, string> = {}) => {
    servers = await startServers(2, "custom", database.url, env);
  };
  const stopPair = () => Promise.all(servers.map((server) => server.stop()));
  try {
    await runScript("db-migrate.ts", ["--create"], database.url);
    const key = await createKeyWithTool(database.url, "two instances");
    await startPair(unlimited);

    const answers: { id: bigint; text: string }[] = [];
    let next = 0;
    const writer = async () => {
      for (let index = next++; index < options.creates; index = next++) {
        const reply = await call(servers[index % 2].baseUrl, "POST", "/v1/pets", {
          key,
          body: { name: `both-${index}`, categoryId: index },
        });
        if (reply.status !== 201) throw new Error(`create ${index}: ${reply.status} ${reply.text}`);
        answers.push({ id: reply.body.id, text: reply.text });
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, writer));
    let lost = 0;
    for (const [index, answer] of answers.entries()) {
      const reply = await call(servers[(index + 1) % 2].baseUrl, "GET", `/v1/pets/${answer.id}`, { key });
      if (reply.text !== answer.text) lost++;
    }

    const retryBody = { name: "retried on both", categoryId: 1 };
    const retry = (index: number) =>
      call(servers[index % 2].baseUrl, "POST", "/v1/pets", {
        key,
        body: retryBody,
        headers: { "Idempotency-Key": "both-instances" },
      });
    const retries = await Promise.all(Array.from({ length: 8 }, (_, index) => retry(index)));
    await sleep(300);
    retries.push(await retry(1), await retry(0));
    const answeredIds = new Set(retries.filter((reply) => reply.status === 201).map((reply) => String(reply.body.id)));
    const stored = (await allPets(servers[0].baseUrl, key)).filter((pet) => pet.name === retryBody.name).length;
    await stopPair();

    await startPair({ RATE_LIMIT_REQUESTS: String(quota), RATE_LIMIT_WINDOW_SECONDS: "3600" });
    const limitedKey = await createKeyWithTool(database.url, "limited");
    let admitted = 0;
    for (let index = 0; index < quota * 2; index++) {
      const reply = await call(servers[index % 2].baseUrl, "GET", "/v1/pets?limit=1", { key: limitedKey });
      if (reply.status === 200) admitted++;
      else if (reply.status !== 429) throw new Error(`unexpected ${reply.status}: ${reply.text}`);
    }
    return {
      creates: answers.length,
      distinctIds: new Set(answers.map((answer) => String(answer.id))).size,
      lost,
      idempotentRetries: retries.length,
      duplicatePets: Math.max(0, stored - 1) + Math.max(0, answeredIds.size - 1),
      rateLimitQuota: quota,
      admittedAcrossBoth: admitted,
    };
  } finally {
    await stopPair();
    await database.drop();
  }
}

export function writeFigures(file: string, figures: unknown): void {
  fs.writeFileSync(
    file,
    `${JSON.stringify(figures, (_key, value) => (typeof value === "bigint" ? value.toString() : value), 2)}\n`,
  );
}
