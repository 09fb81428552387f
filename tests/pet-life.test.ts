import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { assertError, call, type Reply } from "@/scripts/harness/http";
import {
  createMigratedDatabase,
  testProviders,
  startServer,
  onlyThrough,
  type Entry,
  type RunningServer,
  type TestDatabase,
} from "@/scripts/harness/servers";
import { createKey, createStaff } from "@/scripts/harness/fixtures";

// A pet's whole life over HTTP (issue 9): updatePet (JSON Merge Patch), deletePet, ETags with If-Match and
// If-None-Match, search with q, getPet alone deprecated on its path, CORS for the new methods, and the admin
// app's endpoints for one pet. Against the production build, on SQLite and PostgreSQL, through both entries.

const INT64_MAX = "9223372036854775807";
const STAFF = { email: "pet-life@animal-store.example", password: "a staff member's password" };
const CORS_ORIGIN = "https://shop.example";
const MERGE_PATCH = { "Content-Type": "application/merge-patch+json" };

function assertNotDeprecated(reply: Reply) {
  for (const header of ["deprecation", "sunset"]) assert.equal(reply.headers.get(header), null, header);
  assert.doesNotMatch(reply.headers.get("link") ?? "", /successor-version/);
}

function nextPath(reply: Reply): string | undefined {
  const link = reply.headers.get("link");
  return link ? /^<([^>]+)>; rel="next"$/.exec(link)![1] : undefined;
}

const providers = await testProviders();
const entries: Entry[] = ["custom", "next"];

