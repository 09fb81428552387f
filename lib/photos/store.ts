import "server-only";
import { recordAudit, type AuditContext } from "@/lib/audit/record";
import { db, transaction, type Transaction } from "@/lib/db/client";
import { findPet, heldPet, noSuchPet, type VersionedPet } from "@/lib/pets/store";
import { Refusal } from "@/lib/refusal";
import type { EncodedImage, PhotoSize, PhotoType } from "@/lib/photos/image";
import { MAX_PHOTOS_PER_PET, type Cover, type PhotoView } from "@/lib/photos/schema";
import { photoImages, type StoredImage } from "@/lib/photos/storage";

// A pet's photos: their rows (lib/photos/storage.ts keeps their images) and every change to them, each in one
// transaction with its audit record and its event. A photo change is the pet's `pet.updated` event (its data the
// pet as /v1 shows it, `previous` empty: the pet's own members did not change) and a `pet.updated` record whose
// details say what happened to which photo. The pet's row is held through each change, so that concurrent uploads
// count and place photos one after the other. A deleted pet's photos stay while it can be restored; housekeeping
// removes them afterwards (lib/housekeeping.ts).

const columns = {
  id: true,
  petId: true,
  position: true,
  contentType: true,
  width: true,
  height: true,
  bytes: true,
  alt: true,
  createdAt: true,
} as const;
type PhotoRow = {
  id: bigint;
  petId: bigint;
  position: number;
  contentType: string;
  width: number;
  height: number;
  bytes: number;
  alt: string | null;
  createdAt: Date;
};

function viewOf(row: PhotoRow, petName: string): PhotoView {
  const path = `/v1/pets/${row.petId}/photos/${row.id}`;
  return {
    id: row.id,
    petId: row.petId,
    position: row.position,
    contentType: row.contentType as PhotoView["contentType"],
    width: row.width,
    height: row.height,
    bytes: row.bytes,
    alt: row.alt ?? petName,
    createdAt: row.createdAt.toISOString(),
    urls: { thumb: `${path}?size=thumb`, medium: `${path}?size=medium`, full: path },
  };
}

function noSuchPhoto(petId: bigint, photoId: bigint): Refusal {
  return new Refusal("not_found", { message: `Pet #${petId} has no photo with id ${photoId}.` });
}

async function photoRows(petId: bigint, tx: Transaction): Promise<PhotoRow[]> {
  return tx.photo.findMany({ where: { petId }, orderBy: [{ position: "asc" }, { id: "asc" }], select: columns });
}

/** A pet's photos in order, the cover first; 404 when the pet is not in the catalogue. */
export async function listPhotos(petId: bigint): Promise<PhotoView[]> {
  const pet = await findPet(petId);
  if (!pet) throw noSuchPet(petId);
  return (await photoRows(petId, db())).map((row) => viewOf(row, pet.pet.name));
}

/** Records a photo change: the pet's record (what happened to which photo) and its event (the pet, unchanged). */
async function recordPhotoChange(tx: Transaction, pet: VersionedPet, audit: AuditContext, photo: object) {
  await recordAudit(tx, audit, {
    action: "pet.updated",
    target: { type: "pet", id: pet.pet.id, label: pet.pet.name },
    details: { photo },
    event: { data: pet.pet, previous: {} },
  });
}

/** The 404 of a pet not in the catalogue, or the 409 of one with all its photos: checked before an upload is read. */
export async function checkRoomForPhoto(petId: bigint): Promise<void> {
  if (!(await findPet(petId))) throw noSuchPet(petId);
  if ((await db().photo.count({ where: { petId } })) >= MAX_PHOTOS_PER_PET) throw tooManyPhotos(petId);
}

function tooManyPhotos(petId: bigint): Refusal {
  return new Refusal("too_many_photos", {
    message: `Pet #${petId} has ${MAX_PHOTOS_PER_PET} photos, as many as a pet may have: delete one first.`,
  });
}

/** Adds a photo after the pet's others (the first becomes the cover); 409 past MAX_PHOTOS_PER_PET. */
export async function addPhoto(
  petId: bigint,
  contentType: PhotoType,
  images: EncodedImage[],
  audit: AuditContext,
): Promise<PhotoView> {
  const full = images.find((image) => image.size === "full")!;
  return transaction(async (tx) => {
    const pet = await heldPet(petId, {}, tx);
    const count = await tx.photo.count({ where: { petId } });
    if (count >= MAX_PHOTOS_PER_PET) throw tooManyPhotos(petId);
    const row = await tx.photo.create({
      data: { petId, position: count, contentType, width: full.width, height: full.height, bytes: full.data.length },
      select: columns,
    });
    await photoImages().put(tx, row.id, images);
    await recordPhotoChange(tx, pet, audit, { added: row.id });
    return viewOf(row, pet.pet.name);
  });
}

