import "server-only";
import type { Metadata, OutputInfo, Sharp } from "sharp";
import { Refusal } from "@/lib/refusal";
import { MAX_PHOTO_PIXELS, PHOTO_TYPES, type PhotoType } from "@/lib/photos/limits";
import type { PHOTO_SIZE_NAMES } from "@/lib/photos/schema";

// What an uploaded photo becomes (issue 25). Nothing is kept as sent: the bytes are decoded by sharp (libvips) and
// encoded again, so that metadata (a camera's GPS position, its serial number) never leaves the store, the EXIF
// orientation is applied to the pixels, and a file that is not the image it claims to be is refused. Before sharp
// sees anything, the first bytes must be those of the type declared (so that no other libvips loader, SVG or TIFF
// say, ever parses an upload); the pixel count and the shape are judged from the header before anything is decoded
// (a decompression bomb, or a 1 × 60,000 strip that a square thumbnail would blow up, costs a header read); an
// animated image is reduced to its first frame. Three sizes are made at upload, never per request.

export { MAX_PHOTO_BYTES, MAX_PHOTO_PIXELS, PHOTO_TYPES, type PhotoType } from "@/lib/photos/limits";

export type PhotoSize = (typeof PHOTO_SIZE_NAMES)[number];
/** The thumbnail's square side and the medium size's longest side, in pixels. */
export const THUMB_PX = 240;
export const MEDIUM_PX = 1024;
/** How many times as long as it is wide a photo may be: a square thumbnail of a longer one costs too much. */
export const MAX_ASPECT_RATIO = 20;

/** sharp's name of each type's format. */
const FORMATS: Record<PhotoType, "jpeg" | "png" | "webp"> = {
  "image/jpeg": "jpeg",
  "image/png": "png",
  "image/webp": "webp",
};
const TYPE_NAMES: Record<PhotoType, string> = { "image/jpeg": "a JPEG", "image/png": "a PNG", "image/webp": "a WebP" };

/** Whether the bytes start as a file of this type does (its signature). */
const SIGNATURES: Record<PhotoType, (bytes: Uint8Array) => boolean> = {
  "image/jpeg": (bytes) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff,
  "image/png": (bytes) =>
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, index) => bytes[index] === byte),
  "image/webp": (bytes) =>
    Buffer.from(bytes.subarray(0, 4)).toString("latin1") === "RIFF" &&
    Buffer.from(bytes.subarray(8, 12)).toString("latin1") === "WEBP",
};

export type EncodedImage = { size: PhotoSize; contentType: PhotoType; width: number; height: number; data: Buffer };

/** The media type of a Content-Type header without its parameters, when it is one a photo may be sent as. */
export function photoTypeOf(contentType: string | null): PhotoType | undefined {
  const essence = contentType?.split(";", 1)[0].trim().toLowerCase();
  return PHOTO_TYPES.find((type) => type === essence);
}

// Decoding is libvips' work on libuv's threads: the event loop stays free. Its memory is native, outside Node's
// heap limit, so it is bounded here: two photos of up to BIG_PIXELS are decoded at once, or one bigger one (a
// 40-megapixel image whose orientation must be applied is decoded whole: about 160 MB at 8 bits a channel). At
// most MAX_WAITING wait their turn, each holding its upload; past that the answer is 503 with Retry-After.
const SLOTS = 2;
const BIG_PIXELS = 16_000_000;
const MAX_WAITING = 8;
let free = SLOTS;
const waiting: { weight: number; go: () => void }[] = [];

function release(weight: number): void {
  free += weight;
  while (waiting.length > 0 && waiting[0].weight <= free) {
    const next = waiting.shift()!;
    free -= next.weight;
    next.go();
  }
}

async function withDecodeSlots<T>(weight: number, work: () => Promise<T>): Promise<T> {
  if (waiting.length === 0 && free >= weight) free -= weight;
  else if (waiting.length >= MAX_WAITING)
    throw new Refusal("service_unavailable", {
      message: "The server is busy making other photos: send this one again in a few seconds.",
      headers: { "Retry-After": "5" },
    });
  else await new Promise<void>((go) => waiting.push({ weight, go }));
  try {
    return await work();
  } finally {
    release(weight);
  }
}

