import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import net from "node:net";
import { after, before, describe, test } from "node:test";
import { ConfigError, readConfig } from "@/lib/config";
import { assertError, call, signInStaff, type Reply } from "@/scripts/harness/http";
import {
  createMigratedDatabase,
  startServer,
  testProviders,
  type RunningServer,
  type TestDatabase,
} from "@/scripts/harness/servers";
import { createKey, createStaff } from "@/scripts/harness/fixtures";

// GET /metrics over real HTTP against the production server (server.ts), on SQLite and on PostgreSQL:
// off without METRICS_TOKEN (the 404 of any unknown path), the bearer token required with it, the text
// format, and the counters moving by exactly the requests made, /v1's (server.ts's bundle) and the admin
// endpoints' (Next's bundle) alike.

const TOKEN = `metrics-${randomBytes(16).toString("hex")}`;
const WRONG_TOKEN = `metrics-${randomBytes(16).toString("hex")}`;
const STAFF = { email: "metrics-tests@animal-store.example", password: "a staff member's password" };
const DURATION_BUCKETS = ["0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1"];

type Sample = { name: string; labels: Record<string, string>; value: number };
type Exposition = { types: Map<string, string>; samples: Sample[] };

const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\["\\n])*)"(?:,|$)/y;

/** A sample's value as Prometheus reads it (Go's ParseFloat: NaN and Inf in any case; prom-client writes "Nan"). */
function parseValue(text: string): number | undefined {
  if (/^nan$/i.test(text)) return NaN;
  const infinite = /^([+-]?)inf(inity)?$/i.exec(text);
  if (infinite) return infinite[1] === "-" ? -Infinity : Infinity;
  const value = Number(text);
  return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) && !Number.isNaN(value) ? value : undefined;
}