for (const provider of providers) {
  for (const entry of entries) {
    describe(`a pet's life on ${provider} through ${entry === "custom" ? "server.ts" : "next start"}`, () => {
      // The whole life through server.ts, what npm start runs; through `next start`, the framework's own entry to the
      // same route modules, updatePet, deletePet and the path's methods (the admin app's endpoints are Next's in both).
      const wholeOnly = onlyThrough(entry, "custom");
      let database: TestDatabase;
      let server: RunningServer;
      let key: string;
      const api = (method: string, path: string, options: Parameters<typeof call>[3] = {}) =>
        call(server.baseUrl, method, path, { key, ...options });
      const patch = (id: bigint | string, body: unknown, headers: Record<string, string> = {}) =>
        api("PATCH", `/v1/pets/${id}`, { body, headers: { ...MERGE_PATCH, ...headers } });
      const create = async (pet: Record<string, unknown>) => {
        const reply = await api("POST", "/v1/pets", { body: pet });
        assert.equal(reply.status, 201, reply.text);
        return reply;
      };
      /** Every pet the list returns for this query, following Link rel=next. */
      const walk = async (path: string) => {
        const pets: { id: bigint; name: string; status?: string }[] = [];
        for (let next: string | undefined = path; next;) {
          const reply = await api("GET", next);
          assert.equal(reply.status, 200, reply.text);
          pets.push(...reply.body);
          next = nextPath(reply);
        }
        return pets;
      };

      before(async () => {
        database = await createMigratedDatabase(provider);
        key = await createKey(database.url);
        await createStaff(database.url, STAFF.email, STAFF.password);
        server = await startServer(entry, database.url, { ADMIN_API_KEY: key, CORS_ORIGINS: CORS_ORIGIN });
      });

      after(async () => {
        await server?.stop();
        await database?.drop();
      });

      describe("updatePet", () => {
        test("sets the members sent and answers 200 with the whole pet and a new ETag", async () => {
          const created = await create({ name: "Biscuit", categoryId: 1, status: "available" });
          const id = created.body.id as bigint;
          const reply = await patch(id, { status: "sold" });
          assert.equal(reply.status, 200, reply.text);
          assert.deepEqual(reply.body, { id, name: "Biscuit", categoryId: 1n, status: "sold" });
          assert.match(reply.headers.get("etag") ?? "", /^"[^"]+"$/);
          assert.notEqual(reply.headers.get("etag"), created.headers.get("etag"));
          assertNotDeprecated(reply);
          const renamed = await patch(id, `{"name":"Biscuit Jr","categoryId":${INT64_MAX}}`);
          assert.equal(renamed.status, 200, renamed.text);
          assert.equal(renamed.text, `{"id":${id},"name":"Biscuit Jr","categoryId":${INT64_MAX},"status":"sold"}`);
          assert.equal((await api("GET", `/v1/pets/${id}`)).text, renamed.text);
        });

        test('"status": null removes the status; plain application/json is accepted too', async () => {
          const { body } = await create({ name: "Statusless", categoryId: 2, status: "pending" });
          const reply = await api("PATCH", `/v1/pets/${body.id}`, { body: { status: null } });
          assert.equal(reply.status, 200, reply.text);
          assert.equal(reply.text, `{"id":${body.id},"name":"Statusless","categoryId":2}`);
        });

        test("an empty patch changes nothing, answers 200 with the pet, and keeps the ETag", async () => {
          const created = await create({ name: "Unchanged", categoryId: 3 });
          const reply = await patch(created.body.id, {});
          assert.equal(reply.status, 200, reply.text);
          assert.equal(reply.text, created.text);
          assert.equal(reply.headers.get("etag"), created.headers.get("etag"));
        });

        test("any status may follow any other", async () => {
          const { body } = await create({ name: "Roundabout", categoryId: 4, status: "sold" });
          for (const status of ["available", "sold", "pending", "available", "pending", "sold"]) {
            const reply = await patch(body.id, { status });
            assert.equal(reply.status, 200, reply.text);
            assert.equal(reply.body.status, status);
          }
        });

        const badPatches: [string, string, string, string][] = [
          // name, raw body, expected code, path named in errors ("" = the whole body)
          ["a null name", '{"name":null}', "invalid_body", "name"],
          ["a null categoryId", '{"categoryId":null}', "invalid_body", "categoryId"],
          ["an id", '{"id":7}', "invalid_body", "id"],
          ["an unknown member", '{"colour":"brown"}', "invalid_body", "colour"],
          ["a misspelt member", '{"Status":"sold"}', "invalid_body", "Status"],
          ["an empty name", '{"name":""}', "invalid_body", "name"],
          ["a blank name", '{"name":"  "}', "invalid_body", "name"],
          ["a 201-character name", JSON.stringify({ name: "x".repeat(201) }), "invalid_body", "name"],
          ["a numeric name", '{"name":42}', "invalid_body", "name"],
          ["a name with a NUL", '{"name":"a\\u0000b"}', "invalid_body", "name"],
          ["a name with a lone surrogate", '{"name":"\\ud800"}', "invalid_body", "name"],
          ["categoryId past int64", '{"categoryId":9223372036854775808}', "invalid_body", "categoryId"],
          ["a fractional categoryId", '{"categoryId":1.5}', "invalid_body", "categoryId"],
          ["a string categoryId", '{"categoryId":"3"}', "invalid_body", "categoryId"],
          ["an unknown status", '{"status":"lost"}', "invalid_body", "status"],
          ["an upper-case status", '{"status":"SOLD"}', "invalid_body", "status"],
          ["an array", "[]", "invalid_body", ""],
          ["a JSON Patch document", '[{"op":"replace","path":"/status","value":"sold"}]', "invalid_body", ""],
          ["null", "null", "invalid_body", ""],
          ["a string", '"sold"', "invalid_body", ""],
          ["malformed JSON", '{"status":', "invalid_json", ""],
          ["duplicate members that differ", '{"status":"sold","status":"pending"}', "invalid_json", ""],
          ["an empty body", "", "invalid_json", ""],
        ];
        for (const [name, body, code, path] of badPatches) {
          test(`${name} is a 400 ${code}, and changes nothing`, async () => {
            const created = await create({ name: "Target", categoryId: 5, status: "available" });
            assertError(await patch(created.body.id, body), 400, code, path);
            assert.equal((await api("GET", `/v1/pets/${created.body.id}`)).text, created.text);
          });
        }

        test("the createPet messages are the messages of updatePet", async () => {
          const { body } = await create({ name: "Messages", categoryId: 1 });
          const pairs: [string, string][] = [
            // createPet body, updatePet body: the same bad member
            ['{"name":"","categoryId":1}', '{"name":""}'],
            ['{"name":"x","categoryId":1.5}', '{"categoryId":1.5}'],
            ['{"name":"x","categoryId":1,"status":"lost"}', '{"status":"lost"}'],
            ['{"id":1,"name":"x","categoryId":1}', '{"id":1}'],
          ];
          for (const [createBody, patchBody] of pairs) {
            const created = await api("POST", "/v1/pets", { body: createBody });
            const patched = await patch(body.id, patchBody);
            assert.equal(created.status, 400, created.text);
            assert.deepEqual(patched.body.errors, created.body.errors, patchBody);
          }
        });

        test("a body that is not merge-patch or plain JSON is a 415 with Accept-Patch", async () => {
          const { body } = await create({ name: "Typed", categoryId: 1 });
          for (const type of ["application/json-patch+json", "text/plain", "application/vnd.api+json"]) {
            const reply = await api("PATCH", `/v1/pets/${body.id}`, {
              body: '{"status":"sold"}',
              headers: { "Content-Type": type },
            });
            assertError(reply, 415, "unsupported_media_type");
            assert.equal(reply.headers.get("accept-patch"), "application/merge-patch+json, application/json");
          }
        });

        test("a body over 16 KiB is a 413", async () => {
          const { body } = await create({ name: "Big", categoryId: 1 });
          assertError(await patch(body.id, { name: "x".repeat(17 * 1024) }), 413, "payload_too_large");
        });

        test("an unknown id is a 404; a bad id a 400; no key a 401 before anything else", async () => {
          assertError(await patch(INT64_MAX, { status: "sold" }), 404, "not_found");
          assertError(await patch("0", { status: "sold" }), 400, "invalid_path", "petId");
          assertError(await patch("abc", "{not json"), 400, "invalid_path", "petId");
          const anonymous = await call(server.baseUrl, "PATCH", "/v1/pets/abc", { body: "{", headers: MERGE_PATCH });
          assertError(anonymous, 401, "unauthorized");
          assertNotDeprecated(anonymous);
        });

        test("the request id rules hold", async () => {
          const { body } = await create({ name: "Traced", categoryId: 1 });
          const reply = await patch(body.id, { status: "sold" }, { "X-Request-Id": "patch-trace-1" });
          assert.equal(reply.headers.get("x-request-id"), "patch-trace-1");
        });
      });

      describe("deletePet", () => {
        test("answers 204 without a body; then get, patch and delete are 404s and no list has it", async () => {
          const { body } = await create({ name: "Ephemeral Zebrafinch", categoryId: 3, status: "sold" });
          const reply = await api("DELETE", `/v1/pets/${body.id}`);
          assert.equal(reply.status, 204);
          assert.equal(reply.text, "");
          assertNotDeprecated(reply);
          assertError(await api("GET", `/v1/pets/${body.id}`), 404, "not_found");
          assertError(await patch(body.id, { status: "sold" }), 404, "not_found");
          assertError(await api("DELETE", `/v1/pets/${body.id}`), 404, "not_found");
          for (const query of ["limit=100", "status=sold&limit=100", "q=zebrafinch", "q=Ephemeral&status=sold"]) {
            const ids = (await walk(`/v1/pets?${query}`)).map((pet) => pet.id);
            assert.ok(!ids.includes(body.id), `${query} still lists ${body.id}`);
          }
        });

        test("a deleted pet's id is never given to another pet, even the highest", async () => {
          const { body } = await create({ name: "Last", categoryId: 1 });
          assert.equal((await api("DELETE", `/v1/pets/${body.id}`)).status, 204);
          const next = await create({ name: "After", categoryId: 1 });
          assert.ok(next.body.id > body.id, `${next.body.id} > ${body.id}`);
        });

        test("an unknown id is a 404 and a bad id a 400", async () => {
          assertError(await api("DELETE", `/v1/pets/${INT64_MAX}`), 404, "not_found");
          assertError(await api("DELETE", "/v1/pets/-1"), 400, "invalid_path", "petId");
          assertError(await call(server.baseUrl, "DELETE", "/v1/pets/1"), 401, "unauthorized");
        });
      });

      wholeOnly("ETags and conditional requests", () => {
        test("create, get and update carry the same strong ETag while the pet is unchanged", async () => {
          const created = await create({ name: "Tagged", categoryId: 1 });
          const etag = created.headers.get("etag")!;
          assert.match(etag, /^"[\x21\x23-\x7e]+"$/, "strong: no W/ prefix");
          assert.equal((await api("GET", `/v1/pets/${created.body.id}`)).headers.get("etag"), etag);
          assert.equal((await api("HEAD", `/v1/pets/${created.body.id}`)).headers.get("etag"), etag);
          const other = await create({ name: "Tagged", categoryId: 1 });
          assert.notEqual(other.headers.get("etag"), etag, "another pet has another tag");
        });

        test("a patch with the current ETag applies; the old one then gets 412 and changes nothing", async () => {
          const created = await create({ name: "Contested", categoryId: 1, status: "available" });
          const first = await patch(created.body.id, { status: "sold" }, { "If-Match": created.headers.get("etag")! });
          assert.equal(first.status, 200, first.text);
          const stale = await patch(
            created.body.id,
            { status: "pending" },
            { "If-Match": created.headers.get("etag")! },
          );
          assertError(stale, 412, "precondition_failed");
          const now = await api("GET", `/v1/pets/${created.body.id}`);
          assert.equal(now.body.status, "sold");
          assert.equal(now.headers.get("etag"), first.headers.get("etag"));
          const again = await patch(created.body.id, { status: "pending" }, { "If-Match": now.headers.get("etag")! });
          assert.equal(again.status, 200, again.text);
        });

        const matching: [string, (etag: string) => string, number][] = [
          ["*", () => "*", 200],
          ["a list holding the current tag", (etag) => `"nope", ${etag}`, 200],
          ["the current tag marked weak", (etag) => `W/${etag}`, 412],
          ["another pet's tag", () => '"1.1"', 412],
          ["an unknown tag", () => '"whatever"', 412],
        ];
        for (const [name, header, status] of matching) {
          test(`If-Match with ${name}: ${status} on patch, ${status === 200 ? 204 : 412} on delete`, async () => {
            const created = await create({ name: "Conditional", categoryId: 1 });
            const id = created.body.id as bigint;
            const ifMatch = header(created.headers.get("etag")!);
            const patched = await patch(id, { categoryId: 2 }, { "If-Match": ifMatch });
            if (status === 200) assert.equal(patched.status, 200, patched.text);
            else assertError(patched, 412, "precondition_failed");
            const etag = (await api("GET", `/v1/pets/${id}`)).headers.get("etag")!;
            const deleted = await api("DELETE", `/v1/pets/${id}`, { headers: { "If-Match": header(etag) } });
            if (status === 200) assert.equal(deleted.status, 204, deleted.text);
            else assertError(deleted, 412, "precondition_failed");
            assert.equal((await api("GET", `/v1/pets/${id}`)).status, status === 200 ? 404 : 200);
          });
        }

        test("If-Match on a pet that does not exist is a 404, even *", async () => {
          for (const ifMatch of ["*", '"1.1"']) {
            assertError(await patch(INT64_MAX, { status: "sold" }, { "If-Match": ifMatch }), 404, "not_found");
            assertError(
              await api("DELETE", `/v1/pets/${INT64_MAX}`, { headers: { "If-Match": ifMatch } }),
              404,
              "not_found",
            );
          }
        });

        for (const malformed of ["bare-token", '"unterminated', '"a" "b"', ",", 'W/ "x"']) {
          test(`a malformed If-Match (${malformed}) is a 400 naming it, and changes nothing`, async () => {
            const created = await create({ name: "Guarded", categoryId: 1 });
            assertError(
              await patch(created.body.id, { status: "sold" }, { "If-Match": malformed }),
              400,
              "invalid_header",
              "If-Match",
            );
            assertError(
              await api("DELETE", `/v1/pets/${created.body.id}`, { headers: { "If-Match": malformed } }),
              400,
              "invalid_header",
              "If-Match",
            );
            assert.equal((await api("GET", `/v1/pets/${created.body.id}`)).text, created.text);
          });
        }

        test("getPet answers 304 to a current If-None-Match (compared weakly), 200 once it changed", async () => {
          const created = await create({ name: "Cached", categoryId: 1 });
          const etag = created.headers.get("etag")!;
          for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
            const reply = await api("GET", `/v1/pets/${created.body.id}`, {
              headers: { "If-None-Match": ifNoneMatch },
            });
            assert.equal(reply.status, 304, ifNoneMatch);
            assert.equal(reply.text, "");
            assert.equal(reply.headers.get("etag"), etag);
            assert.equal(reply.headers.get("sunset"), "Thu, 05 Dec 2030 00:00:00 GMT", "still deprecated");
          }
          await patch(created.body.id, { name: "Cached again" });
          const changed = await api("GET", `/v1/pets/${created.body.id}`, { headers: { "If-None-Match": etag } });
          assert.equal(changed.status, 200);
          assert.equal(changed.body.name, "Cached again");
          assert.notEqual(changed.headers.get("etag"), etag);
        });

        test("If-None-Match on a change: * or the current tag is a 412 with nothing changed, others pass", async () => {
          const created = await create({ name: "Only if new", categoryId: 1, status: "available" });
          const id = created.body.id as bigint;
          const etag = created.headers.get("etag")!;
          for (const ifNoneMatch of ["*", etag, `W/${etag}`, `"other", ${etag}`]) {
            assertError(
              await patch(id, { status: "sold" }, { "If-None-Match": ifNoneMatch }),
              412,
              "precondition_failed",
            );
            assertError(
              await api("DELETE", `/v1/pets/${id}`, { headers: { "If-None-Match": ifNoneMatch } }),
              412,
              "precondition_failed",
            );
          }
          assert.equal((await api("GET", `/v1/pets/${id}`)).text, created.text, "nothing changed");
          const changed = await patch(id, { status: "sold" }, { "If-None-Match": '"other"' });
          assert.equal(changed.status, 200, changed.text);
          assertError(await patch(INT64_MAX, { status: "sold" }, { "If-None-Match": "*" }), 404, "not_found");
          assertError(
            await patch(id, { status: "sold" }, { "If-None-Match": "bare-token" }),
            400,
            "invalid_header",
            "If-None-Match",
          );
          const deleted = await api("DELETE", `/v1/pets/${id}`, { headers: { "If-None-Match": etag } });
          assert.equal(deleted.status, 204, "the old tag no longer names it");
        });

        test("getPet: a stale If-Match is a 412; malformed conditions are ignored, as before ETags", async () => {
          const created = await create({ name: "Read conditionally", categoryId: 1 });
          const id = created.body.id as bigint;
          const etag = created.headers.get("etag")!;
          assert.equal((await api("GET", `/v1/pets/${id}`, { headers: { "If-Match": etag } })).status, 200);
          assert.equal((await api("GET", `/v1/pets/${id}`, { headers: { "If-Match": "*" } })).status, 200);
          const stale = await api("GET", `/v1/pets/${id}`, { headers: { "If-Match": '"0.1"' } });
          assertError(stale, 412, "precondition_failed");
          assert.equal(stale.headers.get("sunset"), "Thu, 05 Dec 2030 00:00:00 GMT", "still deprecated");
          for (const header of ["If-None-Match", "If-Match"]) {
            const reply = await api("GET", `/v1/pets/${id}`, { headers: { [header]: "bogus" } });
            assert.equal(reply.status, 200, `${header}: ${reply.text}`);
            assert.equal(reply.text, created.text);
            assertError(
              await api("GET", `/v1/pets/${INT64_MAX}`, { headers: { [header]: "bogus" } }),
              404,
              "not_found",
            );
          }
        });

        test("concurrent patches with the same If-Match: exactly one applies, the others get 412", async () => {
          const created = await create({ name: "Race", categoryId: 1, status: "available" });
          const etag = created.headers.get("etag")!;
          const names = Array.from({ length: 10 }, (_, index) => `Racer ${index}`);
          const replies = await Promise.all(
            names.map((name) => patch(created.body.id, { name }, { "If-Match": etag })),
          );
          const winners = replies.filter((reply) => reply.status === 200);
          assert.equal(winners.length, 1, replies.map((reply) => reply.status).join(","));
          for (const reply of replies.filter((candidate) => candidate.status !== 200))
            assertError(reply, 412, "precondition_failed");
          assert.equal((await api("GET", `/v1/pets/${created.body.id}`)).body.name, winners[0].body.name);
        });

        test("concurrent patches without If-Match all apply, one after another", async () => {
          const created = await create({ name: "Crowd", categoryId: 1 });
          const replies = await Promise.all(
            Array.from({ length: 10 }, (_, index) => patch(created.body.id, { categoryId: index + 1 })),
          );
          assert.deepEqual(
            replies.map((reply) => reply.status),
            Array(10).fill(200),
          );
          const etags = new Set(replies.map((reply) => reply.headers.get("etag")));
          assert.equal(etags.size, 10, "each change made its own version");
        });

        test("an idempotent replay of a create carries the ETag of the first answer", async () => {
          const headers = { "Idempotency-Key": `etag-${provider}-${entry}` };
          const first = await api("POST", "/v1/pets", { body: { name: "Once", categoryId: 1 }, headers });
          const replay = await api("POST", "/v1/pets", { body: { name: "Once", categoryId: 1 }, headers });
          assert.equal(replay.headers.get("idempotent-replayed"), "true");
          assert.equal(replay.headers.get("etag"), first.headers.get("etag"));
        });
      });

      wholeOnly("search (q on listPets)", () => {
        const tag = `${provider}${entry}`.replace(/[^a-z]/g, "");
        before(async () => {
          for (let index = 0; index < 12; index++) {
            await create({
              name: `${index % 2 ? "Sir" : "Lady"} Marmalade-${tag} ${index}`,
              categoryId: 6,
              status: index % 3 === 0 ? "sold" : "available",
            });
          }
          await create({ name: `100% Cotton_${tag}`, categoryId: 6 });
          await create({ name: `100 Xotton${tag}`, categoryId: 6 });
          await create({ name: `ÉCLAIR-${tag}`, categoryId: 6 });
        });

        test("finds names containing the text, ignoring case", async () => {
          for (const q of [`marmalade-${tag}`, `MARMALADE-${tag.toUpperCase()}`, `lAdE-${tag}`]) {
            const found = await walk(`/v1/pets?q=${encodeURIComponent(q)}`);
            assert.equal(found.length, 12, q);
            for (const pet of found) assert.match(pet.name, new RegExp(`marmalade-${tag}`, "i"));
          }
          assert.equal((await walk(`/v1/pets?q=${encodeURIComponent(`Sir Marmalade-${tag}`)}`)).length, 6);
          // Unicode case folding for indexed fragments (PostgreSQL in a UTF-8 locale; SQLite's FTS5 trigram table)
          assert.equal((await walk(`/v1/pets?q=${encodeURIComponent(`éclair-${tag}`)}`)).length, 1);
          // and for fragments too short for an index: each of these is in ÉCLAIR-…'s name, case aside
          for (const fragment of ["é", "éc", "Éc"]) {
            const found = await walk(`/v1/pets?q=${encodeURIComponent(fragment)}`);
            assert.ok(
              found.some((pet) => pet.name === `ÉCLAIR-${tag}`),
              `${fragment} finds ÉCLAIR-${tag}`,
            );
            assert.ok(
              found.every((pet) => pet.name.toLowerCase().includes(fragment.toLowerCase())),
              fragment,
            );
          }
          assert.deepEqual(await walk(`/v1/pets?q=${encodeURIComponent(`no such pet ${tag}`)}`), []);
        });

        test("pages with limit and cursor, and the Link keeps q and status", async () => {
          const q = `marmalade-${tag}`;
          const first = await api("GET", `/v1/pets?limit=5&q=${q}`);
          assert.equal(first.body.length, 5);
          assert.match(first.headers.get("link") ?? "", new RegExp(`[?&]q=${q}(&|>)`));
          const all = await walk(`/v1/pets?limit=5&q=${q}`);
          assert.equal(all.length, 12);
          assert.equal(new Set(all.map((pet) => pet.id)).size, 12, "no pet twice");
          assert.deepEqual(
            all.map((pet) => pet.id),
            [...all.map((pet) => pet.id)].sort((a, b) => (a < b ? -1 : 1)),
          );
          const soldFirst = await api("GET", `/v1/pets?limit=2&status=sold&q=${q}`);
          assert.match(soldFirst.headers.get("link") ?? "", /status=sold/);
          assert.match(soldFirst.headers.get("link") ?? "", new RegExp(`q=${q}`));
          const sold = await walk(`/v1/pets?limit=2&status=sold&q=${q}`);
          assert.equal(sold.length, 4);
          for (const pet of sold) assert.equal(pet.status, "sold");
        });

        test("short fragments and LIKE's wildcards are plain text", async () => {
          assert.equal((await walk(`/v1/pets?q=${encodeURIComponent(`0% Cotton_${tag}`)}`)).length, 1);
          assert.equal((await walk(`/v1/pets?q=${encodeURIComponent(`_${tag}`)}`)).length, 1);
          const percent = await walk("/v1/pets?q=%25");
          assert.ok(percent.length >= 1 && percent.every((pet) => pet.name.includes("%")), "% matches only %");
          const underscore = await walk("/v1/pets?q=_");
          assert.ok(
            underscore.every((pet) => pet.name.includes("_")),
            "_ matches only _",
          );
          const two = await walk("/v1/pets?q=sI");
          assert.ok(two.length >= 6 && two.every((pet) => /si/i.test(pet.name)));
        });

        test("pages in id order when the matching ids have different numbers of digits", async () => {
          // Matches at ids like 98, 99, 100 and 101: sorted as text ("100" < "101" < "98" < "99"), the first
          // page of two would be found among 100, 101 and 98, and its cursor (after 100) would skip 99.
          const ids: bigint[] = [];
          const add = async (index: number) =>
            ids.push((await create({ name: `Straddle§${tag} ${index}`, categoryId: 1 })).body.id as bigint);
          await add(1);
          await add(2);
          const nextPower = 10n ** BigInt(String(ids[1]).length);
          for (let id = ids[1]; id < nextPower - 1n;)
            id = (await create({ name: "Filler", categoryId: 1 })).body.id as bigint;
          await add(3);
          await add(4);
          assert.ok(String(ids[1]).length < String(ids[2]).length, `${ids.join(", ")} straddle a power of ten`);
          for (const q of [`straddle§${tag}`, "§"]) {
            const found = await walk(`/v1/pets?limit=2&q=${encodeURIComponent(q)}`);
            assert.deepEqual(
              found.map((pet) => pet.id),
              ids,
              q,
            );
          }
        });

        test("a changed name is found by its new name at once, and no longer by its old one", async () => {
          const { body } = await create({ name: `Quince-${tag}`, categoryId: 1 });
          await patch(body.id, { name: `Persimmon-${tag}` });
          assert.deepEqual(await walk(`/v1/pets?q=quince-${tag}`), []);
          assert.deepEqual(
            (await walk(`/v1/pets?q=persimmon-${tag}`)).map((pet) => pet.id),
            [body.id],
          );
        });

        const badSearches: [string, string][] = [
          ["q=", "q"],
          [`q=${"x".repeat(101)}`, "q"],
          ["q=a%00b", "q"],
          ["q=%0A", "q"],
          ["q=a&q=b", "q"],
        ];
        for (const [query, path] of badSearches) {
          test(`?${query.slice(0, 30)} is a 400 invalid_query naming ${path}`, async () => {
            assertError(await api("GET", `/v1/pets?${query}`), 400, "invalid_query", path);
          });
        }

        test("100 characters are allowed, counted as characters", async () => {
          assert.equal((await api("GET", `/v1/pets?q=${"x".repeat(100)}`)).status, 200);
          assert.equal((await api("GET", `/v1/pets?q=${encodeURIComponent("🐕".repeat(100))}`)).status, 200);
        });
      });

      describe("the path's methods", () => {
        test("getPet alone carries the deprecation; OPTIONS and 405s list the real methods", async () => {
          const { body } = await create({ name: "Methods", categoryId: 1 });
          const options = await call(server.baseUrl, "OPTIONS", `/v1/pets/${body.id}`);
          assert.equal(options.status, 204);
          assert.equal(options.headers.get("allow"), "GET, HEAD, PATCH, DELETE, OPTIONS");
          assert.equal(options.headers.get("accept-patch"), "application/merge-patch+json, application/json");
          assertNotDeprecated(options);
          const refused = await api("PUT", `/v1/pets/${body.id}`, { body: { name: "x", categoryId: 1 } });
          assertError(refused, 405, "method_not_allowed");
          assert.equal(refused.headers.get("allow"), "GET, HEAD, PATCH, DELETE, OPTIONS");
          assertNotDeprecated(refused);
          const get = await api("GET", `/v1/pets/${body.id}`);
          assert.match(get.headers.get("deprecation") ?? "", /^@\d+$/);
          assert.match(get.headers.get("link") ?? "", /<\/v1\/pets>; rel="successor-version"/);
        });

        test("CORS preflights allow PATCH, DELETE and If-Match; answers expose ETag", async () => {
          const preflight = await call(server.baseUrl, "OPTIONS", "/v1/pets/1", {
            headers: {
              Origin: CORS_ORIGIN,
              "Access-Control-Request-Method": "PATCH",
              "Access-Control-Request-Headers": "if-match, content-type, authorization",
            },
          });
          assert.equal(preflight.headers.get("access-control-allow-origin"), CORS_ORIGIN);
          assert.match(preflight.headers.get("access-control-allow-methods") ?? "", /\bPATCH\b.*\bDELETE\b/);
          assert.match(preflight.headers.get("access-control-allow-headers") ?? "", /\bIf-Match\b/);
          const { body } = await create({ name: "Cross", categoryId: 1 });
          const reply = await patch(body.id, { status: "sold" }, { Origin: CORS_ORIGIN });
          assert.match(reply.headers.get("access-control-expose-headers") ?? "", /\bETag\b/);
        });

        test("the OpenAPI document describes the new operations", async () => {
          const document = JSON.parse((await call(server.baseUrl, "GET", "/v1/openapi.json")).text);
          const path = document.paths["/pets/{petId}"];
          assert.equal(path.patch.operationId, "updatePet");
          assert.equal(path.delete.operationId, "deletePet");
          assert.equal(path.patch.deprecated, undefined);
          assert.equal(path.delete.deprecated, undefined);
          assert.equal(path.get.deprecated, true);
          assert.deepEqual(Object.keys(path.patch.requestBody.content), [
            "application/merge-patch+json",
            "application/json",
          ]);
          for (const operation of [path.patch, path.delete]) {
            assert.ok(operation.responses["412"], operation.operationId);
            assert.ok(operation.parameters.some((parameter: { name: string }) => parameter.name === "If-Match"));
          }
          assert.ok(path.get.responses["304"]);
          assert.ok(
            document.paths["/pets"].get.parameters.some((parameter: { name: string }) => parameter.name === "q"),
          );
          assert.match(document.components.schemas.PetStatus.description, /any status may follow any other/i);
          assert.deepEqual(document.components.schemas.PetPatch.additionalProperties, false);
        });
      });

      wholeOnly("the admin app's endpoints for one pet", () => {
        let cookie: string;
        const admin = (method: string, path: string, options: Parameters<typeof call>[3] = {}) =>
          call(server.baseUrl, method, path, {
            ...options,
            headers: { Cookie: cookie, Origin: server.baseUrl, ...options.headers },
          });

        before(async () => {
          const signIn = await call(server.baseUrl, "POST", "/admin/api/session", {
            headers: { Origin: server.baseUrl },
            body: STAFF,
          });
          assert.equal(signIn.status, 200, signIn.text);
          cookie = signIn.headers.get("set-cookie")!.split(";")[0];
        });

        test("read, change with If-Match, conflict, and delete, as /v1 answers them", async () => {
          const created = await create({ name: "Admin's", categoryId: 1, status: "available" });
          const id = created.body.id as bigint;
          const read = await admin("GET", `/admin/api/pets/${id}`);
          assert.equal(read.status, 200, read.text);
          assert.equal(read.text, created.text);
          assert.equal(read.headers.get("etag"), created.headers.get("etag"));
          assertNotDeprecated(read);
          const etag = read.headers.get("etag")!;
          const sold = await admin("PATCH", `/admin/api/pets/${id}`, {
            body: { status: "sold" },
            headers: { ...MERGE_PATCH, "If-Match": etag },
          });
          assert.equal(sold.status, 200, sold.text);
          assert.equal(sold.body.status, "sold");
          assert.notEqual(sold.headers.get("etag"), etag);
          const conflict = await admin("PATCH", `/admin/api/pets/${id}`, {
            body: { status: "pending" },
            headers: { ...MERGE_PATCH, "If-Match": etag },
          });
          assertError(conflict, 412, "precondition_failed");
          const invalid = await admin("PATCH", `/admin/api/pets/${id}`, { body: { name: "" }, headers: MERGE_PATCH });
          assertError(invalid, 400, "invalid_body", "name");
          assertError(
            await admin("DELETE", `/admin/api/pets/${id}`, { headers: { "If-Match": etag } }),
            412,
            "precondition_failed",
          );
          const deleted = await admin("DELETE", `/admin/api/pets/${id}`, {
            headers: { "If-Match": sold.headers.get("etag")! },
          });
          assert.equal(deleted.status, 204, deleted.text);
          assertError(await admin("GET", `/admin/api/pets/${id}`), 404, "not_found");
        });

        test("a create with an Idempotency-Key makes one pet however often it is sent", async () => {
          const headers = { "Idempotency-Key": `admin-add-${provider}-${entry}` };
          const name = `Double click ${provider} ${entry}`;
          const replies = await Promise.all(
            [1, 2, 3].map(() => admin("POST", "/admin/api/pets", { body: { name, categoryId: 2 }, headers })),
          );
          const ids = new Set(replies.filter((reply) => reply.status === 201).map((reply) => reply.body.id));
          assert.equal(ids.size, 1, replies.map((reply) => `${reply.status} ${reply.text}`).join("\n"));
          const again = await admin("POST", "/admin/api/pets", { body: { name, categoryId: 2 }, headers });
          assert.equal(again.status, 201);
          assert.equal(again.headers.get("idempotent-replayed"), "true");
          assert.equal((await walk(`/v1/pets?q=${encodeURIComponent(name)}`)).length, 1);
        });

        test("search reaches /v1 through the admin list", async () => {
          await create({ name: `Kumquat ${provider}${entry}`, categoryId: 1 });
          const reply = await admin("GET", `/admin/api/pets?q=${encodeURIComponent(`kumquat ${provider}${entry}`)}`);
          assert.equal(reply.status, 200, reply.text);
          assert.equal(reply.body.length, 1);
        });

        test("without a session every method is a 401, and a foreign Origin a 403 for changes", async () => {
          for (const method of ["GET", "PATCH", "DELETE"]) {
            const reply = await call(server.baseUrl, method, "/admin/api/pets/1", {
              headers: { Origin: server.baseUrl, ...MERGE_PATCH },
              body: method === "PATCH" ? { status: "sold" } : undefined,
            });
            assertError(reply, 401, "session_required");
          }
          for (const method of ["PATCH", "DELETE"]) {
            const reply = await admin(method, "/admin/api/pets/1", {
              headers: { Origin: "https://evil.example", ...MERGE_PATCH },
              body: method === "PATCH" ? { status: "sold" } : undefined,
            });
            assertError(reply, 403, "cross_origin");
          }
        });
      });
    });
  }
}
