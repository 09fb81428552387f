import { z } from "zod";
import { int64Schema, positiveInt64Text, smallIntegerSchema } from "@/lib/http/int64";
import { hasVisibleCharacter, NOT_ONLY_INVISIBLE } from "@/lib/visible-text";

// A pet's photos as /v1 shows them and takes changes to them (issue 25). Shared by the handlers, the admin app's
// forms and the OpenAPI document. The image bytes themselves are lib/photos/image.ts's.

/** How many photos one pet may have. */
export const MAX_PHOTOS_PER_PET = 20;
export const ALT_MAX_LENGTH = 250;
export const PHOTO_SIZE_NAMES = ["thumb", "medium", "full"] as const;

export const photoIdSchema = positiveInt64Text("photoId");

/** The admin app's covers query: the ids of a catalogue page's pets, comma-separated, at most 100. */
export const coversQuerySchema = z.strictObject({
  ids: z
    .string({ error: "ids is required" })
    .max(100 * 20, "ids is too long")
    .transform((text) => text.split(","))
    .pipe(z.array(positiveInt64Text("ids")).min(1).max(100, "ids names at most 100 pets")),
});

/** A pet's cover, as the admin app's catalogue shows it. */
export const coverSchema = z.object({ petId: int64Schema("petId"), photoId: int64Schema("photoId") });
export type Cover = z.infer<typeof coverSchema>;

export const photoSizeQuerySchema = z.strictObject(
  {
    size: z
      .enum(PHOTO_SIZE_NAMES, { error: `size must be one of ${PHOTO_SIZE_NAMES.join(", ")}` })
      .default("full")
      .meta({
        description:
          "Which image: `thumb` (a 240 × 240 px WebP, cropped to what draws the eye), `medium` (a WebP at most " +
          "1024 px on its longest side) or `full` (the whole picture, in the type it was uploaded as; the default).",
      }),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? "size is the only parameter" : undefined) },
);

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

export const altSchema = z
  .string({ error: "alt must be a string or null" })
  .trim()
  .refine((alt) => alt.length > 0, { message: "alt must not be empty (send null to use the pet's name)" })
  .refine((alt) => alt.length === 0 || hasVisibleCharacter(alt), { message: `alt ${NOT_ONLY_INVISIBLE}` })
  .refine((alt) => [...alt].length <= ALT_MAX_LENGTH, { message: `alt must be at most ${ALT_MAX_LENGTH} characters` })
  .refine((alt) => alt.isWellFormed() && !CONTROL_CHARACTERS.test(alt), {
    message: "alt must be text without control characters",
  });

/** The body of updatePetPhoto. */
export const photoPatchSchema = z
  .strictObject(
    {
      alt: altSchema.nullable().meta({
        description:
          `The photo's text alternative, read aloud in its place: 1 to ${ALT_MAX_LENGTH} characters; null uses ` +
          "the pet's name.",
      }),
    },
    { error: (issue) => (issue.code === "unrecognized_keys" ? undefined : "the body must be a JSON object") },
  )
  .meta({ id: "PhotoPatch", description: "A change to a photo: its text alternative." });

/** The body of orderPetPhotos: the whole order, or the cover alone. */
export const photoOrderSchema = z
  .strictObject(
    {
      order: z
        .array(int64Schema("order[]"), { error: "order must be an array of photo ids" })
        .max(MAX_PHOTOS_PER_PET, `order lists at most ${MAX_PHOTOS_PER_PET} photos`)
        .optional()
        .meta({
          description: "Every photo id of the pet, each once, in the order to show them: the first is the cover.",
        }),
      cover: int64Schema("cover")
        .optional()
        .meta({ description: "The photo to make the cover (first); the others keep their order." }),
    },
    { error: (issue) => (issue.code === "unrecognized_keys" ? undefined : "the body must be a JSON object") },
  )
  .refine((body) => (body.order === undefined) !== (body.cover === undefined), {
    message: "send either order or cover",
    path: [],
  })
  .meta({
    id: "PhotoOrder",
    description: 'A new order of a pet\'s photos: `{"order": [ids…]}` with every photo, or `{"cover": id}`.',
  });

const timestamp = (description: string) => z.iso.datetime().meta({ description });

/** A photo as /v1 returns it. */
export const photoSchema = z
  .object({
    id: int64Schema("id").meta({ description: "The photo's id: its bytes never change." }),
    petId: int64Schema("petId"),
    position: smallIntegerSchema.meta({ description: "Its place among the pet's photos; 0 is the cover." }),
    contentType: z.enum(["image/jpeg", "image/png", "image/webp"]).meta({ description: "The full size's type." }),
    width: smallIntegerSchema.meta({ description: "The full size's width in pixels, upright." }),
    height: smallIntegerSchema.meta({ description: "The full size's height in pixels, upright." }),
    bytes: smallIntegerSchema.meta({ description: "The full size's length in bytes, as stored (re-encoded)." }),
    alt: z.string().meta({ description: "The text alternative: staff's words, or the pet's name." }),
    createdAt: timestamp("When it was uploaded."),
    urls: z
      .object({ thumb: z.string(), medium: z.string(), full: z.string() })
      .meta({ description: "Where each size is read (with the API key): paths under this API." }),
  })
  .meta({ id: "Photo", description: "A photo of a pet." });
export type PhotoView = z.infer<typeof photoSchema>;
