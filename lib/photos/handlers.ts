import "server-only";
import { respond } from "@/lib/http/response";
import { json, type Handler } from "@/lib/http/api-route";
import { readJsonBody, readLimitedBytes } from "@/lib/http/body";
import { conditionOf } from "@/lib/http/conditional";
import { noQueryParameters, parseOrThrow, pathParam } from "@/lib/http/validation";
import { Refusal } from "@/lib/refusal";
import { queryOf } from "@/lib/pets/handlers";
import { petIdSchema } from "@/lib/pets/schema";
import { encodePhoto, MAX_PHOTO_BYTES, PHOTO_TYPES, photoTypeOf } from "@/lib/photos/image";
import { photoIdSchema, photoOrderSchema, photoPatchSchema, photoSizeQuerySchema } from "@/lib/photos/schema";
import {
  addPhoto,
  checkPhotoOf,
  checkRoomForPhoto,
  deletePhoto,
  describePhoto,
  listPhotos,
  orderPhotos,
  readPhotoImage,
} from "@/lib/photos/store";
import { auditContextOf, type ApiClient } from "@/lib/v1/guard";

// The photo operations of /v1 (issue 25), on the paths the route table gives them (lib/v1/routes.ts).

const ids = (params: Record<string, string>) => ({
  petId: pathParam(params, "petId", petIdSchema),
  photoId: pathParam(params, "photoId", photoIdSchema),
});

/**
 * A photo's bytes never change (a new upload is a new id), so a browser or a CDN may keep them for a year; a shared
 * cache keeps them per API key (Vary: Authorization), never handing one client's copy to another or to no one.
 */
const CACHING = { "Cache-Control": "public, max-age=31536000, immutable", Vary: "Authorization" };

// GET /v1/pets/{petId}/photos — listPetPhotos
export const listPetPhotosHandler: Handler<ApiClient> = async ({ url, params }) => {
  parseOrThrow(noQueryParameters, queryOf(url), "invalid_query", "Invalid query");
  return json(await listPhotos(pathParam(params, "petId", petIdSchema)));
};

// POST /v1/pets/{petId}/photos — uploadPetPhoto: the image is the body.
export const uploadPetPhotoHandler: Handler<ApiClient> = async ({ request, params, requestId, caller }) => {
  const petId = pathParam(params, "petId", petIdSchema);
  const type = photoTypeOf(request.headers.get("content-type"));
  if (!type)
    throw new Refusal("unsupported_media_type", {
      message: `A photo must be sent as Content-Type: ${PHOTO_TYPES.join(", ")}, the image itself as the body.`,
    });
  await checkRoomForPhoto(petId); // before a byte of a possibly large body is read
  const bytes = await readLimitedBytes(
    request,
    MAX_PHOTO_BYTES,
    `The photo is larger than ${MAX_PHOTO_BYTES / 1024 / 1024} MiB.`,
  );
  if (bytes.byteLength === 0)
    throw new Refusal("invalid_image", { message: "The request body is empty: send the image itself." });
  if (request.signal.aborted) throw request.signal.reason; // the client went away: nothing to encode for
  const images = await encodePhoto(bytes, type);
  const photo = await addPhoto(petId, type, images, auditContextOf(caller, requestId));
  return json(photo, { status: 201, headers: { Location: `/v1/pets/${petId}/photos/${photo.id}` } });
};

// PATCH /v1/pets/{petId}/photos — orderPetPhotos
export const orderPetPhotosHandler: Handler<ApiClient> = async ({ request, params, requestId, caller }) => {
  const petId = pathParam(params, "petId", petIdSchema);
  const body = await readJsonBody(request);
  const change = parseOrThrow(photoOrderSchema, body.json, "invalid_body", "Invalid photo order");
  return json(await orderPhotos(petId, change, auditContextOf(caller, requestId)));
};

// GET /v1/pets/{petId}/photos/{photoId} — getPetPhoto: the image, in the size asked for.
export const getPetPhotoHandler: Handler<ApiClient> = async ({ request, url, params }) => {
  const { petId, photoId } = ids(params);
  const { size } = parseOrThrow(photoSizeQuerySchema, queryOf(url), "invalid_query", "Invalid query");
  const etag = `"photo-${photoId}-${size}"`;
  const ifNoneMatch = conditionOf(request, "If-None-Match", { lenient: true });
  // A revalidation is answered before the image is read: two indexed lookups, whatever the photo's size.
  if (ifNoneMatch === "*" || ifNoneMatch?.some((tag) => `"${tag.opaque}"` === etag)) {
    await checkPhotoOf(petId, photoId);
    return respond(null, { status: 304, headers: { ETag: etag, ...CACHING } });
  }
  const image = await readPhotoImage(petId, photoId, size);
  return respond(image.data as Uint8Array<ArrayBuffer>, {
    headers: {
      "Content-Type": image.contentType,
      "Content-Length": String(image.data.byteLength),
      ETag: etag,
      ...CACHING,
      // Shown as an image, never run: whatever the bytes, a browser may not treat them as a page.
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Content-Disposition": `inline; filename="pet-${petId}-photo-${photoId}-${size}.${image.contentType.slice(6)}"`,
    },
  });
};

// PATCH /v1/pets/{petId}/photos/{photoId} — updatePetPhoto: its text alternative.
export const updatePetPhotoHandler: Handler<ApiClient> = async ({ request, params, requestId, caller }) => {
  const { petId, photoId } = ids(params);
  const body = await readJsonBody(request);
  const { alt } = parseOrThrow(photoPatchSchema, body.json, "invalid_body", "Invalid photo");
  return json(await describePhoto(petId, photoId, alt, auditContextOf(caller, requestId)));
};

// DELETE /v1/pets/{petId}/photos/{photoId} — deletePetPhoto
export const deletePetPhotoHandler: Handler<ApiClient> = async ({ params, requestId, caller }) => {
  const { petId, photoId } = ids(params);
  await deletePhoto(petId, photoId, auditContextOf(caller, requestId));
  return respond(null, { status: 204 });
};