/** A photo of the pet, its row held with the pet's; 404 for a photo of another pet or none. */
async function heldPhoto(petId: bigint, photoId: bigint, tx: Transaction) {
  const pet = await heldPet(petId, {}, tx);
  const row = await tx.photo.findUnique({ where: { id: photoId }, select: columns });
  if (row?.petId !== petId) throw noSuchPhoto(petId, photoId);
  return { pet, row };
}

/** Puts the pet's photos in this order of ids (positions 0…n-1), writing only the rows that move. */
async function renumber(tx: Transaction, rows: PhotoRow[], ids: bigint[]): Promise<PhotoRow[]> {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const placed: PhotoRow[] = [];
  for (const [position, id] of ids.entries()) {
    const row = byId.get(id)!;
    if (row.position !== position) await tx.photo.update({ where: { id }, data: { position }, select: { id: true } });
    placed.push({ ...row, position });
  }
  return placed;
}

/** Deletes a photo and its images; the photos after it move up (the next becomes the cover). */
export async function deletePhoto(petId: bigint, photoId: bigint, audit: AuditContext): Promise<void> {
  await transaction(async (tx) => {
    const { pet } = await heldPhoto(petId, photoId, tx);
    await photoImages().remove(tx, [photoId]);
    await tx.photo.delete({ where: { id: photoId }, select: { id: true } });
    const rest = await photoRows(petId, tx);
    await renumber(
      tx,
      rest,
      rest.map((row) => row.id),
    );
    await recordPhotoChange(tx, pet, audit, { removed: photoId });
  });
}

/** Sets a photo's text alternative (null: the pet's name). */
export async function describePhoto(
  petId: bigint,
  photoId: bigint,
  alt: string | null,
  audit: AuditContext,
): Promise<PhotoView> {
  return transaction(async (tx) => {
    const { pet, row } = await heldPhoto(petId, photoId, tx);
    if (row.alt === alt) return viewOf(row, pet.pet.name);
    const updated = await tx.photo.update({ where: { id: photoId }, data: { alt }, select: columns });
    await recordPhotoChange(tx, pet, audit, { described: photoId });
    return viewOf(updated, pet.pet.name);
  });
}

/**
 * Orders the pet's photos: `order` lists every one of them once (400 naming what is wrong otherwise), or `cover`
 * moves one to the front. An order that changes nothing writes nothing.
 */
export async function orderPhotos(
  petId: bigint,
  change: { order?: bigint[]; cover?: bigint },
  audit: AuditContext,
): Promise<PhotoView[]> {
  return transaction(async (tx) => {
    const pet = await heldPet(petId, {}, tx);
    const rows = await photoRows(petId, tx);
    const current = rows.map((row) => row.id);
    let ids: bigint[];
    if (change.cover !== undefined) {
      const cover = change.cover;
      if (!current.includes(cover)) throw invalidOrder(`cover: pet #${petId} has no photo with id ${cover}`, "cover");
      ids = [cover, ...current.filter((id) => id !== cover)];
    } else {
      ids = change.order!;
      const unknown = ids.find((id) => !current.includes(id));
      if (unknown !== undefined)
        throw invalidOrder(`order: pet #${petId} has no photo with id ${unknown}`, `order.${ids.indexOf(unknown)}`);
      if (new Set(ids).size !== ids.length) throw invalidOrder("order names a photo more than once", "order");
      if (ids.length !== current.length)
        throw invalidOrder(`order must name every photo of the pet (${current.length}), each once`, "order");
    }
    if (ids.every((id, index) => id === current[index])) return rows.map((row) => viewOf(row, pet.pet.name));
    const placed = await renumber(tx, rows, ids);
    await recordPhotoChange(tx, pet, audit, { ordered: ids });
    return placed.map((row) => viewOf(row, pet.pet.name));
  });
}

function invalidOrder(message: string, path: string): Refusal {
  return new Refusal("invalid_body", { message: `Invalid photo order: ${message}.`, errors: [{ path, message }] });
}

/** The cover of each of these pets that has photos: one read of the (pet, position) index. */
export async function coversOf(petIds: bigint[]): Promise<Cover[]> {
  const rows = await db().photo.findMany({
    where: { petId: { in: petIds }, position: 0 },
    select: { petId: true, id: true },
    orderBy: { petId: "asc" },
  });
  return rows.map((row) => ({ petId: row.petId, photoId: row.id }));
}

/** The 404 of a photo that is not one of this pet's, or of a pet not in the catalogue. */
export async function checkPhotoOf(petId: bigint, photoId: bigint): Promise<void> {
  const row = await db().photo.findUnique({ where: { id: photoId }, select: { petId: true } });
  if (row?.petId !== petId || !(await findPet(petId))) throw noSuchPhoto(petId, photoId);
}

/** One size of a photo of a pet in the catalogue; 404 when the pet, the photo or the pair does not exist. */
export async function readPhotoImage(petId: bigint, photoId: bigint, size: PhotoSize): Promise<StoredImage> {
  const image = await photoImages().read(petId, photoId, size);
  if (!image) throw noSuchPhoto(petId, photoId);
  return image;
}
