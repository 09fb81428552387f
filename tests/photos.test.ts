import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, test } from "node:test";
import sharp from "sharp";
import { assertError, headOnlyCall, type Reply } from "@/scripts/harness/http";
import { testProviders } from "@/scripts/harness/servers";
import { storeServer } from "@/scripts/harness/store-server";
import { parseJson } from "@/lib/http/json";

// Photos of pets (issue 25) over HTTP through server.ts, on SQLite and PostgreSQL: what is accepted (the three types,
// 10 MiB, 40 megapixels) and refused with its Error body (another type, a mislabelled file, a pixel bomb, a body too
// large); that nothing is kept as sent (EXIF and its GPS position gone, the orientation applied, an animation's
// first frame); the sizes and their caching (ETag, 304, immutable); the order, the cover, the text alternative,
// deletion; and the pet's event and record of each change.

const providers = await testProviders();
const ADMIN = { email: "photos-admin@example.com", password: "a long enough password" };

type Photo = {
  id: bigint;
  petId: bigint;
  position: bigint;
  contentType: string;
  width: bigint;
  height: bigint;
  bytes: bigint;
  alt: string;
  urls: { thumb: string; medium: string; full: string };
};

/** A fetch Response as the harness's Reply: its JSON body read int64-exact. */
async function replyOf(response: Response): Promise<Reply> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? parseJson(text) : undefined };
}

/** A solid picture of `width` × `height`, as `format`. */
function picture(width: number, height: number, format: "jpeg" | "png" | "webp", colour = "#c05a2b") {
  const image = sharp({ create: { width, height, channels: 3, background: colour } });
  return image[format]().toBuffer();
}

