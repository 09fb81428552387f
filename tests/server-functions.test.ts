import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { assertError, call } from "@/scripts/harness/http";
import { createTestDatabase, startServer, type RunningServer, type TestDatabase } from "@/scripts/harness/servers";

// The app defines no React Server Functions (Server Actions), so proxy.ts refuses every request for one before
// Next decodes any of it: a `Next-Action` header anywhere, or a form posted to a page. Through both entries that
// serve pages (server.ts and plain `next start`). docs/decisions/003-no-server-functions.md says why.

const ACTION_ID = "7f0123456789abcdef0123456789abcdef012345";

for (const entry of ["custom", "next"] as const) {
  describe(`Server Function requests through ${entry === "custom" ? "server.ts" : "next start"}`, () => {
    let database: TestDatabase;
    let server: RunningServer;

    before(async () => {
      database = await createTestDatabase("sqlite");
      server = await startServer(entry, database.url);
    });
    after(async () => {
      await server?.stop();
      await database?.drop();
    });

    const refusals: [string, string, string, Record<string, string>, string | undefined][] = [
      ["an action id posted to the home page", "POST", "/", { "Next-Action": ACTION_ID }, "[]"],
      [
        "an action id sent as a prefetch",
        "POST",
        "/sign-in",
        { "Next-Action": ACTION_ID, "Next-Router-Prefetch": "1" },
        "[]",
      ],
      ["an action id on a GET", "GET", "/admin", { "Next-Action": ACTION_ID }, undefined],
      [
        "a form posted to a page (progressive enhancement's $ACTION_ID)",
        "POST",
        "/sign-in",
        { "Content-Type": "multipart/form-data; boundary=x" },
        `--x\r\nContent-Disposition: form-data; name="$ACTION_ID_${ACTION_ID}"\r\n\r\n\r\n--x--\r\n`,
      ],
      // Paths that only begin with one the proxy leaves out (the import's endpoints, /healthz, the favicon) are
      // pages (Next's 404), and guarded like any other.
      ...["/admin/api/pets/imports/x/y", "/healthzx", "/favicon.icox"].map(
        (path): [string, string, string, Record<string, string>, string] => [
          `an action id posted to ${path}`,
          "POST",
          path,
          { "Next-Action": ACTION_ID },
          "[]",
        ],
      ),
      [
        "a URL-encoded form posted to a page",
        "POST",
        "/admin/keys",
        { "Content-Type": "Application/X-WWW-Form-URLEncoded; charset=utf-8" },
        "a=1",
      ],
    ];
    for (const [what, method, path, headers, body] of refusals) {
      test(`${what}: 405 with the Error body, never reaching Next's action handler`, async () => {
        const reply = await call(server.baseUrl, method, path, { headers, body });
        assertError(reply, 405, "method_not_allowed");
        assert.match(reply.body?.message, /no Server Functions/);
        assert.equal(reply.headers.get("allow"), "GET, HEAD");
        assert.equal(reply.headers.get("x-nextjs-action-not-found"), null);
      });
    }

    test("a form posted to a path under /admin/api that no endpoint has: the JSON 404, never a page", async () => {
      // The proxy lets forms through to /admin/api (only route handlers live there); the admin app's page catch-all
      // (its 404 page) must not take these paths, or Next would decode the form as a Server Function call.
      for (const path of ["/admin/api/no-such-endpoint", "/admin/api/pets/1/no-such-thing"]) {
        const reply = await call(server.baseUrl, "POST", path, {
          headers: { "Content-Type": "multipart/form-data; boundary=x" },
          body: `--x\r\nContent-Disposition: form-data; name="$ACTION_ID_${ACTION_ID}"\r\n\r\n\r\n--x--\r\n`,
        });
        assertError(reply, 404, "not_found");
        assert.equal(reply.headers.get("x-nextjs-action-not-found"), null);
        assertError(await call(server.baseUrl, "GET", path), 404, "not_found");
      }
    });

    test("pages, prefetches and the admin app's endpoints still answer", async () => {
      assert.equal((await call(server.baseUrl, "GET", "/sign-in")).status, 200);
      const prefetch = await call(server.baseUrl, "GET", "/sign-in", {
        headers: { RSC: "1", "Next-Router-Prefetch": "1" },
      });
      // Next answers an RSC request without its cache-busting `_rsc` parameter with a redirect to one: not refused.
      assert.ok([200, 307].includes(prefetch.status), `${prefetch.status}: ${prefetch.text}`);
      const signIn = await call(server.baseUrl, "POST", "/admin/api/session", {
        body: { email: "nobody@animal-store.example", password: "wrong password here" },
        headers: { Origin: server.baseUrl },
      });
      assert.equal(signIn.status, 401, signIn.text);
    });
  });
}
