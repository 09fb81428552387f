import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { throttleAddress } from "@/lib/auth/sign-in-throttle";
import { resolveForwarded } from "@/lib/http/forwarded";
import { call, rawCall } from "@/scripts/harness/http";
import { createTestDatabase, startServer, type RunningServer, type TestDatabase } from "@/scripts/harness/servers";
import { createKey, createStaff } from "@/scripts/harness/fixtures";

// Who the client is and which origin may write, with and without a trusted proxy: what server.ts
// concludes from the socket and the forwarded headers, the Origin check of the admin app's writes,
// the session cookie under HTTPS, and HSTS. The real deployment behind nginx: tests/deployment.test.ts.

const EMAIL = "ana@animal-store.example";
const PASSWORD = "correct horse battery staple";
const PUBLIC_ORIGIN = "https://store.example";
const SECURE_COOKIE =
  /^__Host-animal_store_session=([A-Za-z0-9_-]{43}); Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200; Secure$/;

describe("resolveForwarded", () => {
  const headers = (forwardedFor?: string, extra: Record<string, string> = {}) => ({
    host: "127.0.0.1:3000",
    ...(forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor }),
    ...extra,
  });

  test("without trusted proxies the socket is the client and forwarded headers are ignored", () => {
    const seen = resolveForwarded(
      "127.0.0.1",
      headers("203.0.113.9", { "x-forwarded-proto": "https", "x-forwarded-host": "evil.example" }),
      [],
    );
    assert.deepEqual(seen, { address: "127.0.0.1", scheme: "http", host: "127.0.0.1:3000" });
  });

  test("from a trusted proxy, X-Forwarded-For is read from the right up to the first untrusted hop", () => {
    const trusted = ["127.0.0.1", "10.0.0.0/8"];
    const cases: [string | undefined, string][] = [
      ["203.0.113.9", "203.0.113.9"],
      ["198.51.100.1, 203.0.113.9", "203.0.113.9"], // the client's own claim on the left is not believed
      ["203.0.113.9, 10.1.2.3", "203.0.113.9"], // an inner proxy of ours is skipped
      ["10.1.2.3, 10.9.9.9", "10.1.2.3"], // all trusted: the farthest one
      ["not-an-address, 203.0.113.9", "203.0.113.9"],
      ["203.0.113.9, garbage", "127.0.0.1"], // nothing left of garbage can be believed
      ["[2001:db8::7]:443", "2001:db8::7"],
      ["203.0.113.9:51234", "203.0.113.9"],
      [undefined, "127.0.0.1"],
    ];
    for (const [forwardedFor, client] of cases) {
      assert.equal(resolveForwarded("::ffff:127.0.0.1", headers(forwardedFor), trusted).address, client, forwardedFor);
    }
  });

  test("a proxy's scheme and host are believed only from a trusted proxy", () => {
    const fromProxy = headers("203.0.113.9", { "x-forwarded-proto": "https", "x-forwarded-host": "store.example" });
    assert.deepEqual(resolveForwarded("10.0.0.5", fromProxy, ["10.0.0.0/8"]), {
      address: "203.0.113.9",
      scheme: "https",
      host: "store.example",
    });
    assert.deepEqual(resolveForwarded("192.0.2.1", fromProxy, ["10.0.0.0/8"]), {
      address: "192.0.2.1",
      scheme: "http",
      host: "127.0.0.1:3000",
    });
    assert.equal(resolveForwarded("::1", fromProxy, ["::1"]).scheme, "https");
    // A proxy that appends: the value nearest to us is the one our proxy wrote, not the client's.
    const appended = headers("203.0.113.9", {
      "x-forwarded-proto": "https, http",
      "x-forwarded-host": "evil, store.example",
    });
    assert.deepEqual(resolveForwarded("10.0.0.5", appended, ["10.0.0.0/8"]).scheme, "http");
    assert.deepEqual(resolveForwarded("10.0.0.5", appended, ["10.0.0.0/8"]).host, "store.example");
    assert.equal(resolveForwarded("::1", fromProxy, ["::/128"]).scheme, "http");
  });
});

