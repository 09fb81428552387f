import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import Database from "better-sqlite3";
import pg from "pg";
import { summarise, type ActivityRecord as StoredRecord } from "@/lib/audit/activity";
import { csvField } from "@/lib/csv/write";
import { AUDIT_ACTIONS } from "@/lib/audit/record";
import { databaseConfig } from "@/lib/config";
import { createDatabase, type Database as Client } from "@/lib/db/client";
import { assertError, call, signInStaff, type Reply } from "@/scripts/harness/http";
import {
  createMigratedDatabase,
  startServer,
  testProviders,
  type RunningServer,
  type TestDatabase,
} from "@/scripts/harness/servers";
import { createKey, createStaff } from "@/scripts/harness/fixtures";

// The audit trail over real HTTP against the production server, on SQLite and PostgreSQL: each change writes
// exactly one record naming who made it (the API key, or the staff member behind the admin app, never the app's
// own key), from where and in which request; a failed change writes none; a record that cannot be written undoes
// its change, and a server killed mid-write leaves neither a change without its record nor a record without its
// change; the database refuses to change a record; the activity endpoints page, filter, export CSV and show a
// pet's history. The records are read straight from the database.

const STAFF = { email: "audit.staff@animal-store.example", password: "an audit staff password" };
const ADMIN = { email: "audit.admin@animal-store.example", password: "an audit admin password" };
const CLIENT_ADDRESS = "203.0.113.9";
const MERGE_PATCH = { "Content-Type": "application/merge-patch+json" };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A record as the endpoints send it: its integers parsed as bigint. */
type ActivityRecord = Omit<StoredRecord, "actor"> & { actor: { type: string; id: bigint | null; label: string } };

type AuditRow = Awaited<ReturnType<Client["auditEvent"]["findFirstOrThrow"]>>;

