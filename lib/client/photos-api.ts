import { z } from "zod";
import { AdminRequestError, call, callFor, newRequestId, refusal } from "@/lib/client/admin-api";
import { parseJson, stringifyJson } from "@/lib/http/json";
import { coverSchema, photoSchema, type Cover, type PhotoView } from "@/lib/photos/schema";

// The browser's side of a pet's photos (app/admin/api/pets/[petId]/photos/…). A pet's photos are cached under
// ["photos", <pet id>] and a catalogue page's covers under ["photos", "covers", <ids>], so that one invalidation of
// PHOTOS_KEY after a change (or a live event of the pet) refreshes both.

export const PHOTOS_KEY = ["photos"] as const;
export type Photo = PhotoView;

export function photosQueryKey(petId: string) {
  return [...PHOTOS_KEY, petId] as const;
}

export function coversQueryKey(petIds: string[]) {
  return [...PHOTOS_KEY, "covers", petIds.join(",")] as const;
}

const photosPath = (petId: string) => `/admin/api/pets/${encodeURIComponent(petId)}/photos`;

/** Where the admin app reads a photo's image in a size (the browser keeps it: its bytes never change). */
export function photoSrc(petId: string | bigint, photoId: string | bigint, size: "thumb" | "medium" | "full") {
  return `${photosPath(String(petId))}/${String(photoId)}?size=${size}`;
}

export async function fetchPhotos(petId: string): Promise<Photo[]> {
  return (await callFor(z.array(photoSchema), photosPath(petId))).body;
}

export async function fetchCovers(petIds: string[]): Promise<Cover[]> {
  if (petIds.length === 0) return [];
  const query = new URLSearchParams({ ids: petIds.join(",") });
  return (await callFor(z.array(coverSchema), `/admin/api/pets/covers?${query}`)).body;
}

/**
 * Uploads one image file, reporting its progress (0 to 1) as it is sent: XMLHttpRequest, since fetch tells nothing
 * of an upload's progress. Refused files reject with the server's AdminRequestError (its message says why).
 */
export function uploadPhoto(petId: string, file: File, onProgress: (sent: number) => void): Promise<Photo> {
  const requestId = newRequestId();
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", photosPath(petId));
    request.setRequestHeader("Content-Type", file.type);
    request.setRequestHeader("X-Request-Id", requestId);
    request.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    request.onerror = () => reject(new AdminRequestError("The server could not be reached.", 0, requestId));
    request.onload = () => {
      let body: unknown;
      try {
        body = request.responseText ? parseJson(request.responseText) : undefined;
      } catch {
        body = undefined;
      }
      const headers = new Headers();
      for (const name of ["x-request-id", "retry-after"]) {
        const value = request.getResponseHeader(name);
        if (value) headers.set(name, value);
      }
      const answer = new Response(null, { status: request.status, headers });
      if (request.status !== 201) return reject(refusal(answer, body, requestId));
      const photo = photoSchema.safeParse(body);
      if (photo.success) resolve(photo.data);
      else reject(new AdminRequestError("The server's answer could not be read; try again.", 201, requestId));
    };
    request.send(file);
  });
}

/** Puts the photos in this order (every one of them, by id); the first is the cover. */
export async function orderPhotos(petId: string, order: bigint[]): Promise<Photo[]> {
  const { body } = await callFor(z.array(photoSchema), photosPath(petId), {
    method: "PATCH",
    headers: { "Content-Type": "application/json" },
    body: stringifyJson({ order }),
  });
  return body;
}

/** Sets a photo's text alternative; null gives it the pet's name. */
export async function describePhoto(petId: string, photoId: bigint, alt: string | null): Promise<Photo> {
  const { body } = await callFor(photoSchema, `${photosPath(petId)}/${photoId}`, {
    method: "PATCH",
    headers: { "Content-Type": "application/json" },
    body: stringifyJson({ alt }),
  });
  return body;
}

export async function deletePhoto(petId: string, photoId: bigint): Promise<void> {
  await call(`${photosPath(petId)}/${photoId}`, { method: "DELETE" });
}
