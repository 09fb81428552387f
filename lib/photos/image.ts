import "server-only";
import sharp, { type Metadata, type OutputInfo, type Sharp } from "sharp";
import { Refusal } from "@/lib/refusal";

// What an uploaded photo becomes (issue 25). Nothing is kept as sent: the bytes are decoded by sharp (libvips) and
// encoded again, so that metadata (a camera's GPS position, its serial number) never leaves the store, the EXIF
// orientation is applied to the pixels, and a file that is not the image it claims to be is refused. The pixel count
// is judged from the header before anything is decoded (a decompression bomb costs a header read), and an animated
// image is reduced to its first frame. Three sizes are made at upload, never per request.

export const PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;
export type PhotoType = (typeof PHOTO_TYPES)[number];
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
export const MAX_PHOTO_PIXELS = 40_000_000;

export const PHOTO_SIZES = ["thumb", "medium", "full"] as const;
export type PhotoSize = (typeof PHOTO_SIZES)[number];
/** The thumbnail's square side and the medium size's longest side, in pixels. */
export const THUMB_PX = 240;
export const MEDIUM_PX = 1024;

/** sharp's name of each type's format. */
const FORMATS: Record<PhotoType, "jpeg" | "png" | "webp"> = {
  "image/jpeg": "jpeg",
  "image/png": "png",
  "image/webp": "webp",
};
const TYPE_NAMES: Record<string, string> = { jpeg: "a JPEG", png: "a PNG", webp: "a WebP", gif: "a GIF" };

export type EncodedImage = { size: PhotoSize; contentType: PhotoType; width: number; height: number; data: Buffer };

/** The media type of a Content-Type header without its parameters, when it is one a photo may be sent as. */
export function photoTypeOf(contentType: string | null): PhotoType | undefined {
  const essence = contentType?.split(";", 1)[0].trim().toLowerCase();
  return PHOTO_TYPES.find((type) => type === essence);
}

// Decoding is libvips' work on libuv's threads: the event loop stays free. At most two photos are decoded at
// once per process, so that a burst of uploads holds two decoded images in memory, not one per request.
const MAX_AT_ONCE = 2;
let running = 0;
const queue: (() => void)[] = [];

async function oneOfFew<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_AT_ONCE) await new Promise<void>((resolve) => queue.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    const next = queue.shift();
    if (next) next();
    else running--;
  }
}

/**
 * Checks an upload and makes its three sizes: `full` (the whole picture, upright, in the type it was sent as),
 * `medium` (at most MEDIUM_PX on its longest side) and `thumb` (a THUMB_PX square, cropped to what draws the eye),
 * the last two as WebP. Throws the Refusal to answer for anything that is not a photo this API takes.
 */
export async function encodePhoto(bytes: Uint8Array, declared: PhotoType): Promise<EncodedImage[]> {
  return oneOfFew(async () => {
    const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let metadata: Metadata;
    try {
      // The header alone: neither the pixels nor the other frames are decoded here.
      metadata = await sharp(input, { limitInputPixels: false }).metadata();
    } catch {
      throw new Refusal("invalid_image", { message: "The request body is not an image: it cannot be decoded." });
    }
    const format = FORMATS[declared];
    if (metadata.format !== format) {
      const actual = TYPE_NAMES[metadata.format ?? ""] ?? `an image of type ${metadata.format ?? "unknown"}`;
      throw new Refusal("invalid_image", {
        message: `The request body is ${actual} image, not ${declared} as its Content-Type says.`,
      });
    }
    const width = metadata.width ?? 0;
    const height = metadata.pageHeight ?? metadata.height ?? 0;
    if (width * height > MAX_PHOTO_PIXELS)
      throw new Refusal("image_too_large", {
        message:
          `The image is ${width} × ${height} pixels: ` +
          `at most ${MAX_PHOTO_PIXELS / 1_000_000} megapixels are accepted.`,
      });
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
    } catch (error) {
      if (error instanceof Refusal) throw error;
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

function image(
  size: PhotoSize,
  contentType: PhotoType,
  { data, info }: { data: Buffer; info: OutputInfo },
): EncodedImage {
  return { size, contentType, width: info.width, height: info.height, data };
}