for (const provider of providers) {
  describe(`photos on ${provider} (server.ts)`, () => {
    const { api, admin, state } = storeServer(provider, { admin: ADMIN });

    const upload = async (petId: bigint, body: Uint8Array, type: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${state.server.baseUrl}/v1/pets/${petId}/photos`, {
        method: "POST",
        headers: { Authorization: `Bearer ${state.key}`, "Content-Type": type, ...headers },
        body: new Uint8Array(body),
      });
      return replyOf(response);
    };
    const image = async (path: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${state.server.baseUrl}${path}`, {
        headers: { Authorization: `Bearer ${state.key}`, ...headers },
      });
      return { response, bytes: Buffer.from(await response.arrayBuffer()) };
    };
    const newPet = async (name: string) => {
      const reply = await api("POST", "/v1/pets", { body: { name, categoryId: 1, status: "available" } });
      assert.equal(reply.status, 201, reply.text);
      return reply.body.id as bigint;
    };

    test("a JPEG, a PNG and a WebP are stored in three sizes; the first is the cover; listed in order", async () => {
      const pet = await newPet("Photographed");
      const photos: Photo[] = [];
      for (const [format, type] of [
        ["jpeg", "image/jpeg"],
        ["png", "image/png"],
        ["webp", "image/webp"],
      ] as const) {
        const reply = await upload(pet, await picture(1600, 1200, format), type);
        assert.equal(reply.status, 201, reply.text);
        assert.equal(reply.headers.get("location"), `/v1/pets/${pet}/photos/${reply.body.id}`);
        photos.push(reply.body as Photo);
      }
      assert.deepEqual(
        photos.map((photo) => [photo.contentType, photo.position, photo.width, photo.height, photo.alt]),
        [
          ["image/jpeg", 0n, 1600n, 1200n, "Photographed"],
          ["image/png", 1n, 1600n, 1200n, "Photographed"],
          ["image/webp", 2n, 1600n, 1200n, "Photographed"],
        ],
      );
      const list = await api("GET", `/v1/pets/${pet}/photos`);
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(list.body, photos);

      const [jpeg] = photos;
      const full = await image(jpeg.urls.full);
      assert.equal(full.response.status, 200);
      assert.equal(full.response.headers.get("content-type"), "image/jpeg");
      assert.equal(BigInt(full.bytes.length), jpeg.bytes);
      assert.deepEqual(
        await sharp(full.bytes)
          .metadata()
          .then(({ format, width, height }) => [format, width, height]),
        ["jpeg", 1600, 1200],
      );
      const medium = await image(jpeg.urls.medium);
      assert.equal(medium.response.headers.get("content-type"), "image/webp");
      assert.deepEqual(
        await sharp(medium.bytes)
          .metadata()
          .then(({ width, height }) => [width, height]),
        [1024, 768],
      );
      const thumb = await image(jpeg.urls.thumb);
      assert.deepEqual(
        await sharp(thumb.bytes)
          .metadata()
          .then(({ format, width, height }) => [format, width, height]),
        ["webp", 240, 240],
      );
    });

    test("a photo's image is cached for good: strong ETag, immutable, 304 on If-None-Match", async () => {
      const pet = await newPet("Cached");
      const photo = (await upload(pet, await picture(300, 200, "png"), "image/png")).body as Photo;
      const first = await image(photo.urls.thumb);
      const etag = first.response.headers.get("etag")!;
      assert.match(etag, /^"[^"]+"$/, "a strong ETag");
      assert.equal(first.response.headers.get("cache-control"), "public, max-age=31536000, immutable");
      assert.match(first.response.headers.get("vary") ?? "", /\bAuthorization\b/, "a shared cache keeps it per key");
      assert.equal(first.response.headers.get("x-content-type-options"), "nosniff");
      const again = await image(photo.urls.thumb, { "If-None-Match": etag });
      assert.equal(again.response.status, 304);
      assert.equal(again.bytes.length, 0);
      assert.notEqual((await image(photo.urls.full)).response.headers.get("etag"), etag, "each size its own tag");
      assert.equal((await image(`${photo.urls.full}?size=huge`)).response.status, 400);
    });

    test("nothing is kept as sent: EXIF and its GPS position gone, the orientation applied", async () => {
      const pet = await newPet("Located");
      const sent = await sharp({ create: { width: 40, height: 20, channels: 3, background: "#336699" } })
        .jpeg()
        .withExif({
          IFD0: { Make: "Acme Camera" },
          IFD3: {
            GPSLatitudeRef: "N",
            GPSLatitude: "51/1 30/1 0/1",
            GPSLongitudeRef: "W",
            GPSLongitude: "0/1 7/1 0/1",
          },
        })
        .withMetadata({ orientation: 6 })
        .toBuffer();
      const before = await sharp(sent).metadata();
      assert.equal(before.orientation, 6);
      assert.ok(before.exif?.includes(Buffer.from("Acme Camera")), "the camera's EXIF is in what is sent");
      const gpsPointer = [Buffer.from([0x88, 0x25]), Buffer.from([0x25, 0x88])];
      assert.ok(
        gpsPointer.some((tag) => before.exif!.includes(tag)),
        "and its GPS IFD",
      );

      const photo = (await upload(pet, sent, "image/jpeg")).body as Photo;
      assert.deepEqual([photo.width, photo.height], [20n, 40n], "turned upright");
      for (const url of Object.values(photo.urls)) {
        const { bytes } = await image(url);
        const after = await sharp(bytes).metadata();
        assert.equal(after.exif, undefined, `${url}: no EXIF at all`);
        assert.equal(after.orientation, undefined, `${url}: no orientation left to apply`);
        assert.ok(!bytes.includes(Buffer.from("Acme Camera")), `${url}: the camera's name is gone`);
      }
    });

    test("an animated WebP keeps its first frame", async () => {
      const pet = await newPet("Animated");
      const frames = await Promise.all(["#ff0000", "#0000ff"].map((colour) => picture(40, 20, "png", colour)));
      const animated = await sharp(frames, { join: { animated: true } })
        .webp()
        .toBuffer();
      assert.equal((await sharp(animated).metadata()).pages, 2);
      const photo = (await upload(pet, animated, "image/webp")).body as Photo;
      assert.deepEqual([photo.width, photo.height], [40n, 20n]);
      const { bytes } = await image(photo.urls.full);
      const stored = await sharp(bytes).metadata();
      assert.equal(stored.pages ?? 1, 1, "one frame");
      const { dominant } = await sharp(bytes).stats();
      assert.ok(dominant.r > 200 && dominant.b < 50, `the first frame's red: ${JSON.stringify(dominant)}`);
    });

    test("refused with an Error body: another type, mislabelled, not an image, a pixel bomb, too large", async () => {
      const pet = await newPet("Refusing");
      const png = await picture(30, 20, "png");
      for (const type of ["image/gif", "text/plain", "application/octet-stream"])
        assertError(await upload(pet, png, type), 415, "unsupported_media_type");
      const mislabelled = await upload(pet, png, "image/jpeg");
      assertError(mislabelled, 400, "invalid_image");
      assert.match(mislabelled.body.message, /is a PNG image, not image\/jpeg/);
      const svg = await upload(pet, Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"), "image/png");
      assertError(svg, 400, "invalid_image");
      assert.match(svg.body.message, /not a PNG image: its first bytes are not those of one/);
      assertError(await upload(pet, Buffer.alloc(0), "image/png"), 400, "invalid_image");
      // Cut short after its header: the header reads, the pixels do not (sharp's failOn: "error").
      const noisy = await sharp(Buffer.from(Array.from({ length: 300 * 300 * 3 }, (_, i) => (i * 7919) % 251)), {
        raw: { width: 300, height: 300, channels: 3 },
      })
        .jpeg({ quality: 95 })
        .toBuffer();
      const cut = await upload(pet, noisy.subarray(0, Math.floor(noisy.length * 0.9)), "image/jpeg");
      assertError(cut, 400, "invalid_image");
      assert.match(cut.body.message, /damaged or cut short/);
      // A strip whose square thumbnail would be 240 × 1,440,000 pixels: refused from its header, at once.
      const strip = await sharp({ create: { width: 1, height: 6000, channels: 3, background: "#000000" } })
        .png()
        .toBuffer();
      const started = performance.now();
      const long = await upload(pet, strip, "image/png");
      assertError(long, 400, "invalid_image");
      assert.match(long.body.message, /1 × 6000 pixels: a photo may be at most 20 times as long as it is wide/);
      assert.ok(performance.now() - started < 5000, "refused before any decoding");

      // 8,000 × 6,000 of one colour: 48 megapixels in a few hundred kilobytes, refused from its header.
      const bomb = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: "#000000" } })
        .png({ compressionLevel: 9 })
        .toBuffer();
      assert.ok(bomb.length < 1024 * 1024, `${bomb.length} bytes`);
      const refused = await upload(pet, bomb, "image/png");
      assertError(refused, 413, "image_too_large");
      assert.match(refused.body.message, /8000 × 6000 pixels: at most 40 megapixels/);

      const declared = await headOnlyCall(state.server.baseUrl, {
        method: "POST",
        path: `/v1/pets/${pet}/photos`,
        headers: { Authorization: `Bearer ${state.key}`, "Content-Type": "image/jpeg" },
        contentLength: 10 * 1024 * 1024 + 1,
      });
      assertError(declared, 413, "payload_too_large");
      // Sent without a length, past 10 MiB: refused as it passes.
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ < 11) controller.enqueue(new Uint8Array(1024 * 1024).fill(0xff));
          else controller.close();
        },
      });
      const streamed = await fetch(`${state.server.baseUrl}/v1/pets/${pet}/photos`, {
        method: "POST",
        headers: { Authorization: `Bearer ${state.key}`, "Content-Type": "image/jpeg" },
        body,
        duplex: "half",
      } as RequestInit).catch((error: unknown) => error);
      // Else the server closed the connection mid-upload after its 413, before fetch read it: refused either way.
      if (streamed instanceof Response) assertError(await replyOf(streamed), 413, "payload_too_large");

      assert.deepEqual((await api("GET", `/v1/pets/${pet}/photos`)).body, [], "nothing was stored");
      assertError(await upload(999_999_999n, png, "image/png"), 404, "not_found");
      const anonymous = await fetch(`${state.server.baseUrl}/v1/pets/${pet}/photos`, {
        method: "POST",
        headers: { "Content-Type": "image/png" },
        body: png,
      });
      assert.equal(anonymous.status, 401);
    });

    test("order, cover, text alternative and deletion; each a pet.updated event and a record", async () => {
      const pet = await newPet("Arranged");
      const ids: bigint[] = [];
      for (const colour of ["#111111", "#222222", "#333333"])
        ids.push(((await upload(pet, await picture(64, 48, "png", colour), "image/png")).body as Photo).id);
      const events = async () =>
        (
          (await api("GET", "/v1/events?limit=100&type=pet.updated")).body as {
            data: { id: bigint };
            previous: object;
          }[]
        ).filter((event) => event.data.id === pet);
      assert.equal((await events()).length, 3, "one event per upload");
      assert.deepEqual((await events())[0].previous, {}, "the pet's own members did not change");

      const order = (reply: Reply) => (reply.body as Photo[]).map((photo) => photo.id);
      const covered = await api("PATCH", `/v1/pets/${pet}/photos`, { body: { cover: ids[2] } });
      assert.equal(covered.status, 200, covered.text);
      assert.deepEqual(order(covered), [ids[2], ids[0], ids[1]]);
      const reordered = await api("PATCH", `/v1/pets/${pet}/photos`, { body: { order: [ids[1], ids[2], ids[0]] } });
      assert.deepEqual(order(reordered), [ids[1], ids[2], ids[0]]);
      assert.deepEqual(
        (reordered.body as Photo[]).map((photo) => photo.position),
        [0n, 1n, 2n],
      );
      assert.deepEqual(order(await api("GET", `/v1/pets/${pet}/photos`)), [ids[1], ids[2], ids[0]]);
      assertError(
        await api("PATCH", `/v1/pets/${pet}/photos`, { body: { order: [ids[0], ids[1]] } }),
        400,
        "invalid_body",
      );
      assertError(
        await api("PATCH", `/v1/pets/${pet}/photos`, { body: { order: [ids[0], ids[0], ids[1]] } }),
        400,
        "invalid_body",
      );
      assertError(
        await api("PATCH", `/v1/pets/${pet}/photos`, { body: { cover: 1n, order: ids } }),
        400,
        "invalid_body",
      );
      assertError(
        await api("PATCH", `/v1/pets/${pet}/photos`, { body: { cover: 999_999n } }),
        400,
        "invalid_body",
        "cover",
      );

      const described = await api("PATCH", `/v1/pets/${pet}/photos/${ids[0]}`, {
        body: { alt: "  Arranged asleep on a red blanket " },
      });
      assert.equal(described.status, 200, described.text);
      assert.equal(described.body.alt, "Arranged asleep on a red blanket");
      assertError(await api("PATCH", `/v1/pets/${pet}/photos/${ids[0]}`, { body: { alt: "" } }), 400, "invalid_body");
      assertError(
        await api("PATCH", `/v1/pets/${pet}/photos/${ids[0]}`, { body: { alt: "x".repeat(251) } }),
        400,
        "invalid_body",
      );
      const reset = await api("PATCH", `/v1/pets/${pet}/photos/${ids[0]}`, { body: { alt: null } });
      assert.equal(reset.body.alt, "Arranged", "null gives the pet's name back");

      assert.equal((await api("DELETE", `/v1/pets/${pet}/photos/${ids[1]}`)).status, 204);
      const left = await api("GET", `/v1/pets/${pet}/photos`);
      assert.deepEqual(order(left), [ids[2], ids[0]], "the next became the cover");
      assert.deepEqual(
        (left.body as Photo[]).map((photo) => photo.position),
        [0n, 1n],
      );
      assertError(await api("DELETE", `/v1/pets/${pet}/photos/${ids[1]}`), 404, "not_found");
      assert.equal((await image(`/v1/pets/${pet}/photos/${ids[1]}?size=thumb`)).response.status, 404);

      const other = await newPet("Another");
      assertError(await api("GET", `/v1/pets/${other}/photos/${ids[0]}`), 404, "not_found");
      assertError(await api("DELETE", `/v1/pets/${other}/photos/${ids[0]}`), 404, "not_found");
      assertError(await api("GET", `/v1/pets/${pet}/photos/abc`), 400, "invalid_path");

      // Upload ×3, cover, order, alt ×2, delete: 8 changes, each an event and a record in the activity log.
      assert.equal((await events()).length, 8);
    });

    test("a deleted pet's photos are not served; the pet's restore brings them back", async () => {
      const pet = await newPet("Restorable");
      const photo = (await upload(pet, await picture(64, 48, "jpeg"), "image/jpeg")).body as Photo;
      // Deleted and restored by one staff member, as the admin app's Undo does.
      assert.equal((await admin("DELETE", `/admin/api/pets/${pet}`)).status, 204);
      assertError(await api("GET", `/v1/pets/${pet}/photos`), 404, "not_found");
      assert.equal((await image(photo.urls.thumb)).response.status, 404);
      const restored = await admin("POST", `/admin/api/pets/${pet}/restore`);
      assert.equal(restored.status, 200, restored.text);
      assert.deepEqual(
        ((await api("GET", `/v1/pets/${pet}/photos`)).body as Photo[]).map((each) => each.id),
        [photo.id],
      );
      assert.equal((await image(photo.urls.thumb)).response.status, 200);
    });

    test("20 photos a pet, uploaded five at once: each its own place; the 21st is 409 before it is read", async () => {
      const pet = await newPet("Crowded");
      const tiny = await picture(8, 8, "png");
      for (let round = 0; round < 4; round++) {
        const replies = await Promise.all(Array.from({ length: 5 }, () => upload(pet, tiny, "image/png")));
        for (const reply of replies) assert.equal(reply.status, 201, reply.text);
      }
      const listed = (await api("GET", `/v1/pets/${pet}/photos`)).body as Photo[];
      assert.deepEqual(
        listed.map((photo) => photo.position),
        Array.from({ length: 20 }, (_, index) => BigInt(index)),
      );
      const full = await upload(pet, tiny, "image/png");
      assertError(full, 409, "too_many_photos");
      assert.match(full.body.message, /has 20 photos/);
    });

    test("the admin app's photo endpoints: a session, its origin, a large photo, covers, private caching", async () => {
      const pet = await newPet("Through the admin app");
      const base = state.server.baseUrl;
      const big = await sharp(randomBytes(800 * 600 * 3), {
        raw: { width: 800, height: 600, channels: 3 },
      })
        .png()
        .toBuffer();
      assert.ok(big.length > 1024 * 1024, `${big.length} bytes: past what Next's proxy would read of a body`);
      const post = (headers: Record<string, string>, body: Uint8Array) =>
        fetch(`${base}/admin/api/pets/${pet}/photos`, {
          method: "POST",
          headers: { "Content-Type": "image/png", ...headers },
          body: new Uint8Array(body),
        });
      // Refused before the body is read, and the connection closed: a small body, so that fetch reads the answer
      // (on Node 26 it reports the unsent rest of a large one as ECONNRESET instead).
      const small = await picture(8, 8, "png");
      assert.equal((await post({ Origin: base }, small)).status, 401, "no session");
      assert.equal((await post({ Cookie: state.cookie, Origin: "https://elsewhere.example" }, small)).status, 403);
      const added = await replyOf(await post({ Cookie: state.cookie, Origin: base }, big));
      assert.equal(added.status, 201, added.text);
      const photo = added.body as Photo;
      assert.equal(photo.width, 800n);

      const listed = await admin("GET", `/admin/api/pets/${pet}/photos`);
      assert.deepEqual(
        (listed.body as Photo[]).map((each) => each.id),
        [photo.id],
      );
      const thumb = await fetch(`${base}/admin/api/pets/${pet}/photos/${photo.id}?size=thumb`, {
        headers: { Cookie: state.cookie },
      });
      assert.equal(thumb.status, 200);
      assert.equal(thumb.headers.get("content-type"), "image/webp");
      assert.equal(thumb.headers.get("cache-control"), "private, max-age=31536000, immutable", "no shared cache");
      const etag = thumb.headers.get("etag")!;
      const again = await fetch(`${base}/admin/api/pets/${pet}/photos/${photo.id}?size=thumb`, {
        headers: { Cookie: state.cookie, "If-None-Match": etag },
      });
      assert.equal(again.status, 304);

      const other = await newPet("Without a photo");
      const covers = await admin("GET", `/admin/api/pets/covers?ids=${pet},${other}`);
      assert.equal(covers.status, 200, covers.text);
      assert.deepEqual(covers.body, [{ petId: pet, photoId: photo.id }]);
      assertError(await admin("GET", "/admin/api/pets/covers?ids=1,x"), 400, "invalid_query");
      assertError(
        await admin("GET", `/admin/api/pets/covers?ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(",")}`),
        400,
        "invalid_query",
      );
      assert.equal((await fetch(`${base}/admin/api/pets/covers?ids=1`)).status, 401);
    });

    test("the OpenAPI document describes the photo operations and their binary bodies", async () => {
      const document = (await api("GET", "/v1/openapi.json")).body;
      const photos = document.paths["/pets/{petId}/photos"];
      assert.deepEqual(Object.keys(photos.post.requestBody.content).toSorted(), [
        "image/jpeg",
        "image/png",
        "image/webp",
      ]);
      assert.equal(photos.post.requestBody.content["image/png"].schema.format, "binary");
      assert.ok(photos.get && photos.patch);
      const one = document.paths["/pets/{petId}/photos/{photoId}"];
      assert.ok(one.get.responses["304"] && one.patch && one.delete);
      assert.ok(document.components.schemas.Photo);
    });
  });
}