test("sign-in limits count an IPv6 client by its /64, an IPv4 client by its address", () => {
  assert.equal(throttleAddress("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
  assert.equal(throttleAddress("2001:db8:1:2:ffff:ffff:ffff:ffff"), "2001:db8:1:2::/64");
  assert.equal(throttleAddress("2001:db8::7"), "2001:db8:0:0::/64");
  assert.equal(throttleAddress("::1"), "0:0:0:0::/64");
  assert.equal(throttleAddress("203.0.113.9"), "203.0.113.9");
  assert.equal(throttleAddress("unknown"), "unknown");
});

/** The log lines the server printed for refused requests, as objects. */
function refusals(server: RunningServer): Record<string, unknown>[] {
  return server
    .logs()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => typeof entry.message === "string" && entry.message.includes("refused"));
}

/**
 * The refusals logged after the first `seen`, waiting for at least one: the log line reaches the test through a
 * pipe, after the answer it belongs to, and may lag it on a busy machine.
 */
async function refusalsAfter(server: RunningServer, seen: number): Promise<Record<string, unknown>[]> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const lines = refusals(server).slice(seen);
    if (lines.length > 0) return lines;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return [];
}

describe("behind a trusted proxy with PUBLIC_ORIGIN (server.ts, SQLite)", () => {
  let database: TestDatabase;
  let server: RunningServer;
  let key: string;
  const viaProxy = (extra: Record<string, string> = {}) => ({
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "store.example",
    "X-Forwarded-For": "198.51.100.4",
    ...extra,
  });
  const signIn = (headers: Record<string, string>) =>
    call(server.baseUrl, "POST", "/admin/api/session", { body: { email: EMAIL, password: PASSWORD }, headers });

  before(async () => {
    database = await createTestDatabase("sqlite");
    server = await startServer("custom", database.url, {
      DEMO_SEED: "off",
      TRUSTED_PROXIES: "127.0.0.1",
      PUBLIC_ORIGIN,
    });
    await createStaff(database.url, EMAIL, PASSWORD);
    key = await createKey(database.url);
  });

  after(async () => {
    await server?.stop();
    await database?.drop();
  });

  test("sign-in from the public origin sets a Secure __Host- cookie for the whole host, with HSTS", async () => {
    const reply = await signIn(viaProxy({ Origin: PUBLIC_ORIGIN }));
    assert.equal(reply.status, 200, reply.text);
    const token = SECURE_COOKIE.exec(reply.headers.get("set-cookie") ?? "")?.[1];
    assert.ok(token, reply.headers.get("set-cookie") ?? "no cookie");
    assert.match(reply.headers.get("strict-transport-security") ?? "", /^max-age=31536000/);

    const listed = await call(server.baseUrl, "GET", "/admin/api/pets", {
      headers: viaProxy({ Cookie: `__Host-animal_store_session=${token}` }),
    });
    assert.equal(listed.status, 200, listed.text);
    const unprefixed = await call(server.baseUrl, "GET", "/admin/api/pets", {
      headers: viaProxy({ Cookie: `animal_store_session=${token}` }),
    });
    assert.equal(unprefixed.status, 401, "under HTTPS only the __Host- cookie counts");
  });

  test("any Origin but PUBLIC_ORIGIN is refused, whatever Host or X-Forwarded-Host say", async () => {
    const host = new URL(server.baseUrl).host;
    for (const [origin, extra] of [
      [server.baseUrl, { "X-Forwarded-Host": host, "X-Forwarded-Proto": "http" }],
      [`https://${host}`, { "X-Forwarded-Host": host }],
      ["https://evil.example", { "X-Forwarded-Host": "evil.example" }],
      ["https://store.example.evil.example", {}],
      ["http://store.example", {}],
      ["null", {}],
    ] as const) {
      const reply = await signIn(viaProxy({ Origin: origin, ...extra }));
      assert.equal(reply.status, 403, `${origin}: ${reply.text}`);
      assert.equal(reply.body.code, "cross_origin");
      assert.equal(reply.headers.get("set-cookie"), null);
    }
    const missing = await signIn(viaProxy());
    assert.equal(missing.status, 403);
  });

  test("the client's address is the proxy's X-Forwarded-For, and every answer carries HSTS", async () => {
    const before = refusals(server).length;
    const refused = await call(server.baseUrl, "GET", "/v1/pets", { headers: viaProxy() });
    assert.equal(refused.status, 401);
    assert.match(refused.headers.get("strict-transport-security") ?? "", /^max-age=/);
    const lines = await refusalsAfter(server, before);
    assert.equal(lines.at(-1)?.client, "198.51.100.4", JSON.stringify(lines));

    const listed = await call(server.baseUrl, "GET", "/v1/pets", { key, headers: viaProxy() });
    assert.equal(listed.status, 200);
    assert.match(listed.headers.get("strict-transport-security") ?? "", /^max-age=/);

    // A chunked body (no Content-Length) makes the server rebuild the request from its raw headers.
    const beforeChunked = refusals(server).length;
    const chunked = await rawCall(server.baseUrl, {
      method: "POST",
      path: "/v1/pets",
      headers: { "Content-Type": "application/json", ...viaProxy({ "X-Forwarded-For": "198.51.100.77" }) },
      chunks: [Buffer.from('{"name":'), Buffer.from('"Chunked","categoryId":1}')],
    });
    assert.equal(chunked.status, 401, chunked.text);
    assert.equal(
      (await refusalsAfter(server, beforeChunked)).at(-1)?.client,
      "198.51.100.77",
      "a chunked request keeps the concluded address",
    );
    assert.match(String(chunked.headers["strict-transport-security"]), /^max-age=/);

    const page = await call(server.baseUrl, "GET", "/sign-in", { headers: viaProxy() });
    assert.equal(page.status, 200);
    assert.match(page.headers.get("strict-transport-security") ?? "", /^max-age=/);
  });
});