/** sharp, loaded on the first upload: a machine where its native part cannot load still serves everything else. */
async function loadSharp() {
  const { default: sharp } = await import("sharp");
  sharp.cache(false); // every upload is new: nothing to gain from keeping decoded images
  return sharp;
}

function describe(declared: PhotoType, bytes: Uint8Array): string {
  const actual = PHOTO_TYPES.find((type) => SIGNATURES[type](bytes));
  return actual
    ? `The request body is ${TYPE_NAMES[actual]} image, not ${declared} as its Content-Type says.`
    : `The request body is not ${TYPE_NAMES[declared]} image: its first bytes are not those of one.`;
}

/**
 * Checks an upload and makes its three sizes: `full` (the whole picture, upright, in the type it was sent as),
 * `medium` (at most MEDIUM_PX on its longest side) and `thumb` (a THUMB_PX square, cropped to what draws the eye),
 * the last two as WebP. Throws the Refusal to answer for anything that is not a photo this API takes.
 */
export async function encodePhoto(bytes: Uint8Array, declared: PhotoType): Promise<EncodedImage[]> {
  if (!SIGNATURES[declared](bytes)) throw new Refusal("invalid_image", { message: describe(declared, bytes) });
  const sharp = await loadSharp();
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let metadata: Metadata;
  try {
    // The header alone: neither the pixels nor the other frames are decoded here.
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new Refusal("invalid_image", { message: "The request body is not an image: it cannot be decoded." });
  }
  const format = FORMATS[declared];
  if (metadata.format !== format) throw new Refusal("invalid_image", { message: describe(declared, bytes) });
  const width = metadata.width ?? 0;
  const height = metadata.pageHeight ?? metadata.height ?? 0;
  if (width * height > MAX_PHOTO_PIXELS)
    throw new Refusal("image_too_large", {
      message:
        `The image is ${width} × ${height} pixels: ` +
        `at most ${MAX_PHOTO_PIXELS / 1_000_000} megapixels are accepted.`,
    });
  if (width < 1 || height < 1 || Math.max(width, height) > MAX_ASPECT_RATIO * Math.min(width, height))
    throw new Refusal("invalid_image", {
      message:
        `The image is ${width} × ${height} pixels: a photo may be at most ${MAX_ASPECT_RATIO} times as long as ` +
        "it is wide.",
    });

  return withDecodeSlots(width * height > BIG_PIXELS ? SLOTS : 1, async () => {
    // The first frame only (pages: 1), upright (autoOrient), without its metadata (sharp keeps none unless told).
    const source = () => sharp(input, { limitInputPixels: MAX_PHOTO_PIXELS, pages: 1, failOn: "error" }).autoOrient();
    try {
      const full = await encodeAs(source(), format).toBuffer({ resolveWithObject: true });
      const medium = await source()
        .resize(MEDIUM_PX, MEDIUM_PX, { fit: "inside", withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer({ resolveWithObject: true });
      const thumb = await source()
        .resize(THUMB_PX, THUMB_PX, { fit: "cover", position: sharp.strategy.attention })
        .webp({ quality: 75 })
        .toBuffer({ resolveWithObject: true });
      return [
        image("full", declared, full),
        image("medium", "image/webp", medium),
        image("thumb", "image/webp", thumb),
      ];
    } catch {
      throw new Refusal("invalid_image", {
        message: "The request body is not an image that can be read whole: its data is damaged or cut short.",
      });
    }
  });
}

function encodeAs(pipeline: Sharp, format: "jpeg" | "png" | "webp"): Sharp {
  // libjpeg-turbo, not mozjpeg: mozjpeg made a 12-megapixel photo a third smaller in seven times as long (2.6 s).
  if (format === "jpeg") return pipeline.jpeg({ quality: 85 });
  if (format === "png") return pipeline.png();
  return pipeline.webp({ quality: 85 });
}

function image(size: PhotoSize, contentType: PhotoType, { data, info }: { data: Buffer; info: OutputInfo }) {
  return { size, contentType, width: info.width, height: info.height, data };
}