/** A CSV text (RFC 4180) as rows of fields. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      row.push(field);
      field = "";
    } else if (char === "\r" && text[index + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      index++;
    } else field += char;
  }
  assert.equal(field + row.join(""), "", "the text ends with CRLF");
  return rows;
}

describe("summaries", () => {
  const base = {
    id: "1",
    at: new Date().toISOString(),
    actor: { type: "staff", id: 3, label: "ana@animal-store.example" },
    clientAddress: null,
    requestId: null,
  };
  const pet = { type: "pet", id: "12", label: "Biscuit" };
  const cases: [string, Partial<Omit<StoredRecord, "summary">>, string][] = [
    [
      "pet.created",
      { target: pet, details: { after: { name: "Biscuit" } } },
      "ana@animal-store.example added Biscuit (#12)",
    ],
    [
      "pet.updated",
      { target: pet, details: { before: { status: "available" }, after: { status: "sold" } } },
      "ana@animal-store.example marked Biscuit (#12) sold",
    ],
    [
      "pet.updated",
      { target: { ...pet, label: "Rex" }, details: { before: { name: "Biscuit" }, after: { name: "Rex" } } },
      "ana@animal-store.example renamed Biscuit (#12) to Rex",
    ],
    [
      "pet.updated",
      { target: pet, details: { before: { categoryId: 1n }, after: { categoryId: 4n } } },
      "ana@animal-store.example changed Biscuit (#12)'s category from 1 to 4",
    ],
    [
      "pet.updated",
      {
        target: { ...pet, label: "Rex" },
        details: { before: { name: "Biscuit", status: "sold" }, after: { name: "Rex", status: null } },
      },
      "ana@animal-store.example renamed Biscuit (#12) to Rex and removed its status",
    ],
    ["pet.deleted", { target: pet }, "ana@animal-store.example deleted Biscuit (#12)"],
    ["pet.restored", { target: pet }, "ana@animal-store.example restored Biscuit (#12) after its deletion"],
    [
      "api_key.created",
      { target: { type: "api_key", id: "3", label: "shop" } },
      'ana@animal-store.example created API key "shop" (#3)',
    ],
    [
      "api_key.revoked",
      { target: { type: "api_key", id: "3", label: "shop" } },
      'ana@animal-store.example revoked API key "shop" (#3)',
    ],
    [
      "api_key.made_admin_app",
      { actor: { type: "system", id: null, label: "the app" }, target: { type: "api_key", id: "4", label: "ops" } },
      `the app made API key "ops" (#4) the admin app's key (ADMIN_API_KEY)`,
    ],
    [
      "staff.created",
      { target: { type: "staff", id: "5", label: "bo@animal-store.example" }, details: { role: "admin" } },
      "ana@animal-store.example created the staff account bo@animal-store.example as an admin",
    ],
    [
      "staff.disabled",
      { target: { type: "staff", id: "5", label: "bo@animal-store.example" } },
      "ana@animal-store.example disabled the staff account bo@animal-store.example",
    ],
    [
      "staff.enabled",
      { target: { type: "staff", id: "5", label: "bo@animal-store.example" } },
      "ana@animal-store.example re-enabled the staff account bo@animal-store.example",
    ],
    [
      "staff.role_changed",
      {
        target: { type: "staff", id: "5", label: "bo@animal-store.example" },
        details: { before: { role: "staff" }, after: { role: "admin" } },
      },
      "ana@animal-store.example made bo@animal-store.example an admin (was a staff member)",
    ],
    [
      "staff.password_reset",
      { target: { type: "staff", id: "5", label: "bo@animal-store.example" } },
      "ana@animal-store.example reset the password of bo@animal-store.example",
    ],
    [
      "staff.unlocked",
      { target: { type: "staff", id: "5", label: "bo@animal-store.example" } },
      "ana@animal-store.example unlocked the staff account bo@animal-store.example",
    ],
    [
      "staff.signed_in",
      { target: { type: "staff", id: "3", label: "ana@animal-store.example" } },
      "ana@animal-store.example signed in",
    ],
    [
      "staff.sign_in_failed",
      {
        actor: { type: "visitor", id: null, label: "x@animal-store.example" },
        target: { type: "staff", id: null, label: "x@animal-store.example" },
      },
      "someone failed to sign in as x@animal-store.example",
    ],
    [
      "category.created",
      { target: { type: "category", id: "7", label: "Ferrets" }, details: { after: { id: 7n, name: "Ferrets" } } },
      'ana@animal-store.example added the category "Ferrets" (#7)',
    ],
    [
      "category.renamed",
      {
        target: { type: "category", id: "1", label: "Hounds" },
        details: { before: { name: "Dogs" }, after: { name: "Hounds" } },
      },
      'ana@animal-store.example renamed the category "Dogs" (#1) to "Hounds"',
    ],
    ...(
      [
        ["order.placed", "placed"],
        ["order.approved", "approved"],
        ["order.delivered", "delivered"],
        ["order.cancelled", "cancelled"],
      ] as const
    ).map(([action, verb]): [string, Partial<Omit<StoredRecord, "summary">>, string] => [
      action,
      { target: { type: "order", id: "12", label: "Biscuit to Ada Lovelace" } },
      `ana@animal-store.example ${verb} order #12: Biscuit to Ada Lovelace`,
    ]),
    [
      "order.expired",
      {
        actor: { type: "system", id: null, label: "the app" },
        target: { type: "order", id: "12", label: "Biscuit to Ada Lovelace" },
      },
      "the app expired order #12, its hold over: Biscuit to Ada Lovelace",
    ],
    ...(
      [
        ["webhook.created", "added"],
        ["webhook.enabled", "enabled"],
        ["webhook.deleted", "deleted"],
      ] as const
    ).map(([action, verb]): [string, Partial<Omit<StoredRecord, "summary">>, string] => [
      action,
      { target: { type: "webhook", id: "3", label: "https://shop.example/hooks" } },
      `ana@animal-store.example ${verb} the webhook endpoint https://shop.example/hooks (#3)`,
    ]),
    [
      "webhook.secret_rotated",
      { target: { type: "webhook", id: "3", label: "https://shop.example/hooks" } },
      "ana@animal-store.example rotated the secret of the webhook endpoint https://shop.example/hooks (#3)",
    ],
    [
      "webhook.disabled",
      {
        actor: { type: "system", id: null, label: "the app" },
        target: { type: "webhook", id: "3", label: "https://shop.example/hooks" },
        details: { reason: "The endpoint answered 410 Gone." },
      },
      "the app disabled the webhook endpoint https://shop.example/hooks (#3): The endpoint answered 410 Gone.",
    ],
  ];

  test("every action has its sentence", () => {
    assert.deepEqual(new Set(cases.map(([action]) => action)), new Set(AUDIT_ACTIONS));
  });
  for (const [action, record, expected] of cases) {
    test(`${action}: ${expected}`, () => {
      assert.equal(summarise({ ...base, action, target: pet, details: null, ...record }), expected);
    });
  }
});

describe("CSV fields", () => {
  const cases: [string | number | null, string][] = [
    ["Biscuit", "Biscuit"],
    ["", ""],
    [null, ""],
    [12, "12"],
    ["Rex, the dog", '"Rex, the dog"'],
    ['say "hi"', '"say ""hi"""'],
    ["two\nlines", '"two\nlines"'],
    ["=1+1", "'=1+1"],
    ["+1", "'+1"],
    ["-1", "'-1"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tTab", "'\tTab"],
    ["\rReturn", '"\'\rReturn"'],
    ['=HYPERLINK("x")', '"\'=HYPERLINK(""x"")"'],
    ["a=b", "a=b"],
  ];
  for (const [value, expected] of cases) {
    test(`${JSON.stringify(value)} is written ${JSON.stringify(expected)}`, () => {
      assert.equal(csvField(value), expected);
    });
  }
});

const providers = await testProviders();

for (const provider of providers) {
  describe(`the audit trail on ${provider}`, () => {
    let database: TestDatabase;
    let server: RunningServer;
    let client: Client;
    let key: string;
    let keyId: number;
    let staffId: number;
    let staffCookie: string;
    let adminCookie: string;

    const api = (method: string, path: string, options: Parameters<typeof call>[3] = {}) =>
      call(server.baseUrl, method, path, {
        key,
        ...options,
        headers: { "X-Forwarded-For": CLIENT_ADDRESS, ...options.headers },
      });
    const asStaff = (cookie: string, method: string, path: string, options: Parameters<typeof call>[3] = {}) =>
      call(server.baseUrl, method, path, {
        ...options,
        headers: { Cookie: cookie, Origin: server.baseUrl, "X-Forwarded-For": CLIENT_ADDRESS, ...options.headers },
      });
    const create = async (name: string, extra: Record<string, unknown> = {}) => {
      const reply = await api("POST", "/v1/pets", { body: { name, categoryId: 1, status: "available", ...extra } });
      assert.equal(reply.status, 201, reply.text);
      return reply;
    };

    let seen = 0n;
    /** The records written since the last call, oldest first. */
    const newRecords = async (): Promise<AuditRow[]> => {
      const rows = await client.auditEvent.findMany({ where: { id: { gt: seen } }, orderBy: { id: "asc" } });
      seen = rows.at(-1)?.id ?? seen;
      return rows;
    };

    before(async () => {
      database = await createMigratedDatabase(provider);
      key = await createKey(database.url, "shop");
      await createStaff(database.url, STAFF.email, STAFF.password, "staff");
      await createStaff(database.url, ADMIN.email, ADMIN.password, "admin");
      client = createDatabase(databaseConfig(database.url));
      keyId = (await client.apiKey.findFirstOrThrow({ where: { name: "shop" } })).id;
      staffId = (await client.staff.findUniqueOrThrow({ where: { email: STAFF.email } })).id;
      server = await startServer("custom", database.url, { TRUSTED_PROXIES: "127.0.0.1", RATE_LIMIT_REQUESTS: "0" });
      staffCookie = await signInStaff(server.baseUrl, STAFF.email, STAFF.password);
      adminCookie = await signInStaff(server.baseUrl, ADMIN.email, ADMIN.password);
      await newRecords();
    });

    after(async () => {
      await server?.stop();
      await client?.$disconnect();
      await database?.drop();
    });

    describe("each change writes exactly one record", () => {
      test("through /v1: the API key, its name, the client's address and the request id", async () => {
        const created = await create("Biscuit");
        const id = created.body.id as bigint;
        const [record, ...others] = await newRecords();
        assert.deepEqual(others, []);
        assert.equal(record.action, "pet.created");
        assert.deepEqual(
          [record.actorType, record.actorId, record.actorLabel],
          ["api_key", keyId, "shop"],
          "the key that made it",
        );
        assert.deepEqual([record.targetType, record.targetId, record.targetLabel], ["pet", String(id), "Biscuit"]);
        assert.equal(record.clientAddress, CLIENT_ADDRESS);
        assert.equal(record.requestId, created.headers.get("x-request-id"));
        assert.deepEqual(JSON.parse(record.details!), {
          after: { id: Number(id), name: "Biscuit", categoryId: 1, status: "available" },
        });

        // Only the members that changed: the name sent again is no change.
        const sold = await api("PATCH", `/v1/pets/${id}`, {
          body: { name: "Biscuit", status: "sold" },
          headers: MERGE_PATCH,
        });
        assert.equal(sold.status, 200, sold.text);
        const [update, ...moreUpdates] = await newRecords();
        assert.deepEqual(moreUpdates, []);
        assert.equal(update.action, "pet.updated");
        assert.equal(update.requestId, sold.headers.get("x-request-id"));
        assert.equal(update.actorId, keyId);
        assert.deepEqual(JSON.parse(update.details!), { before: { status: "available" }, after: { status: "sold" } });

        const unchanged = await api("PATCH", `/v1/pets/${id}`, {
          body: { name: "Biscuit", status: "sold" },
          headers: MERGE_PATCH,
        });
        assert.equal(unchanged.status, 200, unchanged.text);
        assert.deepEqual(await newRecords(), [], "a patch that changes nothing writes nothing");

        const deleted = await api("DELETE", `/v1/pets/${id}`);
        assert.equal(deleted.status, 204, deleted.text);
        const [deletion, ...moreDeletions] = await newRecords();
        assert.deepEqual(moreDeletions, []);
        assert.deepEqual(
          [deletion.action, deletion.targetId, deletion.actorType, deletion.requestId],
          ["pet.deleted", String(id), "api_key", deleted.headers.get("x-request-id")],
        );
        // The version it was deleted at (created 1, marked sold 2): a restore puts it back one version on.
        assert.deepEqual(JSON.parse(deletion.details!), {
          before: { id: Number(id), name: "Biscuit", categoryId: 1, status: "sold" },
          version: 2,
        });
      });

      test("through the admin app: the signed-in staff member, never the admin app's key", async () => {
        const created = await asStaff(staffCookie, "POST", "/admin/api/pets", {
          body: { name: "Pepper", categoryId: 2 },
        });
        assert.equal(created.status, 201, created.text);
        const id = created.body.id as bigint;
        const renamed = await asStaff(staffCookie, "PATCH", `/admin/api/pets/${id}`, {
          body: { name: "Salt", categoryId: 3 },
          headers: { ...MERGE_PATCH, "If-Match": created.headers.get("etag")! },
        });
        assert.equal(renamed.status, 200, renamed.text);
        const deleted = await asStaff(staffCookie, "DELETE", `/admin/api/pets/${id}`);
        assert.equal(deleted.status, 204, deleted.text);

        const records = await newRecords();
        assert.deepEqual(
          records.map((record) => [
            record.action,
            record.actorType,
            record.actorId,
            record.actorLabel,
            record.targetId,
            record.targetLabel,
            record.clientAddress,
            record.requestId,
          ]),
          [
            [
              "pet.created",
              "staff",
              staffId,
              STAFF.email,
              String(id),
              "Pepper",
              CLIENT_ADDRESS,
              created.headers.get("x-request-id"),
            ],
            [
              "pet.updated",
              "staff",
              staffId,
              STAFF.email,
              String(id),
              "Salt",
              CLIENT_ADDRESS,
              renamed.headers.get("x-request-id"),
            ],
            [
              "pet.deleted",
              "staff",
              staffId,
              STAFF.email,
              String(id),
              "Salt",
              CLIENT_ADDRESS,
              deleted.headers.get("x-request-id"),
            ],
          ],
        );
        assert.deepEqual(JSON.parse(records[1].details!), {
          before: { name: "Pepper", categoryId: 2 },
          after: { name: "Salt", categoryId: 3 },
        });
      });
    });

    describe("a failed change writes none", () => {
      let petId: bigint;
      let staleEtag: string;
      before(async () => {
        const created = await create("Failsafe");
        petId = created.body.id as bigint;
        staleEtag = created.headers.get("etag")!;
        const changed = await api("PATCH", `/v1/pets/${petId}`, { body: { status: "pending" }, headers: MERGE_PATCH });
        assert.equal(changed.status, 200, changed.text);
        await newRecords();
      });

      const failures: [string, () => Promise<Reply>, number, string][] = [
        ["a bad body", () => api("POST", "/v1/pets", { body: { name: "", categoryId: 1 } }), 400, "invalid_body"],
        ["invalid JSON", () => api("POST", "/v1/pets", { body: "{" }), 400, "invalid_json"],
        [
          "a bad patch",
          () => api("PATCH", `/v1/pets/${petId}`, { body: { status: "lost" }, headers: MERGE_PATCH }),
          400,
          "invalid_body",
        ],
        [
          "a pet that does not exist (update)",
          () => api("PATCH", "/v1/pets/987654321", { body: { status: "sold" }, headers: MERGE_PATCH }),
          404,
          "not_found",
        ],
        ["a pet that does not exist (delete)", () => api("DELETE", "/v1/pets/987654321"), 404, "not_found"],
        [
          "a stale If-Match (update)",
          () =>
            api("PATCH", `/v1/pets/${petId}`, {
              body: { status: "sold" },
              headers: { ...MERGE_PATCH, "If-Match": staleEtag },
            }),
          412,
          "precondition_failed",
        ],
        [
          "a stale If-Match (delete)",
          () => api("DELETE", `/v1/pets/${petId}`, { headers: { "If-Match": staleEtag } }),
          412,
          "precondition_failed",
        ],
        [
          "no API key",
          () => call(server.baseUrl, "POST", "/v1/pets", { body: { name: "Nobody", categoryId: 1 } }),
          401,
          "unauthorized",
        ],
        [
          "a wrong API key",
          () => call(server.baseUrl, "DELETE", `/v1/pets/${petId}`, { key: `ask_${"x".repeat(32)}` }),
          401,
          "unauthorized",
        ],
        [
          "no staff session",
          () =>
            call(server.baseUrl, "POST", "/admin/api/pets", {
              headers: { Origin: server.baseUrl },
              body: { name: "Nobody", categoryId: 1 },
            }),
          401,
          "session_required",
        ],
      ];
      for (const [what, send, status, code] of failures) {
        test(`${what}: ${status} ${code}, no record`, async () => {
          assertError(await send(), status, code);
          assert.deepEqual(await newRecords(), []);
        });
      }

      test("an idempotent replay: one pet, one record", async () => {
        const body = { name: "Once", categoryId: 7 };
        const headers = { "Idempotency-Key": "audit-once" };
        const first = await api("POST", "/v1/pets", { body, headers });
        const replay = await api("POST", "/v1/pets", { body, headers });
        assert.equal(first.status, 201, first.text);
        assert.equal(replay.status, 201, replay.text);
        assert.equal(replay.headers.get("idempotent-replayed"), "true");
        assert.equal(replay.body.id, first.body.id);
        assert.equal(await client.pet.count({ where: { name: "Once" } }), 1);
        const records = await newRecords();
        assert.deepEqual(
          records.map((record) => [record.action, record.targetId, record.requestId]),
          [["pet.created", String(first.body.id), first.headers.get("x-request-id")]],
        );
      });
    });

    describe("a record that cannot be written undoes its change", () => {
      // A trigger refusing records of a pet named "poison", installed in the test database only.
      const install = async () => {
        if (provider === "sqlite") {
          const sqlite = new Database(database.url.slice("file:".length));
          sqlite.exec(`CREATE TRIGGER "poison_audit" BEFORE INSERT ON "audit_events"
            WHEN NEW."target_label" = 'poison' BEGIN SELECT RAISE(ABORT, 'injected'); END`);
          sqlite.close();
        } else {
          const pgClient = new pg.Client({ connectionString: database.url });
          await pgClient.connect();
          await pgClient.query(`CREATE FUNCTION poison_audit() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF NEW.target_label = 'poison' THEN RAISE EXCEPTION 'injected'; END IF;
              RETURN NEW;
            END $$`);
          await pgClient.query(`CREATE TRIGGER poison_audit BEFORE INSERT ON audit_events
            FOR EACH ROW EXECUTE FUNCTION poison_audit()`);
          await pgClient.end();
        }
      };
      const remove = async () => {
        if (provider === "sqlite") {
          const sqlite = new Database(database.url.slice("file:".length));
          sqlite.exec(`DROP TRIGGER "poison_audit"`);
          sqlite.close();
        } else {
          const pgClient = new pg.Client({ connectionString: database.url });
          await pgClient.connect();
          await pgClient.query("DROP TRIGGER poison_audit ON audit_events; DROP FUNCTION poison_audit()");
          await pgClient.end();
        }
      };
      before(install);
      after(remove);

      const assertFailed = (reply: Reply) => {
        assert.ok([500, 503].includes(reply.status), reply.text);
        assertError(reply, reply.status, reply.status === 500 ? "internal" : "service_unavailable");
      };

      test("creating it answers an error and leaves no pet", async () => {
        const before = await client.pet.count();
        assertFailed(await api("POST", "/v1/pets", { body: { name: "poison", categoryId: 1 } }));
        assertFailed(
          await asStaff(staffCookie, "POST", "/admin/api/pets", { body: { name: "poison", categoryId: 1 } }),
        );
        assert.equal(await client.pet.count({ where: { name: "poison" } }), 0);
        assert.equal(await client.pet.count(), before);
        assert.deepEqual(await newRecords(), []);
      });

      test("with an Idempotency-Key nothing is kept either: the key works once the record can be", async () => {
        const headers = { "Idempotency-Key": "audit-poison" };
        assertFailed(await api("POST", "/v1/pets", { body: { name: "poison", categoryId: 2 }, headers }));
        assert.equal(await client.pet.count({ where: { name: "poison" } }), 0);
        await remove();
        try {
          const retried = await api("POST", "/v1/pets", { body: { name: "poison", categoryId: 2 }, headers });
          assert.equal(retried.status, 201, retried.text);
          assert.equal(retried.headers.get("idempotent-replayed"), null);
          const [record, ...others] = await newRecords();
          assert.deepEqual(others, []);
          assert.deepEqual([record.action, record.targetId], ["pet.created", String(retried.body.id)]);
          await client.pet.delete({ where: { id: retried.body.id as bigint } });
        } finally {
          await install();
        }
      });

      test("renaming a pet to it leaves the pet unchanged", async () => {
        const created = await create("Harmless");
        const id = created.body.id as bigint;
        await newRecords();
        const before = await client.pet.findUniqueOrThrow({ where: { id } });
        assertFailed(
          await api("PATCH", `/v1/pets/${id}`, { body: { name: "poison", status: "sold" }, headers: MERGE_PATCH }),
        );
        assertFailed(
          await asStaff(staffCookie, "PATCH", `/admin/api/pets/${id}`, {
            body: { name: "poison" },
            headers: MERGE_PATCH,
          }),
        );
        assert.deepEqual(await client.pet.findUniqueOrThrow({ where: { id } }), before);
        assert.deepEqual(await newRecords(), []);
      });

      test("deleting a pet so named leaves it in the catalogue", async () => {
        const created = await create("Antidote");
        const id = created.body.id as bigint;
        await newRecords();
        // Renamed behind the app's back, so that its deletion's record is the one refused.
        await client.pet.update({ where: { id }, data: { name: "poison" } });
        assertFailed(await api("DELETE", `/v1/pets/${id}`));
        assert.equal(await client.pet.count({ where: { id } }), 1);
        assert.deepEqual(await newRecords(), []);
      });
    });

    test("the database refuses to change a record (append-only)", async () => {
      await create("Unchangeable");
      const [record] = await newRecords();
      await assert.rejects(
        client.$executeRaw`UPDATE "audit_events" SET "actor_label" = 'someone else' WHERE "id" = ${record.id}`,
        /append-only/,
      );
      await assert.rejects(client.auditEvent.update({ where: { id: record.id }, data: { action: "pet.deleted" } }));
      assert.deepEqual(await client.auditEvent.findUniqueOrThrow({ where: { id: record.id } }), record);
    });

    describe("the activity endpoints", () => {
      let petA: bigint;
      let petB: bigint;
      before(async () => {
        petA = (await create("Alpha")).body.id as bigint;
        petB = (await create('=HYPERLINK("http://evil.example")')).body.id as bigint;
        for (const status of ["pending", "sold", "available"]) {
          const reply = await api("PATCH", `/v1/pets/${petA}`, { body: { status }, headers: MERGE_PATCH });
          assert.equal(reply.status, 200, reply.text);
        }
        const renamed = await asStaff(adminCookie, "PATCH", `/admin/api/pets/${petB}`, {
          body: { name: 'Rex, "the dog"' },
          headers: MERGE_PATCH,
        });
        assert.equal(renamed.status, 200, renamed.text);
        await newRecords();
      });

      const activity = (query = "", cookie = adminCookie) => asStaff(cookie, "GET", `/admin/api/activity${query}`);

      /** Every record the endpoint gives for a query, page by page through X-Next-Cursor. */
      const walk = async (query: Record<string, string>) => {
        const records: ActivityRecord[] = [];
        for (let cursor: string | null = null, pages = 0; ; pages++) {
          const search = new URLSearchParams({ ...query, ...(cursor ? { cursor } : {}) });
          const reply = await activity(`?${search}`);
          assert.equal(reply.status, 200, reply.text);
          records.push(...(reply.body as ActivityRecord[]));
          cursor = reply.headers.get("x-next-cursor");
          if (!cursor) return { records, pages: pages + 1 };
        }
      };

      test("admins only: 401 without a session, 403 for a staff member", async () => {
        for (const path of ["/admin/api/activity", "/admin/api/activity/export"]) {
          assertError(await call(server.baseUrl, "GET", path), 401, "session_required");
          assertError(await asStaff(staffCookie, "GET", path), 403, "admin_role_required");
        }
      });

      test("pages newest first by the cursor, every record once", async () => {
        const all = await client.auditEvent.findMany({ orderBy: { id: "desc" }, select: { id: true } });
        const { records, pages } = await walk({ limit: "3" });
        assert.deepEqual(
          records.map((record) => record.id),
          all.map(({ id }) => String(id)),
        );
        assert.equal(pages, Math.ceil(all.length / 3));
        const [first] = (await activity()).body as ActivityRecord[];
        assert.equal(first.id, String(all[0].id));
      });

      test("each record reads at a glance, with who, what, where and the request id", async () => {
        const { records } = await walk({ pet: String(petA), action: "pet.updated" });
        assert.deepEqual(
          records.map((record) => record.summary),
          [
            `shop marked Alpha (#${petA}) available`,
            `shop marked Alpha (#${petA}) sold`,
            `shop marked Alpha (#${petA}) pending`,
          ],
        );
        const [newest] = records;
        assert.deepEqual(newest.actor, { type: "api_key", id: BigInt(keyId), label: "shop" });
        assert.deepEqual(newest.target, { type: "pet", id: String(petA), label: "Alpha" });
        assert.deepEqual(newest.details, { before: { status: "sold" }, after: { status: "available" } });
        assert.equal(newest.clientAddress, CLIENT_ADDRESS);
        assert.match(newest.requestId ?? "", /./);
        assert.ok(!Number.isNaN(Date.parse(newest.at)));
      });

      test("filters by actor, action and pet, alone and together", async () => {
        const byKey = await walk({ actor: `api_key:${keyId}` });
        assert.ok(byKey.records.length > 0);
        assert.ok(
          byKey.records.every((record) => record.actor.type === "api_key" && record.actor.id === BigInt(keyId)),
        );
        assert.equal(
          byKey.records.length,
          await client.auditEvent.count({ where: { actorType: "api_key", actorId: keyId } }),
        );

        const byStaff = await walk({ actor: `staff:${staffId}` });
        assert.ok(byStaff.records.length > 0);
        assert.ok(byStaff.records.every((record) => record.actor.label === STAFF.email));

        const deletions = await walk({ action: "pet.deleted", limit: "1" });
        assert.equal(deletions.records.length, await client.auditEvent.count({ where: { action: "pet.deleted" } }));
        assert.ok(deletions.records.every((record) => record.action === "pet.deleted"));

        const ofPet = await walk({ pet: String(petA) });
        assert.deepEqual(
          ofPet.records.map((record) => record.action),
          ["pet.updated", "pet.updated", "pet.updated", "pet.created"],
        );
        const together = await walk({ pet: String(petB), actor: `staff:${staffId}` });
        assert.deepEqual(together.records, [], "the admin renamed petB, not the staff member");
        const none = await walk({ actor: "cli", action: "pet.created" });
        assert.deepEqual(none.records, []);
      });

      const badQueries: [string, string][] = [
        ["?limit=0", "limit"],
        ["?limit=201", "limit"],
        ["?limit=ten", "limit"],
        ["?limit=1&limit=2", "limit"],
        ["?cursor=not-a-cursor!", "cursor"],
        ["?cursor=cDI6MTI", "cursor"], // "p2:12": not a version this app issues
        ["?actor=someone", "actor"],
        ["?actor=staff:0", "actor"],
        ["?actor=staff:2147483648", "actor"],
        ["?actor=api_key:9999999999", "actor"],
        ["?action=pet.eaten", "action"],
        ["?pet=0", "pet"],
        ["?pet=abc", "pet"],
        ["?pet=9223372036854775808", "pet"],
        ["?colour=red", "colour"],
      ];
      for (const [query, path] of badQueries) {
        test(`a bad query ${query}: 400 naming ${path}`, async () => {
          assertError(await activity(query), 400, "invalid_query", path);
        });
      }

      test("exports CSV: a header row, RFC 4180 quoting, formulas neutralised, the filters applied", async () => {
        const reply = await asStaff(adminCookie, "GET", `/admin/api/activity/export?pet=${petB}`);
        assert.equal(reply.status, 200, reply.text);
        assert.match(reply.headers.get("content-type") ?? "", /^text\/csv; charset=utf-8/);
        assert.match(
          reply.headers.get("content-disposition") ?? "",
          /^attachment; filename="activity-\d{4}-\d{2}-\d{2}\.csv"$/,
        );
        assert.equal(reply.headers.get("cache-control"), "no-store");
        const [header, ...rows] = parseCsv(reply.text);
        assert.deepEqual(header, [
          "id",
          "at",
          "actor_type",
          "actor_id",
          "actor",
          "action",
          "target_type",
          "target_id",
          "target",
          "summary",
          "client_address",
          "request_id",
          "details",
        ]);
        assert.deepEqual(
          rows.map((row) => [row[5], row[7], row[8]]),
          [
            ["pet.updated", String(petB), 'Rex, "the dog"'],
            ["pet.created", String(petB), `'=HYPERLINK("http://evil.example")`],
          ],
        );
        assert.match(reply.text, /,"Rex, ""the dog""",/, "quotes doubled inside a quoted field");
        assert.equal(
          rows[0][9],
          `${ADMIN.email} renamed =HYPERLINK("http://evil.example") (#${petB}) to Rex, "the dog"`,
        );
        assert.equal(rows[1][9], `shop added =HYPERLINK("http://evil.example") (#${petB})`);
        assert.ok(
          rows.every((row) => row.every((field) => !/^[=+\-@\t\r]/.test(field))),
          "no cell starts a formula",
        );
        assert.deepEqual(JSON.parse(rows[0][12]), {
          before: { name: '=HYPERLINK("http://evil.example")' },
          after: { name: 'Rex, "the dog"' },
        });

        const byAction = parseCsv(
          (await asStaff(adminCookie, "GET", "/admin/api/activity/export?action=pet.created")).text,
        ).slice(1);
        assert.equal(byAction.length, await client.auditEvent.count({ where: { action: "pet.created" } }));
        assert.ok(byAction.every((row) => row[5] === "pet.created"));
        assertError(
          await asStaff(adminCookie, "GET", "/admin/api/activity/export?action=nope"),
          400,
          "invalid_query",
          "action",
        );
        assertError(
          await asStaff(adminCookie, "GET", "/admin/api/activity/export?limit=5"),
          400,
          "invalid_query",
          "limit",
        );
      });

      test("exports a log larger than one read, newest first, every record once", async () => {
        const extra = 1_234;
        await client.auditEvent.createMany({
          data: Array.from({ length: extra }, (_, index) => ({
            actorType: "cli",
            actorLabel: "command line",
            action: "api_key.created",
            targetType: "api_key",
            targetId: String(index + 1000),
            targetLabel: `bulk ${index}`,
          })),
        });
        const reply = await asStaff(adminCookie, "GET", "/admin/api/activity/export");
        assert.equal(reply.status, 200);
        const rows = parseCsv(reply.text).slice(1);
        const all = await client.auditEvent.findMany({ orderBy: { id: "desc" }, select: { id: true } });
        assert.ok(all.length > extra);
        assert.deepEqual(
          rows.map((row) => row[0]),
          all.map(({ id }) => String(id)),
        );
        await client.auditEvent.deleteMany({ where: { targetLabel: { startsWith: "bulk " } } });
      });

      test("a pet's history, for any staff member: its records newest first, paged, without where from", async () => {
        const history = async (path: string, cookie = staffCookie) => asStaff(cookie, "GET", path);
        const first = await history(`/admin/api/pets/${petA}/history?limit=2`);
        assert.equal(first.status, 200, first.text);
        const cursor = first.headers.get("x-next-cursor");
        assert.ok(cursor);
        const second = await history(`/admin/api/pets/${petA}/history?limit=2&cursor=${cursor}`);
        assert.equal(second.status, 200, second.text);
        assert.equal(second.headers.get("x-next-cursor"), null);
        const records = [...first.body, ...second.body] as ActivityRecord[];
        assert.deepEqual(
          records.map((record) => record.summary),
          [
            `shop marked Alpha (#${petA}) available`,
            `shop marked Alpha (#${petA}) sold`,
            `shop marked Alpha (#${petA}) pending`,
            `shop added Alpha (#${petA})`,
          ],
        );
        // The client's address and the request's id stay in the admins' log (above): a staff member reading a
        // pet's history does not learn where admins and API clients work from.
        for (const record of records) {
          assert.equal("clientAddress" in record, false, `record ${record.id} has no clientAddress`);
          assert.equal("requestId" in record, false, `record ${record.id} has no requestId`);
        }
        const none = await history("/admin/api/pets/987654321/history");
        assert.equal(none.status, 200);
        assert.deepEqual(none.body, []);
        assertError(await history("/admin/api/pets/abc/history"), 400, "invalid_path");
        assertError(await history(`/admin/api/pets/${petA}/history?actor=cli`), 400, "invalid_query", "actor");
        assertError(await call(server.baseUrl, "GET", `/admin/api/pets/${petA}/history`), 401, "session_required");
      });
    });
  });

  describe(`a crash between a change and its record on ${provider}`, () => {
    test("SIGKILL among writers leaves every change with exactly its record", async () => {
      const database = await createMigratedDatabase(provider);
      let server: RunningServer | undefined;
      const client = createDatabase(databaseConfig(database.url));
      try {
        const key = await createKey(database.url, "crash");
        // Answers the server gave: each must have its record, with the answer's request id.
        const answered: { action: string; requestId: string; petId: bigint }[] = [];
        let sequence = 0;
        for (let round = 0; round < 3; round++) {
          server = await startServer("custom", database.url, { RATE_LIMIT_REQUESTS: "0" });
          const baseUrl = server.baseUrl;
          let alive = true;
          const send = async (method: string, path: string, body?: unknown) => {
            const reply = await call(baseUrl, method, path, {
              key,
              body,
              headers: body && method === "PATCH" ? MERGE_PATCH : {},
            });
            if (reply.status >= 500 && reply.status !== 503) throw new Error(`${reply.status}: ${reply.text}`);
            return reply;
          };
          const writer = async () => {
            try {
              while (alive) {
                const name = `crash-${sequence++}`;
                const created = await send("POST", "/v1/pets", { name, categoryId: 1, status: "available" });
                if (created.status !== 201) continue;
                const id = created.body.id as bigint;
                answered.push({ action: "pet.created", requestId: created.headers.get("x-request-id")!, petId: id });
                const sold = await send("PATCH", `/v1/pets/${id}`, { status: "sold" });
                if (sold.status === 200)
                  answered.push({ action: "pet.updated", requestId: sold.headers.get("x-request-id")!, petId: id });
                if (sequence % 2 === 0) {
                  const deleted = await send("DELETE", `/v1/pets/${id}`);
                  if (deleted.status === 204)
                    answered.push({
                      action: "pet.deleted",
                      requestId: deleted.headers.get("x-request-id")!,
                      petId: id,
                    });
                }
              }
            } catch (error) {
              if (!(error instanceof TypeError)) throw error; // TypeError: the server is gone
            }
          };
          const writers = Array.from({ length: 6 }, writer);
          await sleep(700 + Math.random() * 900);
          process.kill(server.pid, "SIGKILL");
          alive = false;
          await Promise.all(writers);
          await server.stop();
          server = undefined;
        }
        server = await startServer("custom", database.url);

        const pets = await client.pet.findMany({ select: { id: true, version: true } });
        const records = await client.auditEvent.findMany({ where: { targetType: "pet" }, orderBy: { id: "asc" } });
        assert.ok(answered.length > 20, `only ${answered.length} changes were answered`);
        const of = (id: bigint, action: string) =>
          records.filter((record) => record.targetId === String(id) && record.action === action);
        for (const pet of pets) {
          assert.equal(of(pet.id, "pet.created").length, 1, `pet ${pet.id} has one pet.created record`);
          assert.equal(of(pet.id, "pet.deleted").length, 0, `pet ${pet.id} exists: no pet.deleted record`);
          // Each update raised the version by one and wrote one record.
          assert.equal(of(pet.id, "pet.updated").length, pet.version - 1, `pet ${pet.id}'s updates`);
        }
        const existing = new Set(pets.map((pet) => String(pet.id)));
        for (const record of records.filter((record) => record.action === "pet.created")) {
          const deletions = of(BigInt(record.targetId!), "pet.deleted");
          assert.ok(
            existing.has(record.targetId!) || deletions.length === 1,
            `pet ${record.targetId} exists or has its pet.deleted record`,
          );
        }
        for (const record of records.filter((record) => record.action !== "pet.created")) {
          assert.equal(of(BigInt(record.targetId!), "pet.created").length, 1, `record ${record.id} has its pet`);
        }
        const byRequest = new Map(records.map((record) => [record.requestId, record]));
        for (const change of answered) {
          const record = byRequest.get(change.requestId);
          assert.ok(record, `the answered ${change.action} of pet ${change.petId} has its record`);
          assert.deepEqual([record.action, record.targetId], [change.action, String(change.petId)]);
        }
        assert.ok(
          records.every((record) => record.requestId),
          "every change came over HTTP",
        );
        if (provider === "sqlite") {
          await server.stop();
          server = undefined;
          const sqlite = new Database(database.url.slice("file:".length), { readonly: true });
          assert.equal(String(sqlite.pragma("integrity_check", { simple: true })), "ok");
          sqlite.close();
        }
        console.log(
          `audit crash ${provider}: ${answered.length} answered changes, ` +
            `${pets.length} pets, ${records.length} records`,
        );
      } finally {
        await server?.stop();
        await client.$disconnect();
        await database.drop();
      }
    });
  });
}