/** Parses Prometheus's text format strictly: every line is blank, a comment, or a sample of a declared family. */
function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  const lines = text.split("\n");
  assert.equal(lines.pop(), "", "the text ends with a newline");
  for (const line of lines) {
    if (line === "") continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1], type[2]);
      continue;
    }
    if (/^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* .*$/.test(line)) continue;
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(sample, `a sample line: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    LABEL.lastIndex = 0;
    const body = sample[2] ?? "";
    while (LABEL.lastIndex < body.length) {
      const label = LABEL.exec(body);
      assert.ok(label, `labels of ${JSON.stringify(line)}`);
      labels[label[1]] = label[2];
    }
    const value = parseValue(sample[3]);
    assert.ok(value !== undefined, `a value: ${JSON.stringify(line)}`);
    const family = types.has(sample[1]) ? sample[1] : sample[1].replace(/_(bucket|sum|count)$/, "");
    assert.ok(types.has(family), `${sample[1]} belongs to a declared family`);
    samples.push({ name: sample[1], labels, value });
  }
  return { types, samples };
}

const seriesKey = (name: string, labels: Record<string, string>) =>
  `${name}{${Object.entries(labels)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([label, value]) => `${label}="${value}"`)
    .join(",")}}`;

function valuesOf(exposition: Exposition): Map<string, number> {
  return new Map(exposition.samples.map((sample) => [seriesKey(sample.name, sample.labels), sample.value]));
}

/** What moved between two scrapes in the request counters, /metrics's own requests left out. */
function countersMoved(before: Exposition, now: Exposition): Record<string, number> {
  const earlier = valuesOf(before);
  const moved: Record<string, number> = {};
  for (const sample of now.samples) {
    const counted = ["http_requests_total", "http_refusals_total", "http_rate_limited_total"].includes(sample.name);
    const histogramCount = sample.name === "http_request_duration_seconds_count";
    if (!(counted || histogramCount) || sample.labels.surface === "metrics") continue;
    const key = seriesKey(sample.name, sample.labels);
    const delta = sample.value - (earlier.get(key) ?? 0);
    if (delta !== 0) moved[key] = delta;
  }
  return moved;
}

const requests = (surface: string, operation: string, method: string, status: number) => ({
  surface,
  operation,
  method,
  status: String(status),
});

for (const provider of await testProviders()) {
  describe(`GET /metrics on ${provider} (server.ts)`, () => {
    let database: TestDatabase;
    let server: RunningServer;
    let key: string;
    const scrape = async (): Promise<Exposition> => {
      const reply = await call(server.baseUrl, "GET", "/metrics", { key: TOKEN });
      assert.equal(reply.status, 200, reply.text);
      return parseExposition(reply.text);
    };

    before(async () => {
      database = await createMigratedDatabase(provider);
      key = await createKey(database.url, "client");
      const adminKey = await createKey(database.url, "admin app"); // so no admin key file is written
      await createStaff(database.url, STAFF.email, STAFF.password);
      server = await startServer("custom", database.url, {
        METRICS_TOKEN: TOKEN,
        ADMIN_API_KEY: adminKey,
        RATE_LIMIT_REQUESTS: "2",
        RATE_LIMIT_WINDOW_SECONDS: "86400",
      });
    });

    after(async () => {
      await server?.stop();
      await database?.drop();
    });

    test("without the token, or with another, a 401 with the challenge and an Error body", async () => {
      const refused: [string, Record<string, string>][] = [
        ["no Authorization header", {}],
        ["another token", { Authorization: `Bearer ${WRONG_TOKEN}` }],
        ["the token with one more character", { Authorization: `Bearer ${TOKEN}x` }],
        ["the token cut short", { Authorization: `Bearer ${TOKEN.slice(0, -1)}` }],
        ["another scheme", { Authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString("base64")}` }],
        ["the scheme alone", { Authorization: "Bearer" }],
        ["a /v1 API key", { Authorization: `Bearer ${key}` }],
      ];
      for (const [name, headers] of refused) {
        const reply = await call(server.baseUrl, "GET", "/metrics", { headers });
        assertError(reply, 401, "unauthorized");
        assert.equal(reply.headers.get("www-authenticate"), 'Bearer realm="animal-store"', name);
        assert.doesNotMatch(reply.text, /_total|# TYPE/, name);
      }
      const other = await call(server.baseUrl, "POST", "/metrics", { key: TOKEN });
      assertError(other, 405, "method_not_allowed");
      assert.equal(other.headers.get("allow"), "GET, HEAD, OPTIONS");
    });

    test("with the token: 200 in Prometheus's text format, with process metrics and histogram buckets", async () => {
      assert.equal((await call(server.baseUrl, "GET", "/v1/pets", { key })).status, 200);
      for (const scheme of ["Bearer", "bearer"]) {
        const reply = await call(server.baseUrl, "GET", `/metrics`, {
          headers: { Authorization: `${scheme} ${TOKEN}` },
        });
        assert.equal(reply.status, 200, reply.text);
        assert.equal(reply.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
        assert.equal(reply.headers.get("cache-control"), "no-store");
      }
      const { types, samples } = await scrape();
      assert.equal(types.get("http_requests_total"), "counter");
      assert.equal(types.get("http_request_duration_seconds"), "histogram");
      assert.equal(types.get("http_refusals_total"), "counter");
      assert.equal(types.get("http_rate_limited_total"), "counter");
      for (const name of [
        "process_cpu_user_seconds_total",
        "process_resident_memory_bytes",
        "process_start_time_seconds",
        "nodejs_heap_size_used_bytes",
        "nodejs_eventloop_lag_seconds",
      ]) {
        assert.ok(types.has(name), `${name} is declared`);
        assert.ok(
          samples.some((sample) => sample.name === name),
          `${name} has a value`,
        );
      }

      // The buckets of one series: every bound, cumulative, ending in +Inf equal to the count.
      const listed = requests("v1", "listPets", "GET", 200);
      const buckets = samples.filter(
        (sample) =>
          sample.name === "http_request_duration_seconds_bucket" &&
          Object.entries(listed).every(([label, value]) => sample.labels[label] === value),
      );
      assert.deepEqual(
        buckets.map((bucket) => bucket.labels.le),
        [...DURATION_BUCKETS, "2.5", "5", "10", "+Inf"],
      );
      for (let index = 1; index < buckets.length; index++)
        assert.ok(buckets[index].value >= buckets[index - 1].value, "cumulative");
      const values = valuesOf({ types, samples });
      const count = values.get(seriesKey("http_request_duration_seconds_count", listed));
      assert.equal(count, 1);
      assert.equal(buckets.at(-1)!.value, count);
      assert.ok(values.get(seriesKey("http_request_duration_seconds_sum", listed))! > 0);
      assert.equal(values.get(seriesKey("http_requests_total", listed)), 1);
    });

    test("a 200, a 400, a 401 and a 429 of /v1 move exactly their own series, by one", async () => {
      // The client's quota of 2 a day: one of them was used by the test above.
      const before = await scrape();
      assert.equal(
        (await call(server.baseUrl, "POST", "/v1/pets", { key, body: { name: "", categoryId: 1 } })).status,
        400,
      );
      assertError(await call(server.baseUrl, "GET", "/v1/pets"), 401, "unauthorized");
      assertError(await call(server.baseUrl, "GET", "/v1/pets", { key }), 429, "rate_limited");
      assert.deepEqual(countersMoved(before, await scrape()), {
        [seriesKey("http_requests_total", requests("v1", "createPet", "POST", 400))]: 1,
        [seriesKey("http_request_duration_seconds_count", requests("v1", "createPet", "POST", 400))]: 1,
        [seriesKey("http_requests_total", requests("v1", "listPets", "GET", 401))]: 1,
        [seriesKey("http_request_duration_seconds_count", requests("v1", "listPets", "GET", 401))]: 1,
        [seriesKey("http_requests_total", requests("v1", "listPets", "GET", 429))]: 1,
        [seriesKey("http_request_duration_seconds_count", requests("v1", "listPets", "GET", 429))]: 1,
        [seriesKey("http_refusals_total", { surface: "v1", code: "invalid_body" })]: 1,
        [seriesKey("http_refusals_total", { surface: "v1", code: "unauthorized" })]: 1,
        [seriesKey("http_refusals_total", { surface: "v1", code: "rate_limited" })]: 1,
        [seriesKey("http_rate_limited_total", { surface: "v1", operation: "listPets" })]: 1,
      });
    });

    test("unknown paths and methods count under fixed labels, never the path", async () => {
      const before = await scrape();
      const path = `/v1/no-such-${randomBytes(4).toString("hex")}`;
      assertError(await call(server.baseUrl, "GET", path, { key }), 404, "not_found");
      assertError(await call(server.baseUrl, "PUT", "/v1/pets", { key }), 405, "method_not_allowed");
      const now = await scrape();
      assert.deepEqual(countersMoved(before, now), {
        [seriesKey("http_requests_total", requests("v1", "unknownPath", "GET", 404))]: 1,
        [seriesKey("http_request_duration_seconds_count", requests("v1", "unknownPath", "GET", 404))]: 1,
        [seriesKey("http_requests_total", requests("v1", "unsupportedMethod", "PUT", 405))]: 1,
        [seriesKey("http_request_duration_seconds_count", requests("v1", "unsupportedMethod", "PUT", 405))]: 1,
        [seriesKey("http_refusals_total", { surface: "v1", code: "not_found" })]: 1,
        [seriesKey("http_refusals_total", { surface: "v1", code: "method_not_allowed" })]: 1,
      });
      assert.ok(!now.samples.some((sample) => Object.values(sample.labels).some((value) => value.includes("/"))));
    });

    test("a client that aborts its upload is counted as 499 and logged as an abort, never as a 5xx", async () => {
      const uploader = await createKey(database.url, "aborting client");
      const cookie = await signInStaff(server.baseUrl, STAFF.email, STAFF.password);
      const { hostname, port, host } = new URL(server.baseUrl);
      // Headers promising 10,000 bytes, a few of them, then the connection dropped.
      const abortUpload = (target: string, headers: string) =>
        new Promise<void>((resolve, reject) => {
          const socket = net.connect(Number(port), hostname, () => {
            socket.write(
              `POST ${target} HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${server.baseUrl}\r\n${headers}` +
                `Content-Length: 10000\r\n\r\nname,categoryId\nRex,`,
            );
            setTimeout(() => socket.destroy(), 200);
          });
          socket.on("close", () => resolve());
          socket.on("error", reject);
        });
      const before = await scrape();
      await abortUpload("/v1/pets", `Authorization: Bearer ${uploader}\r\nContent-Type: application/json\r\n`);
      await abortUpload("/admin/api/pets/imports", `Cookie: ${cookie}\r\nContent-Type: text/csv\r\n`);
      // Each abort is noticed when the server next reads the body, after the socket closed: wait for both lines.
      // The import's body is read by its route, not buffered by Next first (proxy.ts), so its abort is told too.
      const aborted = (path: string) => new RegExp(`"level":"info","message":"client aborted".*"path":"${path}"`);
      const paths = ["/v1/pets", "/admin/api/pets/imports"].map((path) => path.replaceAll("/", "\\/"));
      for (let waited = 0; !paths.every((path) => aborted(path).test(server.logs())) && waited < 5000; waited += 50)
        await new Promise((resolve) => setTimeout(resolve, 50));
      for (const path of paths) assert.match(server.logs(), aborted(path));
      assert.doesNotMatch(server.logs(), /"request failed".*"path":"\/v1\/pets"/);
      assert.doesNotMatch(server.logs(), /"admin request failed"/);
      assert.deepEqual(countersMoved(before, await scrape()), {
        [seriesKey("http_requests_total", requests("v1", "createPet", "POST", 499))]: 1,
        [seriesKey("http_request_duration_seconds_count", requests("v1", "createPet", "POST", 499))]: 1,
        [seriesKey("http_requests_total", requests("admin", "dryRunImport", "POST", 499))]: 1,
        [seriesKey("http_request_duration_seconds_count", requests("admin", "dryRunImport", "POST", 499))]: 1,
      });
    });

    test("the admin endpoints (Next's bundle) count into the same registry, their forward to /v1 as /v1", async () => {
      const before = await scrape();
      const signIn = (password: string) =>
        call(server.baseUrl, "POST", "/admin/api/session", {
          headers: { Origin: server.baseUrl },
          body: { email: STAFF.email, password },
        });
      assert.equal((await signIn("not the password")).status, 401);
      const signedIn = await signIn(STAFF.password);
      assert.equal(signedIn.status, 200, signedIn.text);
      const cookie = signedIn.headers.get("set-cookie")!.split(";")[0];
      const list: Reply = await call(server.baseUrl, "GET", "/admin/api/pets", { headers: { Cookie: cookie } });
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(countersMoved(before, await scrape()), {
        [seriesKey("http_requests_total", requests("admin", "signIn", "POST", 401))]: 1,
        [seriesKey("http_request_duration_seconds_count", requests("admin", "signIn", "POST", 401))]: 1,
        [seriesKey("http_requests_total", requests("admin", "signIn", "POST", 200))]: 1,
        [seriesKey("http_request_duration_seconds_count", requests("admin", "signIn", "POST", 200))]: 1,
        [seriesKey("http_refusals_total", { surface: "admin", code: "invalid_credentials" })]: 1,
        [seriesKey("http_requests_total", requests("admin", "listPets", "GET", 200))]: 1,
        [seriesKey("http_request_duration_seconds_count", requests("admin", "listPets", "GET", 200))]: 1,
        [seriesKey("http_requests_total", requests("v1", "listPets", "GET", 200))]: 1,
        [seriesKey("http_request_duration_seconds_count", requests("v1", "listPets", "GET", 200))]: 1,
      });
    });

    test(
      provider === "postgresql"
        ? "the PostgreSQL pool's connections are reported"
        : "SQLite reports its files' sizes, and no pool",
      async () => {
        const values = valuesOf(await scrape());
        if (provider === "postgresql") {
          const total = values.get("db_pool_connections{}")!;
          const idle = values.get("db_pool_idle_connections{}")!;
          assert.ok(total >= 1 && total <= 10, `db_pool_connections ${total}`);
          assert.ok(idle >= 0 && idle <= total, `db_pool_idle_connections ${idle}`);
          assert.equal(values.get("db_pool_waiting_requests{}"), 0);
          assert.equal(values.get("db_pool_max_connections{}"), 10);
          assert.ok(![...values.keys()].some((name) => name.startsWith("db_sqlite_")));
        } else {
          assert.ok(values.get('db_sqlite_file_bytes{file="database"}')! > 0);
          assert.ok(values.get('db_sqlite_file_bytes{file="wal"}')! >= 0);
          assert.ok(![...values.keys()].some((name) => name.startsWith("db_pool_")));
        }
      },
    );

    test("without METRICS_TOKEN, /metrics is the 404 of any path that does not exist", async () => {
      const plain = await startServer("custom", database.url, { ADMIN_API_KEY: key });
      try {
        // Next's page names the path it did not find, and carries a fresh CSP nonce: both are set aside.
        const comparable = async (method: string, segment: string, headers: Record<string, string> = {}) => {
          const reply = await call(plain.baseUrl, method, `/${segment}`, { headers });
          const nonce = /'nonce-([^']+)'/.exec(reply.headers.get("content-security-policy") ?? "")?.[1];
          return {
            status: reply.status,
            type: reply.headers.get("content-type"),
            names: [...reply.headers.keys()].filter((name) => name !== "date").sort(),
            body: reply.text.replaceAll(nonce ?? "<nonce>", "<nonce>").replaceAll(segment, "<path>"),
          };
        };
        for (const method of ["GET", "POST"]) {
          const unknown = await comparable(method, "no-such-page");
          assert.equal(unknown.status, 404);
          assert.match(unknown.type ?? "", /^text\/html/);
          assert.deepEqual(await comparable(method, "metrics"), unknown, method);
          assert.deepEqual(await comparable(method, "metrics", { Authorization: `Bearer ${TOKEN}` }), unknown, method);
        }
        assert.doesNotMatch(plain.logs(), new RegExp(TOKEN));
      } finally {
        await plain.stop();
      }
    });

    test("neither the token nor a wrong one is ever logged", () => {
      const logs = server.logs();
      assert.match(logs, /metrics request refused/, "the refusals were logged");
      assert.doesNotMatch(logs, new RegExp(TOKEN));
      assert.doesNotMatch(logs, new RegExp(WRONG_TOKEN));
    });
  });
}

