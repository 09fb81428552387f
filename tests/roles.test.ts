import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import Database from "better-sqlite3";
import pg from "pg";
import { call, type Reply } from "@/scripts/harness/http";
import {
  listKeys,
  runScript,
  startServer,
  testProviders,
  type RunningServer,
  type TestDatabase,
  createMigratedDatabase,
} from "@/scripts/harness/servers";
import { createKey, createStaff } from "@/scripts/harness/fixtures";
import { databaseConfig } from "@/lib/config";

// Roles and staff accounts over real HTTP against the production server (server.ts), on SQLite and PostgreSQL:
// every admin-only endpoint and page refuses a staff member (403) and a visitor (401, or the sign-in page) and
// lets an admin through; the staff tool's and the Staff page's changes each leave exactly one audit record (a
// change that changes nothing, or a refused one, none); the last enabled admin cannot be disabled or demoted;
// sign-ins leave one record each, with the client's address and the request id, and a 429 none. The records are
// counted by reading the database directly.

const ADMIN = { email: "roles-admin@animal-store.example", password: "the admin's long password" };
const MEMBER = { email: "roles-member@animal-store.example", password: "the staff member's password" };
const TARGET = { email: "roles-target@animal-store.example", password: "the target's long password" };

/**
 * `{staff}` in a path is the id of an account kept for the purpose (a staff member, never the last admin); `{key}`
 * the id of an API key made for the purpose.
 */
type AdminEndpoint = { method: string; path: string; body?: unknown; adminStatus: number };

/**
 * Every admin-only endpoint, with what an admin gets from it (the rows run in order, as that admin). A staff member
 * must get 403 `admin_role_required` and a visitor 401 `session_required` from each, whatever it would do. Every
 * new admin-only endpoint gets a row here (API keys and the activity log come from their own branches).
 */
const ADMIN_ENDPOINTS: AdminEndpoint[] = [
  { method: "GET", path: "/admin/api/staff", adminStatus: 200 },
  {
    method: "POST",
    path: "/admin/api/staff",
    body: { email: "made-by-roles-test@animal-store.example", role: "staff", password: "a long initial password" },
    adminStatus: 201,
  },
  { method: "PUT", path: "/admin/api/staff/{staff}/role", body: { role: "admin" }, adminStatus: 200 },
  { method: "PUT", path: "/admin/api/staff/{staff}/role", body: { role: "staff" }, adminStatus: 200 },
  { method: "PUT", path: "/admin/api/staff/{staff}/password", body: { password: TARGET.password }, adminStatus: 200 },
  { method: "POST", path: "/admin/api/staff/{staff}/disable", adminStatus: 200 },
  { method: "POST", path: "/admin/api/staff/{staff}/enable", adminStatus: 200 },
  { method: "POST", path: "/admin/api/staff/{staff}/unlock", adminStatus: 409 }, // nothing to unlock: staff_unchanged
  { method: "GET", path: "/admin/api/keys", adminStatus: 200 },
  { method: "POST", path: "/admin/api/keys", body: { name: "made by the roles test" }, adminStatus: 201 },
  { method: "DELETE", path: "/admin/api/keys/{key}", adminStatus: 200 },
  { method: "GET", path: "/admin/api/activity", adminStatus: 200 },
  { method: "GET", path: "/admin/api/activity/export", adminStatus: 200 },
  // Adding and renaming a category (reading the names is every signed-in staff member's: tests/categories.test.ts).
  {
    method: "POST",
    path: "/admin/api/categories",
    body: { id: 900, name: "Made by the roles test" },
    adminStatus: 201,
  },
  { method: "PATCH", path: "/admin/api/categories/900", body: { name: "Renamed by the roles test" }, adminStatus: 200 },
  // Webhooks: an address literal, which needs no DNS (a public one: private addresses are refused by default).
  { method: "GET", path: "/admin/api/webhooks", adminStatus: 200 },
  { method: "POST", path: "/admin/api/webhooks", body: { url: "https://93.184.215.14/roles-test" }, adminStatus: 201 },
  { method: "GET", path: "/admin/api/webhooks/999", adminStatus: 404 },
  { method: "PATCH", path: "/admin/api/webhooks/999", body: { state: "disabled" }, adminStatus: 404 },
  { method: "DELETE", path: "/admin/api/webhooks/999", adminStatus: 404 },
  { method: "GET", path: "/admin/api/webhooks/999/secret", adminStatus: 404 },
  { method: "POST", path: "/admin/api/webhooks/999/secret", adminStatus: 404 },
  { method: "GET", path: "/admin/api/webhooks/999/deliveries", adminStatus: 404 },
  { method: "POST", path: "/admin/api/webhooks/999/deliveries", adminStatus: 404 },
  { method: "POST", path: "/admin/api/webhooks/999/deliveries/1/resend", adminStatus: 404 },
];

