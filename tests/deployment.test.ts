import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import sharp from "sharp";
import {
  createTestDatabase,
  freePort,
  postgresAvailable,
  startServer,
  stopProcess,
  type RunningServer,
  type TestDatabase,
} from "@/scripts/harness/servers";
import { createKey, createStaff } from "@/scripts/harness/fixtures";

// A real deployment: nginx from Debian's packages terminating TLS with a certificate made here, in front
// of two instances of the production server on one PostgreSQL, configured exactly as the recipe in
// docs/nginx.conf (read from that file itself). The client connects from 127.0.0.2, so the address the app reports can
// only have come through nginx's X-Forwarded-For; nginx and the apps talk over 127.0.0.1.

const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((candidate) => fs.existsSync(candidate));
const HOSTNAME = "store.example";
const CLIENT_ADDRESS = "127.0.0.2";
const EMAIL = "ana@animal-store.example";
const PASSWORD = "correct horse battery staple";

/** The recipe in docs/nginx.conf, with this run's ports, certificate and addresses. */
function recipe(options: { upstreams: number[]; httpsPort: number; httpPort: number; directory: string }): string {
  const block = fs.readFileSync(path.join(import.meta.dirname, "..", "docs", "nginx.conf"), "utf8");
  assert.ok(block.includes("upstream animal_store {"), "docs/nginx.conf gives the nginx configuration");
  const site = block
    .replace("server 127.0.0.1:3001;", `server 127.0.0.1:${options.upstreams[0]};`)
    .replace("server 127.0.0.1:3002;", `server 127.0.0.1:${options.upstreams[1]};`)
    .replace("listen 80;", `listen 127.0.0.1:${options.httpPort};`)
    .replace("listen 443 ssl;", `listen 127.0.0.1:${options.httpsPort} ssl;`)
    .replace("/etc/ssl/store.example/fullchain.pem", path.join(options.directory, "cert.pem"))
    .replace("/etc/ssl/store.example/privkey.pem", path.join(options.directory, "key.pem"));
  assert.equal((site.match(new RegExp(`127\\.0\\.0\\.1:(${options.upstreams.join("|")});`, "g")) ?? []).length, 2);
  const temporary = (name: string) => `${name}_temp_path ${path.join(options.directory, name)};`;
  return [
    "daemon off;",
    "master_process off;", // one process, stopped by its pid
    `pid ${path.join(options.directory, "nginx.pid")};`,
    `error_log ${path.join(options.directory, "error.log")} warn;`,
    "events { worker_connections 256; }",
    "http {",
    "  access_log off;",
    ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map(temporary),
    site,
    "}",
  ].join("\n");
}

type Reply = { status: number; headers: Record<string, string | string[] | undefined>; text: string };

/** An HTTPS request to nginx from 127.0.0.2, trusting only the test's own certificate. */
function request(
  port: number,
  ca: string,
  method: string,
  target: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<Reply> {
  // A string or bytes are sent as they are (a CSV file, a photo); anything else as JSON.
  const raw = options.body === undefined || typeof options.body === "string" || Buffer.isBuffer(options.body);
  const body = raw ? (options.body as string | Buffer | undefined) : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const outgoing = https.request(
      {
        host: "127.0.0.1",
        port,
        method,
        path: target,
        servername: HOSTNAME,
        ca,
        localAddress: CLIENT_ADDRESS,
        agent: false,
        // Generous: the burst's sign-ins reach the app's scrypt at once, which on a loaded 2-core machine took
        // over 10 s (CI, 2026-11-28); what is asserted is the answers, not how fast they come.
        timeout: 30_000,
        headers: {
          Host: `${HOSTNAME}:${port}`,
          ...(raw ? {} : { "Content-Type": "application/json" }),
          ...options.headers,
        },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, text }));
      },
    );
    outgoing.on("timeout", () => outgoing.destroy(new Error(`${method} ${target} timed out`)));
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

const available = NGINX !== undefined && (await postgresAvailable());
if (!available && process.env.CI)
  throw new Error("nginx and PostgreSQL are required in CI (apt-get install nginx-light)");
if (!available) console.warn("\n*** nginx (or PostgreSQL) is missing: the deployment test is SKIPPED. ***\n");