describe("METRICS_TOKEN", () => {
  test("a token of 16 or more bearer-token characters is taken; empty means unset", () => {
    assert.equal(readConfig({ METRICS_TOKEN: "0123456789abcdef" }).METRICS_TOKEN, "0123456789abcdef");
    assert.equal(readConfig({ METRICS_TOKEN: "a-Z_0.9~+/a-Z_0.9==" }).METRICS_TOKEN, "a-Z_0.9~+/a-Z_0.9==");
    assert.equal(readConfig({ METRICS_TOKEN: "" }).METRICS_TOKEN, undefined);
    assert.equal(readConfig({}).METRICS_TOKEN, undefined);
  });

  for (const token of [
    "short-secret",
    "0123456789abcde",
    "a token with spaces",
    "secret-secret-secret\n",
    "é".repeat(20),
  ]) {
    test(`refuses ${JSON.stringify(token)} without repeating it`, () => {
      assert.throws(
        () => readConfig({ METRICS_TOKEN: token }),
        (error: Error) =>
          error instanceof ConfigError &&
          error.message.startsWith(
            "Invalid configuration: METRICS_TOKEN must be a bearer token of at least 16 characters",
          ) &&
          !error.message.includes(token.trim()) &&
          !error.message.includes("\n"),
      );
    });
  }
});