describe("with no settings: development on this machine (server.ts, SQLite)", () => {
  let database: TestDatabase;
  let server: RunningServer;
  let port: string;

  before(async () => {
    database = await createTestDatabase("sqlite");
    server = await startServer("custom", database.url, { DEMO_SEED: "off" });
    await createStaff(database.url, EMAIL, PASSWORD);
    port = new URL(server.baseUrl).port;
  });

  after(async () => {
    await server?.stop();
    await database?.drop();
  });

  const rawSignIn = (headers: Record<string, string>) =>
    rawCall(server.baseUrl, {
      method: "POST",
      path: "/admin/api/session",
      headers: { "Content-Type": "application/json", ...headers },
      chunks: [Buffer.from(JSON.stringify({ email: EMAIL, password: PASSWORD }))],
    });

  test("a DNS name pointed at the server (rebinding) cannot sign in, even with a matching Origin", async () => {
    const reply = await rawSignIn({ Host: `rebind.example:${port}`, Origin: `http://rebind.example:${port}` });
    assert.equal(reply.status, 403, reply.text);
    const body = JSON.parse(reply.text) as { code: string; message: string };
    assert.equal(body.code, "cross_origin");
    assert.match(body.message, /PUBLIC_ORIGIN/);
    assert.equal(reply.headers["set-cookie"], undefined);
  });

  test("a Host no browser could send is a 403, never a 500", async () => {
    for (const host of ["exa mple:1", "[::1", "a@b"]) {
      const reply = await rawSignIn({ Host: host, Origin: "http://example" });
      assert.ok([400, 403].includes(reply.status), `${host}: ${reply.status} ${reply.text}`);
    }
  });

  test("localhost and IP addresses work as before", async () => {
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
      const reply = await rawSignIn({ Host: host, Origin: `http://${host}` });
      assert.equal(reply.status, 200, `${host}: ${reply.text}`);
      assert.match(String(reply.headers["set-cookie"]), /^animal_store_session=[^;]+; Path=\/admin; HttpOnly/);
    }
  });

  test("forwarded headers from a client that is not a trusted proxy are ignored", async () => {
    const host = `127.0.0.1:${port}`;
    const forgedHost = await rawSignIn({
      Host: host,
      "X-Forwarded-Host": "evil.example",
      Origin: "http://evil.example",
    });
    assert.equal(forgedHost.status, 403, forgedHost.text);
    const forgedProto = await rawSignIn({ Host: host, "X-Forwarded-Proto": "https", Origin: `https://${host}` });
    assert.equal(forgedProto.status, 403, forgedProto.text);

    const before = refusals(server).length;
    const refused = await call(server.baseUrl, "GET", "/v1/pets", {
      headers: { "X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https" },
    });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get("strict-transport-security"), null);
    assert.equal((await refusalsAfter(server, before)).at(-1)?.client, "127.0.0.1");
  });
});