describe("behind nginx with TLS: two instances on one PostgreSQL", { skip: !available }, () => {
  let directory: string;
  let database: TestDatabase;
  let instances: RunningServer[] = [];
  let nginx: ChildProcess | undefined;
  let nginxLog = "";
  let port: number;
  let plainPort: number;
  let ca: string;
  let origin: string;
  let key: string;
  let token: string;
  const send = (method: string, target: string, options: { headers?: Record<string, string>; body?: unknown } = {}) =>
    request(port, ca, method, target, options);

  before(async () => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), "animal-store-nginx-"));
    execFileSync(
      "openssl",
      [
        ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1"],
        ...["-subj", `/CN=${HOSTNAME}`, "-addext", `subjectAltName=DNS:${HOSTNAME}`],
        ...["-keyout", path.join(directory, "key.pem"), "-out", path.join(directory, "cert.pem")],
      ],
      { stdio: "ignore" },
    );
    ca = fs.readFileSync(path.join(directory, "cert.pem"), "utf8");

    [port, plainPort] = [await freePort(), await freePort()];
    origin = `https://${HOSTNAME}:${port}`;
    database = await createTestDatabase("postgresql");
    const settings = { PUBLIC_ORIGIN: origin, TRUSTED_PROXIES: "127.0.0.1", DEMO_SEED: "on" };
    instances = [await startServer("custom", database.url, settings)];
    instances.push(await startServer("custom", database.url, settings));
    await createStaff(database.url, EMAIL, PASSWORD);
    key = await createKey(database.url, "deployment test");

    const upstreams = instances.map((instance) => Number(new URL(instance.baseUrl).port));
    const configuration = path.join(directory, "nginx.conf");
    fs.writeFileSync(configuration, recipe({ upstreams, httpsPort: port, httpPort: plainPort, directory }));
    nginx = spawn(NGINX!, ["-p", directory, "-c", configuration, "-e", path.join(directory, "error.log")], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    nginx.stdout!.on("data", (chunk) => (nginxLog += chunk));
    nginx.stderr!.on("data", (chunk) => (nginxLog += chunk));
    for (let attempt = 0; ; attempt++) {
      const answered = await send("GET", "/healthz").catch(() => undefined);
      if (answered?.status === 200) break;
      if (attempt === 100 || nginx.exitCode !== null) throw new Error(`nginx did not start:\n${nginxLog}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  after(async () => {
    if (nginx) await stopProcess(nginx);
    for (const instance of instances) await instance.stop();
    await database?.drop();
    if (directory) fs.rmSync(directory, { recursive: true, force: true });
  });

  test("plain HTTP is sent to HTTPS", async () => {
    const reply = await new Promise<{ status: number; location?: string }>((resolve, reject) =>
      http
        .get(
          { host: "127.0.0.1", port: plainPort, path: "/admin", headers: { Host: HOSTNAME }, agent: false },
          (response) => {
            response.resume();
            resolve({ status: response.statusCode!, location: response.headers.location });
          },
        )
        .on("error", reject),
    );
    assert.deepEqual(reply, { status: 301, location: `https://${HOSTNAME}/admin` });
  });

  test("sign-in from the public origin: a Secure __Host- cookie, and HSTS", async () => {
    const reply = await send("POST", "/admin/api/session", {
      headers: { Origin: origin },
      body: { email: EMAIL, password: PASSWORD },
    });
    assert.equal(reply.status, 200, reply.text);
    const cookie = String(reply.headers["set-cookie"]);
    const match =
      /^__Host-animal_store_session=([A-Za-z0-9_-]{43}); Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200; Secure$/.exec(
        cookie,
      );
    assert.ok(match, cookie);
    token = match[1];
    assert.match(String(reply.headers["strict-transport-security"]), /^max-age=31536000/);

    const forged = await send("POST", "/admin/api/session", {
      headers: { Origin: `https://127.0.0.1:${port}` },
      body: { email: EMAIL, password: PASSWORD },
    });
    assert.equal(forged.status, 403, forged.text);
  });

  test("an admin write through one instance is read through both, with the session shared", async () => {
    const created = await send("POST", "/admin/api/pets", {
      headers: { Origin: origin, Cookie: `__Host-animal_store_session=${token}` },
      body: { name: "Proxied Biscuit", categoryId: 1, status: "available" },
    });
    assert.equal(created.status, 201, created.text);
    const id = /"id":(\d+)/.exec(created.text)?.[1];
    assert.ok(id);
    for (let round = 0; round < 4; round++) {
      const read = await send("GET", `/admin/api/pets/${id}`, {
        headers: { Cookie: `__Host-animal_store_session=${token}` },
      });
      assert.equal(read.status, 200, read.text);
      assert.match(read.text, /"name":"Proxied Biscuit"/);
    }
  });

  test("a 2 MiB CSV import reaches the app through nginx; 100 KiB to any other path is refused by nginx", async () => {
    const file = `name,categoryId,notes\r\n${`Imported via nginx,1,${"n".repeat(2_000)}\r\n`.repeat(1_100)}`;
    assert.ok(file.length > 2 * 1024 * 1024, "past nginx's own default of 1 MiB");
    const checked = await send("POST", "/admin/api/pets/imports", {
      headers: { Origin: origin, Cookie: `__Host-animal_store_session=${token}`, "Content-Type": "text/csv" },
      body: file,
    });
    assert.equal(checked.status, 200, checked.text.slice(0, 500));
    assert.match(checked.text, /"valid":1100/);
    const large = JSON.stringify({ name: "x".repeat(100 * 1024), categoryId: 1 });
    for (const target of ["/admin/api/pets", "/v1/pets"]) {
      const refused = await send("POST", target, {
        headers: { Origin: origin, "Content-Type": "application/json" },
        body: large,
      });
      assert.equal(refused.status, 413, `${target}: ${refused.text}`);
      assert.match(refused.text, /<center>nginx[^<]*<\/center>/, `${target} refused by nginx, not the app`);
    }
  });

  test("a 2 MiB photo reaches the app through nginx, to /v1 and to the admin app", async () => {
    const photo = await sharp(randomBytes(900 * 800 * 3), { raw: { width: 900, height: 800, channels: 3 } })
      .png()
      .toBuffer();
    assert.ok(photo.length > 2 * 1024 * 1024, "past nginx's own default of 1 MiB");
    const created = await send("POST", "/v1/pets", {
      headers: { Authorization: `Bearer ${key}` },
      body: { name: "Photographed via nginx", categoryId: 2 },
    });
    const id = /"id":(\d+)/.exec(created.text)![1];
    const viaV1 = await send("POST", `/v1/pets/${id}/photos`, {
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "image/png" },
      body: photo,
    });
    assert.equal(viaV1.status, 201, viaV1.text);
    const viaAdmin = await send("POST", `/admin/api/pets/${id}/photos`, {
      headers: { Origin: origin, Cookie: `__Host-animal_store_session=${token}`, "Content-Type": "image/png" },
      body: photo,
    });
    assert.equal(viaAdmin.status, 201, viaAdmin.text);
  });

  test("/v1 calls through the proxy: create, list, the relative Link, HSTS", async () => {
    const auth = { Authorization: `Bearer ${key}` };
    const created = await send("POST", "/v1/pets", { headers: auth, body: { name: "Via nginx", categoryId: 2 } });
    assert.equal(created.status, 201, created.text);
    assert.match(String(created.headers.location), /^\/v1\/pets\/\d+$/);
    const listed = await send("GET", "/v1/pets?limit=1", { headers: auth });
    assert.equal(listed.status, 200, listed.text);
    assert.match(String(listed.headers.link), /^<\/v1\/pets\?limit=1&cursor=[^>]+>; rel="next"$/);
    assert.match(String(listed.headers["strict-transport-security"]), /^max-age=/);
  });

  test("both instances see the client's own address through X-Forwarded-For, never the client's claim", async () => {
    for (let round = 0; round < 6; round++) {
      const refused = await send("GET", "/v1/pets", { headers: { "X-Forwarded-For": "203.0.113.66" } });
      assert.equal(refused.status, 401);
    }
    for (const instance of instances) {
      const clients = instance
        .logs()
        .split("\n")
        .filter((line) => line.includes('"code":"unauthorized"'))
        .map((line) => (JSON.parse(line) as { client?: string }).client);
      assert.ok(clients.length > 0, "nginx balanced the calls over both instances");
      assert.deepEqual([...new Set(clients)], [CLIENT_ADDRESS]);
    }
  });

  // Last: it uses up this client's sign-in allowance at the proxy.
  test("a burst of sign-ins is cut down by nginx to its allowance, the rest refused with the Error body", async () => {
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        send("POST", "/admin/api/session", {
          headers: { Origin: origin },
          body: { email: `burst${index}@animal-store.example`, password: "not anyone's password" },
        }),
      ),
    );
    const byProxy = replies.filter((reply) => reply.text.includes("Too many sign-ins from your network at once"));
    // Through: burst=10 and the one the rate allows now, less what is left of the two sign-ins above (one a second).
    assert.ok(byProxy.length >= 30 - 11 && byProxy.length <= 30 - 9, `${byProxy.length} refused by nginx`);
    for (const reply of byProxy) {
      assert.equal(reply.status, 429);
      assert.equal(reply.headers["retry-after"], "1");
      assert.match(String(reply.headers["content-type"]), /^application\/json/);
      assert.deepEqual(JSON.parse(reply.text), {
        code: "sign_in_throttled",
        message: "Too many sign-ins from your network at once. Wait a second and try again.",
        status: 429,
      });
    }
    // What nginx let through reached the app, whose own limits answered: a wrong password, or its own 429.
    for (const reply of replies.filter((reply) => !byProxy.includes(reply)))
      assert.ok([401, 429].includes(reply.status), `${reply.status} ${reply.text}`);
  });
});