/**
 * Every admin-only page: 403 "Admins only" for a staff member, the sign-in page for a visitor, 200 for an admin.
 * Each new one gets a row here too.
 */
const ADMIN_PAGES = [
  { path: "/admin/staff", heading: "Staff" },
  { path: "/admin/keys", heading: "API keys" },
  { path: "/admin/webhooks", heading: "Webhooks" },
  { path: "/admin/activity", heading: "Activity" },
];

type AuditRow = {
  id: number;
  action: string;
  actorType: string;
  actorId: number | null;
  actorLabel: string;
  targetType: string;
  targetId: string | null;
  targetLabel: string | null;
  details: unknown;
  clientAddress: string | null;
  requestId: string | null;
};

/** The audit trail as the database holds it, oldest first. */
async function auditRows(database: TestDatabase): Promise<AuditRow[]> {
  const sql =
    "SELECT id, action, actor_type, actor_id, actor_label, target_type, target_id, target_label, details, " +
    "client_address, request_id FROM audit_events ORDER BY id";
  let rows: Record<string, string | number | bigint | null>[];
  if (database.provider === "sqlite") {
    const config = databaseConfig(database.url);
    const file = new Database(config.provider === "sqlite" ? config.file : "", { readonly: true });
    try {
      rows = file.prepare(sql).all() as typeof rows;
    } finally {
      file.close();
    }
  } else {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      rows = (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  }
  return rows.map((row) => ({
    id: Number(row.id),
    action: String(row.action),
    actorType: String(row.actor_type),
    actorId: row.actor_id === null ? null : Number(row.actor_id),
    actorLabel: String(row.actor_label),
    targetType: String(row.target_type),
    targetId: row.target_id === null ? null : String(row.target_id),
    targetLabel: row.target_label === null ? null : String(row.target_label),
    details: row.details === null ? null : JSON.parse(String(row.details)),
    clientAddress: row.client_address === null ? null : String(row.client_address),
    requestId: row.request_id === null ? null : String(row.request_id),
  }));
}

function assertAdminError(reply: Reply, status: number, code: string) {
  assert.equal(reply.status, status, reply.text);
  assert.match(reply.headers.get("content-type") ?? "", /^application\/json/);
  assert.equal(reply.body.code, code, reply.text);
  assert.equal(reply.body.status, BigInt(status));
  assert.equal(typeof reply.body.message, "string");
}

function refusedScript(work: Promise<unknown>): Promise<Error & { code?: number; stderr?: string }> {
  return work.then(
    () => assert.fail("expected the command to fail"),
    (error: Error & { code?: number; stderr?: string }) => error,
  );
}

const providers = await testProviders();

for (const provider of providers) {
  describe(`roles and staff accounts on ${provider} (server.ts)`, () => {
    let database: TestDatabase;
    let server: RunningServer;
    let adminCookie: string;
    let memberCookie: string;
    let adminId: number;
    let targetId: number;
    let keyId: number;
    let requests = 0;
    let targetPassword = TARGET.password; // reset further down

    /** A request as the browser's pages send it: same origin, its own request id (returned, to find its record). */
    const send = async (
      method: string,
      path: string,
      options: { cookie?: string; body?: unknown; from?: string } = {},
    ): Promise<Reply & { requestId: string }> => {
      const requestId = `roles-test-${provider}-${++requests}`;
      const headers: Record<string, string> = { Origin: server.baseUrl, "X-Request-Id": requestId };
      if (options.cookie) headers.Cookie = options.cookie;
      if (options.from) headers["X-Forwarded-For"] = options.from;
      const reply = await call(server.baseUrl, method, path, { headers, body: options.body });
      return { ...reply, requestId };
    };
    const signIn = (email: string, password: string, from: string) =>
      send("POST", "/admin/api/session", { body: { email, password }, from });
    const cookieOf = (reply: Reply) => {
      assert.equal(reply.status, 200, reply.text);
      return reply.headers.get("set-cookie")!.split(";")[0];
    };
    const staffTool = (args: string[], input?: string) => runScript("staff.ts", args, database.url, input);
    const idOf = async (email: string) => {
      const listing = await send("GET", "/admin/api/staff", { cookie: adminCookie });
      const account = (listing.body as { id: bigint; email: string }[]).find((item) => item.email === email);
      assert.ok(account, `${email} is listed`);
      return Number(account.id);
    };
    /** The records written by `work`, and what it returned. */
    const recordsOf = async <T>(work: () => Promise<T>): Promise<{ result: T; records: AuditRow[] }> => {
      const before = (await auditRows(database)).at(-1)?.id ?? 0;
      const result = await work();
      return { result, records: (await auditRows(database)).filter((row) => row.id > before) };
    };

    before(async () => {
      database = await createMigratedDatabase(provider);
      await createStaff(database.url, ADMIN.email, ADMIN.password, "admin");
      await createStaff(database.url, MEMBER.email, MEMBER.password, "staff");
      await createStaff(database.url, TARGET.email, TARGET.password, "staff");
      // A trusted proxy on loopback, so X-Forwarded-For plays each request's client address.
      server = await startServer("custom", database.url, { TRUSTED_PROXIES: "127.0.0.1" });
      adminCookie = cookieOf(await signIn(ADMIN.email, ADMIN.password, "192.0.2.10"));
      memberCookie = cookieOf(await signIn(MEMBER.email, MEMBER.password, "192.0.2.11"));
      adminId = await idOf(ADMIN.email);
      targetId = await idOf(TARGET.email);
      await createKey(database.url, "for the roles test");
      keyId = (await listKeys(database.url)).find((key) => key.name === "for the roles test")!.id;
    });

    after(async () => {
      await server?.stop();
      await database?.drop();
    });

    describe("every admin-only endpoint checks the role on the server", () => {
      const pathOf = (endpoint: AdminEndpoint) =>
        endpoint.path.replace("{staff}", String(targetId)).replace("{key}", String(keyId));

      for (const endpoint of ADMIN_ENDPOINTS) {
        const name = `${endpoint.method} ${endpoint.path}${endpoint.body ? ` ${JSON.stringify(endpoint.body)}` : ""}`;
        test(`${name}: 403 for a staff member and 401 without a session, and nothing is recorded`, async () => {
          const { records } = await recordsOf(async () => {
            const asMember = await send(endpoint.method, pathOf(endpoint), {
              cookie: memberCookie,
              body: endpoint.body,
            });
            assertAdminError(asMember, 403, "admin_role_required");
            const asVisitor = await send(endpoint.method, pathOf(endpoint), { body: endpoint.body });
            assertAdminError(asVisitor, 401, "session_required");
          });
          assert.deepEqual(records, []);
        });
      }

      for (const endpoint of ADMIN_ENDPOINTS) {
        const name = `${endpoint.method} ${endpoint.path}${endpoint.body ? ` ${JSON.stringify(endpoint.body)}` : ""}`;
        test(`${name}: an admin gets through (${endpoint.adminStatus})`, async () => {
          const reply = await send(endpoint.method, pathOf(endpoint), { cookie: adminCookie, body: endpoint.body });
          assert.equal(reply.status, endpoint.adminStatus, reply.text);
        });
      }

      for (const { path: page, heading } of ADMIN_PAGES) {
        test(`${page}: the "Admins only" page with 403 for a staff member, sign-in without a session`, async () => {
          const asMember = await send("GET", page, { cookie: memberCookie });
          assert.equal(asMember.status, 403, asMember.text.slice(0, 300));
          assert.match(asMember.headers.get("content-type") ?? "", /^text\/html/);
          assert.match(asMember.text, /Admins only/);
          assert.doesNotMatch(asMember.text, /roles-target@animal-store\.example/, "no account leaks into the 403");

          const asVisitor = await send("GET", page);
          assert.ok([302, 303, 307, 308].includes(asVisitor.status), `status ${asVisitor.status}`);
          assert.equal(
            new URL(asVisitor.headers.get("location")!, server.baseUrl).pathname +
              new URL(asVisitor.headers.get("location")!, server.baseUrl).search,
            `/sign-in?next=${encodeURIComponent(page)}`,
          );

          const asAdmin = await send("GET", page, { cookie: adminCookie });
          assert.equal(asAdmin.status, 200);
          assert.match(asAdmin.text, new RegExp(`<h1[^>]*>${heading}</h1>`));
        });
      }

      test("a staff member's own pages still work: the catalogue answers 200", async () => {
        assert.equal((await send("GET", "/admin/api/pets", { cookie: memberCookie })).status, 200);
        assert.equal((await send("GET", "/admin", { cookie: memberCookie })).status, 200);
      });
    });

    describe("the Staff page's changes: one record each, as the signed-in admin", () => {
      test("create, role, password, disable, enable each write exactly one record naming the admin", async () => {
        const email = "made-on-the-page@animal-store.example";
        const created = await recordsOf(() =>
          send("POST", "/admin/api/staff", {
            cookie: adminCookie,
            from: "198.51.100.7",
            body: { email, role: "staff", password: "a long initial password" },
          }),
        );
        assert.equal(created.result.status, 201, created.result.text);
        const id = Number(created.result.body.id);
        const steps: [string, string, unknown, string, unknown][] = [
          [
            "PUT",
            `/admin/api/staff/${id}/role`,
            { role: "admin" },
            "staff.role_changed",
            { before: "staff", after: "admin" },
          ],
          [
            "PUT",
            `/admin/api/staff/${id}/role`,
            { role: "staff" },
            "staff.role_changed",
            { before: "admin", after: "staff" },
          ],
          [
            "PUT",
            `/admin/api/staff/${id}/password`,
            { password: "a brand new password" },
            "staff.password_reset",
            undefined,
          ],
          ["POST", `/admin/api/staff/${id}/disable`, undefined, "staff.disabled", undefined],
          ["POST", `/admin/api/staff/${id}/enable`, undefined, "staff.enabled", undefined],
        ];
        const all: { result: Reply & { requestId: string }; records: AuditRow[]; action: string; details: unknown }[] =
          [{ ...created, action: "staff.created", details: { role: "staff" } }];
        for (const [method, path, body, action, details] of steps) {
          const done = await recordsOf(() => send(method, path, { cookie: adminCookie, body, from: "198.51.100.7" }));
          assert.equal(done.result.status, 200, done.result.text);
          all.push({ ...done, action, details });
        }
        for (const { result, records, action, details } of all) {
          assert.equal(records.length, 1, `${action}: ${JSON.stringify(records)}`);
          const [record] = records;
          assert.equal(record.action, action);
          assert.equal(record.actorType, "staff");
          assert.equal(record.actorId, adminId);
          assert.equal(record.actorLabel, ADMIN.email);
          assert.equal(record.targetType, "staff");
          assert.equal(record.targetId, String(id));
          assert.equal(record.targetLabel, email);
          assert.equal(record.clientAddress, "198.51.100.7");
          assert.equal(record.requestId, result.requestId);
          assert.equal(result.headers.get("x-request-id"), result.requestId);
          if (details !== undefined) assert.deepEqual(record.details, details);
          assert.doesNotMatch(JSON.stringify(record), /a brand new password|a long initial password/);
        }
      });

      const refusals: [string, string, () => string, unknown, number, string][] = [
        [
          "an existing email",
          "POST",
          () => "/admin/api/staff",
          { email: TARGET.email.toUpperCase(), role: "staff", password: "a long enough password" },
          409,
          "staff_exists",
        ],
        [
          "a short password",
          "POST",
          () => "/admin/api/staff",
          { email: "short@animal-store.example", role: "staff", password: "short" },
          400,
          "invalid_body",
        ],
        [
          "an unknown role",
          "POST",
          () => "/admin/api/staff",
          { email: "role@animal-store.example", role: "owner", password: "a long enough password" },
          400,
          "invalid_body",
        ],
        [
          "an unknown member",
          "POST",
          () => "/admin/api/staff",
          { email: "x@animal-store.example", role: "staff", password: "a long enough password", admin: true },
          400,
          "invalid_body",
        ],
        [
          "not an email",
          "POST",
          () => "/admin/api/staff",
          { email: "nobody", role: "staff", password: "a long enough password" },
          400,
          "invalid_body",
        ],
        ["an unknown account", "POST", () => "/admin/api/staff/999999/disable", undefined, 404, "not_found"],
        ["a malformed id", "POST", () => "/admin/api/staff/abc/disable", undefined, 404, "not_found"],
        [
          "a role that is not one",
          "PUT",
          () => `/admin/api/staff/${targetId}/role`,
          { role: "root" },
          400,
          "invalid_body",
        ],
        [
          "a short new password",
          "PUT",
          () => `/admin/api/staff/${targetId}/password`,
          { password: "short" },
          400,
          "invalid_body",
        ],
        [
          "the role it has",
          "PUT",
          () => `/admin/api/staff/${targetId}/role`,
          { role: "staff" },
          409,
          "staff_unchanged",
        ],
        [
          "enabling an enabled account",
          "POST",
          () => `/admin/api/staff/${targetId}/enable`,
          undefined,
          409,
          "staff_unchanged",
        ],
        [
          "unlocking an account with nothing to unlock",
          "POST",
          () => `/admin/api/staff/${targetId}/unlock`,
          undefined,
          409,
          "staff_unchanged",
        ],
      ];
      for (const [name, method, path, body, status, code] of refusals) {
        test(`refuses ${name} with ${status} ${code}, and records nothing`, async () => {
          const { result, records } = await recordsOf(() => send(method, path(), { cookie: adminCookie, body }));
          assertAdminError(result, status, code);
          assert.deepEqual(records, []);
        });
      }

      test("a change from another site is refused (same-origin check), and records nothing", async () => {
        const { result, records } = await recordsOf(() =>
          call(server.baseUrl, "POST", `/admin/api/staff/${targetId}/disable`, {
            headers: { Cookie: adminCookie, Origin: "https://evil.example" },
          }),
        );
        assertAdminError(result, 403, "cross_origin");
        assert.deepEqual(records, []);
      });

      test("disabling an account ends its sessions; a reset password does too, and the new one signs in", async () => {
        const cookie = cookieOf(await signIn(TARGET.email, targetPassword, "192.0.2.12"));
        assert.equal((await send("GET", "/admin/api/pets", { cookie })).status, 200);
        const reset = await send("PUT", `/admin/api/staff/${targetId}/password`, {
          cookie: adminCookie,
          body: { password: "the target's new password" },
        });
        assert.equal(reset.status, 200, reset.text);
        assertAdminError(await send("GET", "/admin/api/pets", { cookie }), 401, "session_required");
        targetPassword = "the target's new password";
        const again = cookieOf(await signIn(TARGET.email, targetPassword, "192.0.2.12"));
        assert.equal((await send("POST", `/admin/api/staff/${targetId}/disable`, { cookie: adminCookie })).status, 200);
        assertAdminError(await send("GET", "/admin/api/pets", { cookie: again }), 401, "session_required");
        assertAdminError(await signIn(TARGET.email, targetPassword, "192.0.2.12"), 401, "invalid_credentials");
        assert.equal((await send("POST", `/admin/api/staff/${targetId}/enable`, { cookie: adminCookie })).status, 200);
        cookieOf(await signIn(TARGET.email, targetPassword, "192.0.2.12"));
      });

      test("the listing shows role, state, failed sign-ins and locked-out addresses; unlock clears them", async () => {
        for (let attempt = 0; attempt < 5; attempt++)
          assertAdminError(await signIn(TARGET.email, "a wrong password!", "203.0.113.40"), 401, "invalid_credentials");
        const listing = await send("GET", "/admin/api/staff", { cookie: adminCookie });
        const target = listing.body.find((item: { email: string }) => item.email === TARGET.email);
        assert.equal(target.role, "staff");
        assert.equal(target.failedSignIns, 5n);
        assert.equal(target.lockedAddresses, 1n);
        assert.equal(target.disabledAt, null);
        const unlocked = await recordsOf(() =>
          send("POST", `/admin/api/staff/${targetId}/unlock`, { cookie: adminCookie, from: "198.51.100.8" }),
        );
        assert.equal(unlocked.result.status, 200, unlocked.result.text);
        assert.equal(unlocked.result.body.failedSignIns, 0n);
        assert.deepEqual(
          unlocked.records.map((record) => [record.action, record.actorId, record.targetId, record.clientAddress]),
          [["staff.unlocked", adminId, String(targetId), "198.51.100.8"]],
        );
        assert.equal(
          (await signIn(TARGET.email, targetPassword, "203.0.113.40")).status,
          200,
          "the address is free again",
        );
        assertAdminError(
          await send("POST", `/admin/api/staff/${targetId}/unlock`, { cookie: adminCookie }),
          409,
          "staff_unchanged",
        );
      });
    });

    describe("sign-ins are recorded, with the client's address and the request id", () => {
      test("a success writes exactly one staff.signed_in, as the staff member", async () => {
        const { result, records } = await recordsOf(() => signIn(MEMBER.email, MEMBER.password, "203.0.113.1"));
        assert.equal(result.status, 200, result.text);
        assert.equal(records.length, 1, JSON.stringify(records));
        const memberId = await idOf(MEMBER.email);
        assert.deepEqual(
          [records[0].action, records[0].actorType, records[0].actorId, records[0].actorLabel],
          ["staff.signed_in", "staff", memberId, MEMBER.email],
        );
        assert.deepEqual([records[0].targetType, records[0].targetId], ["staff", String(memberId)]);
        assert.equal(records[0].clientAddress, "203.0.113.1");
        assert.equal(records[0].requestId, result.requestId);
      });

      test("a wrong password writes exactly one staff.sign_in_failed, by a visitor, on the account", async () => {
        const typed = "  Roles-Member@Animal-Store.example ";
        const { result, records } = await recordsOf(() => signIn(typed, "not the password", "203.0.113.2"));
        assertAdminError(result, 401, "invalid_credentials");
        assert.equal(records.length, 1, JSON.stringify(records));
        const [record] = records;
        assert.deepEqual(
          [record.action, record.actorType, record.actorId, record.actorLabel],
          ["staff.sign_in_failed", "visitor", null, MEMBER.email],
        );
        assert.deepEqual(
          [record.targetType, record.targetId, record.targetLabel],
          ["staff", String(await idOf(MEMBER.email)), MEMBER.email],
        );
        assert.equal(record.clientAddress, "203.0.113.2");
        assert.equal(record.requestId, result.requestId);
        assert.doesNotMatch(JSON.stringify(record), /not the password/);
      });

      test("an unknown email writes one staff.sign_in_failed with no account id, the email masked", async () => {
        const { result, records } = await recordsOf(() =>
          signIn("Nobody-Here@Animal-Store.example", "some password", "203.0.113.3"),
        );
        assertAdminError(result, 401, "invalid_credentials");
        assert.deepEqual(
          records.map((record) => [
            record.action,
            record.actorLabel,
            record.targetType,
            record.targetId,
            record.targetLabel,
          ]),
          [["staff.sign_in_failed", "n…@animal-store.example", "staff", null, "n…@animal-store.example"]],
        );
        assert.equal(records[0].clientAddress, "203.0.113.3");
        assert.equal(records[0].requestId, result.requestId);
        assert.doesNotMatch(JSON.stringify(records), /nobody-here/i);
      });

      test("something typed in the email field that is no email address is not kept", async () => {
        const { result, records } = await recordsOf(() => signIn("my secret password", "x", "203.0.113.5"));
        assertAdminError(result, 401, "invalid_credentials");
        assert.deepEqual(
          records.map((record) => [record.action, record.actorLabel, record.targetLabel]),
          [["staff.sign_in_failed", "(not an email address)", "(not an email address)"]],
        );
        assert.doesNotMatch(JSON.stringify(records), /secret/);
      });

      test("an attempt refused by the limits (429) before any check writes none", async () => {
        const email = "locked-out@animal-store.example";
        for (let attempt = 0; attempt < 5; attempt++)
          assertAdminError(await signIn(email, "wrong password", "203.0.113.4"), 401, "invalid_credentials");
        const { result, records } = await recordsOf(() => signIn(email, "wrong password", "203.0.113.4"));
        assertAdminError(result, 429, "sign_in_throttled");
        assert.deepEqual(records, []);
      });
    });

    describe("the staff tool: one record per change, as the command line", () => {
      const cli = { actorType: "cli", actorId: null, actorLabel: "command line" };
      const email = "tool-made@animal-store.example";

      test("create, role, disable, enable, reset-password and unlock each write exactly one record", async () => {
        const steps: [string[], string | undefined, string, unknown][] = [
          [["create", email, "--role", "staff"], "a long initial password\n", "staff.created", { role: "staff" }],
          [["role", email, "admin"], undefined, "staff.role_changed", { before: "staff", after: "admin" }],
          [["role", email, "staff"], undefined, "staff.role_changed", { before: "admin", after: "staff" }],
          [["disable", email], undefined, "staff.disabled", { endedSessions: 0 }],
          [["enable", email], undefined, "staff.enabled", null],
          [["reset-password", email], "a tool-set password\n", "staff.password_reset", { endedSessions: 0 }],
        ];
        for (const [args, input, action, details] of steps) {
          const { records } = await recordsOf(() => staffTool(args, input));
          assert.equal(records.length, 1, `${args.join(" ")}: ${JSON.stringify(records)}`);
          const [record] = records;
          assert.deepEqual(
            {
              action: record.action,
              actorType: record.actorType,
              actorId: record.actorId,
              actorLabel: record.actorLabel,
            },
            { action, ...cli },
          );
          assert.deepEqual([record.targetType, record.targetLabel], ["staff", email]);
          assert.ok(record.targetId && /^\d+$/.test(record.targetId));
          assert.deepEqual(record.details, details);
          assert.equal(record.clientAddress, null);
          assert.equal(record.requestId, null);
        }
        // The new password signs in; the failures from one address lock it, and unlock frees it.
        assert.equal((await signIn(email, "a tool-set password", "203.0.113.50")).status, 200);
        for (let attempt = 0; attempt < 5; attempt++) await signIn(email, "a wrong password", "203.0.113.51");
        assert.match(
          await staffTool(["list"]),
          /tool-made@animal-store\.example +staff +\S+ +active, locked out from 1 address +5/,
        );
        const { result, records } = await recordsOf(() => staffTool(["unlock", email]));
        assert.match(result, /Unlocked tool-made@animal-store\.example: failed sign-ins cleared, 1 locked-out address/);
        assert.deepEqual(
          records.map((record) => [record.action, record.actorType, record.targetLabel]),
          [["staff.unlocked", "cli", email]],
        );
        assert.match(await staffTool(["list"]), /tool-made@animal-store\.example +staff +\S+ +active +0/);
      });

      const noOps: [string, string[], RegExp][] = [
        [
          "disabling a disabled account",
          ["disable", "noop@animal-store.example"],
          /is already disabled; nothing changed/,
        ],
        [
          "enabling an enabled account",
          ["enable", "noop-enabled@animal-store.example"],
          /is already enabled; nothing changed/,
        ],
        [
          "giving the role it has",
          ["role", "noop-enabled@animal-store.example", "staff"],
          /is already a staff member; nothing changed/,
        ],
        [
          "unlocking an unlocked account",
          ["unlock", "noop-enabled@animal-store.example"],
          /is not locked out .*nothing changed/,
        ],
      ];
      test("a change that changes nothing says so and writes no record", async () => {
        await staffTool(["create", "noop@animal-store.example"], "a long enough password\n");
        await staffTool(["create", "noop-enabled@animal-store.example"], "a long enough password\n");
        await staffTool(["disable", "noop@animal-store.example"]);
        for (const [name, args, message] of noOps) {
          const { result, records } = await recordsOf(() => staffTool(args));
          assert.match(result, message, name);
          assert.doesNotMatch(result, /^(Disabled|Enabled|Unlocked)/, name);
          assert.deepEqual(records, [], name);
        }
      });

      const refusals: [string, string[], string | undefined, RegExp][] = [
        [
          "an unknown role",
          ["role", "noop-enabled@animal-store.example", "owner"],
          undefined,
          /The role is staff or admin, not "owner"/,
        ],
        [
          "role without a role",
          ["role", "noop-enabled@animal-store.example"],
          undefined,
          /usage: npm run staff -- role <email> <staff\|admin>/,
        ],
        [
          "an unknown email",
          ["enable", "nobody@animal-store.example"],
          undefined,
          /No staff account has the email "nobody@animal-store\.example"\. See: npm run staff -- list/,
        ],
        [
          "a short new password",
          ["reset-password", "noop-enabled@animal-store.example"],
          "short\n",
          /Refused: password must be at least 12 characters; the password was not changed\./,
        ],
        [
          "no new password",
          ["reset-password", "noop-enabled@animal-store.example"],
          "",
          /No password on standard input/,
        ],
        ["not an email", ["unlock", "nobody"], undefined, /"nobody" is not an email address/],
      ];
      for (const [name, args, input, message] of refusals) {
        test(`refuses ${name}: exit code 2, one line, no record`, async () => {
          const { result: failure, records } = await recordsOf(() => refusedScript(staffTool(args, input)));
          assert.equal(failure.code, 2);
          // Besides the line naming the database, when the refusal came after opening it.
          const lines = failure.stderr!.split("\n").filter((line) => line && !line.startsWith("Database: "));
          assert.equal(lines.length, 1, failure.stderr);
          assert.match(lines[0], message);
          assert.deepEqual(records, []);
        });
      }
    });

    describe("the store keeps an enabled admin", () => {
      test("the last enabled admin cannot be disabled or demoted, by the tool or the page; two can", async () => {
        // Only ADMIN is an enabled admin here (the accounts made above are staff members).
        const admins = (await send("GET", "/admin/api/staff", { cookie: adminCookie })).body.filter(
          (item: { role: string; disabledAt: unknown }) => item.role === "admin" && item.disabledAt === null,
        );
        assert.deepEqual(
          admins.map((item: { email: string }) => item.email),
          [ADMIN.email],
        );
        const { records } = await recordsOf(async () => {
          for (const args of [
            ["disable", ADMIN.email],
            ["role", ADMIN.email, "staff"],
          ]) {
            const failure = await refusedScript(staffTool(args));
            assert.equal(failure.code, 2);
            assert.match(failure.stderr!, /Refused: roles-admin@animal-store\.example is the last enabled admin/);
          }
          assertAdminError(
            await send("POST", `/admin/api/staff/${adminId}/disable`, { cookie: adminCookie }),
            409,
            "last_admin",
          );
          assertAdminError(
            await send("PUT", `/admin/api/staff/${adminId}/role`, { cookie: adminCookie, body: { role: "staff" } }),
            409,
            "last_admin",
          );
        });
        assert.deepEqual(records, []);
        assert.equal((await send("GET", "/admin/api/staff", { cookie: adminCookie })).status, 200, "still an admin");

        // With a second admin, the first may be demoted; then the second is the last one.
        await staffTool(["role", TARGET.email, "admin"]);
        const demoted = await recordsOf(() =>
          send("PUT", `/admin/api/staff/${adminId}/role`, { cookie: adminCookie, body: { role: "staff" } }),
        );
        assert.equal(demoted.result.status, 200, demoted.result.text);
        assert.equal(demoted.records.length, 1);
        assertAdminError(await send("GET", "/admin/api/staff", { cookie: adminCookie }), 403, "admin_role_required");
        const failure = await refusedScript(staffTool(["disable", TARGET.email]));
        assert.match(failure.stderr!, /roles-target@animal-store\.example is the last enabled admin/);
        await staffTool(["role", ADMIN.email, "admin"]);
      });

      test("two admins demoting each other at once: one wins, the other is refused, an admin remains", async () => {
        await staffTool(["role", TARGET.email, "admin"]);
        const targetCookie = cookieOf(await signIn(TARGET.email, targetPassword, "192.0.2.30"));
        const [first, second] = await Promise.all([
          send("PUT", `/admin/api/staff/${targetId}/role`, { cookie: adminCookie, body: { role: "staff" } }),
          send("PUT", `/admin/api/staff/${adminId}/role`, { cookie: targetCookie, body: { role: "staff" } }),
        ]);
        const statuses = [first.status, second.status].sort();
        // The loser is refused: 409 last_admin, or 403 when it was demoted before its own request was identified.
        assert.equal(statuses.filter((status) => status === 200).length, 1, `${first.text} / ${second.text}`);
        assert.ok(
          statuses.some((status) => status === 403 || status === 409),
          `${first.text} / ${second.text}`,
        );
        const admins = (await staffTool(["list"])).split("\n").filter((line) => / admin +\S+ +active/.test(line));
        assert.equal(admins.length, 1, admins.join("\n"));
      });
    });
  });
}
