import "server-only";
import { db, type Transaction } from "@/lib/db/client";
import type { EncodedImage, PhotoSize } from "@/lib/photos/image";

// Where the bytes of photos live: the one door to them (docs/decisions/023). The database's own table, PhotoImage,
// on SQLite and PostgreSQL alike, so that every instance on one PostgreSQL serves every photo with no new server.
// Moving them to an object store is one new implementation of PhotoImages: `put` would upload before the
// transaction commits (and the orphan left by a rollback be swept by housekeeping), `read` stream from the store.

export type StoredImage = { contentType: string; width: number; height: number; data: Uint8Array };

export type PhotoImages = {
  /** Writes a photo's sizes, in the transaction that records the photo. */
  put(tx: Transaction, photoId: bigint, images: EncodedImage[]): Promise<void>;
  /**
   * One size of one photo of `petId`, a pet in the catalogue (undefined otherwise): only that size is read, never the
   * photo's other sizes nor other photos.
   */
  read(petId: bigint, photoId: bigint, size: PhotoSize): Promise<StoredImage | undefined>;
  /** Removes every size of these photos, in the transaction that removes them. */
  remove(tx: Transaction, photoIds: bigint[]): Promise<void>;
};

export const databaseImages: PhotoImages = {
  async put(tx, photoId, images) {
    for (const { size, contentType, width, height, data } of images)
      await tx.photoImage.create({
        data: { photoId, size, contentType, width, height, data: new Uint8Array(data) },
        select: { photoId: true },
      });
  },
  // One statement with the photo's and the pet's checks: a catalogue page's thumbnails are one lookup each.
  async read(petId, photoId, size) {
    const [row] = await db().$queryRaw<{ content_type: string; width: number; height: number; data: Uint8Array }[]>`
      SELECT i.content_type, i.width, i.height, i.data FROM photo_images i JOIN photos p ON p.id = i.photo_id
      WHERE i.photo_id = ${photoId} AND i.size = ${size} AND p.pet_id = ${petId}
      AND EXISTS (SELECT 1 FROM pets WHERE pets.id = p.pet_id)`;
    return row && { contentType: row.content_type, width: row.width, height: row.height, data: row.data };
  },
  async remove(tx, photoIds) {
    if (photoIds.length > 0) await tx.photoImage.deleteMany({ where: { photoId: { in: photoIds } } });
  },
};

/** The store's photo images: the database's, until an operator's object store replaces it here. */
export function photoImages(): PhotoImages {
  return databaseImages;
}
