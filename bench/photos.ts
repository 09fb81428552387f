// The benchmark's photo rows (issue 25): photos uploaded to the app before the throughput runs, so that "get photo
// thumb" reads a thumbnail as a catalogue page's <img> does; and the time of uploading a 12-megapixel JPEG, one at a
// time, from sending to the 201 (decoded, its three sizes made, stored).
import sharp from "sharp";
import type { Provider } from "@/bench/databases";
import type { PhotoUploadRow } from "@/bench/report";

const UPLOAD_WIDTH = 4000;
const UPLOAD_HEIGHT = 3000;

/** A photo-like JPEG: smooth gradients under noise, so that it compresses as a camera's picture does. */
export async function cameraLikeJpeg(width = UPLOAD_WIDTH, height = UPLOAD_HEIGHT): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  let seed = 1;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const noise = seed % 40;
      const at = (y * width + x) * 3;
      raw[at] = ((x / width) * 200 + noise) | 0;
      raw[at + 1] = ((y / height) * 180 + noise) | 0;
      raw[at + 2] = (((x + y) / (width + height)) * 150 + noise) | 0;
    }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

async function upload(url: string, key: string, petId: number, body: Buffer): Promise<{ id: string; bytes: number }> {
  const answer = await fetch(`${url}/v1/pets/${petId}/photos`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "image/jpeg" },
    body: new Uint8Array(body),
  });
  const text = await answer.text();
  if (answer.status !== 201) throw new Error(`upload answered ${answer.status}: ${text}`);
  const photo = JSON.parse(text) as { id: number; bytes: number };
  return { id: String(photo.id), bytes: photo.bytes };
}

/** One 640 × 480 photo for each of the first `count` pets; the paths of their thumbnails. */
export async function uploadThumbnailSet(url: string, key: string, count: number): Promise<string[]> {
  const body = await cameraLikeJpeg(640, 480);
  const paths: string[] = [];
  for (let petId = 1; petId <= count; petId++) {
    const { id } = await upload(url, key, petId, body);
    paths.push(`/v1/pets/${petId}/photos/${id}?size=thumb`);
  }
  return paths;
}

/** `uploads` uploads of one 12-megapixel JPEG, one at a time, to pets after the first `after`. */
export async function measurePhotoUploads(
  database: Provider,
  url: string,
  key: string,
  uploads: number,
  after: number,
): Promise<PhotoUploadRow> {
  const body = await cameraLikeJpeg();
  const times: number[] = [];
  let stored = 0;
  for (let index = 0; index < uploads; index++) {
    const started = performance.now();
    stored = (await upload(url, key, after + index + 1, body)).bytes;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return {
    database,
    megapixels: (UPLOAD_WIDTH * UPLOAD_HEIGHT) / 1e6,
    inputMb: body.length / 1e6,
    uploads,
    p50Ms: times[Math.floor((times.length - 1) / 2)],
    maxMs: times.at(-1)!,
    storedMb: stored / 1e6,
  };
}
