"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState, type DragEvent } from "react";
import { RequestId } from "@/components/admin/form-fields";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { TextField } from "@/components/ui/field";
import { focusRing } from "@/components/ui/focus-ring";
import { AdminRequestError } from "@/lib/client/admin-api";
import {
  deletePhoto,
  describePhoto,
  fetchPhotos,
  orderPhotos,
  photoSrc,
  photosQueryKey,
  PHOTOS_KEY,
  uploadPhoto,
  type Photo,
} from "@/lib/client/photos-api";
import { MAX_PHOTO_BYTES, PHOTO_TYPES } from "@/lib/photos/limits";
import { ALT_MAX_LENGTH, MAX_PHOTOS_PER_PET } from "@/lib/photos/schema";

// A pet's photos in its panel (issue 25): the cover first, each with its text alternative; adding by picking files
// or dropping them (several at once, each with its progress and, when refused, why); reordering by dragging or with
// Move earlier / Move later; making one the cover; editing its text; deleting after a confirmation. Every change
// goes through /v1 (app/admin/api/pets/[petId]/photos), and the photos are read again after it.

type Upload = { key: string; name: string; progress: number; outcome?: { ok: boolean; message: string } };

/** Why a file is refused before it is sent, in staff words; undefined when it may go. */
function refusedBeforeSending(file: File): string | undefined {
  if (!(PHOTO_TYPES as readonly string[]).includes(file.type)) return "not a JPEG, PNG or WebP image.";
  if (file.size > MAX_PHOTO_BYTES) return `larger than ${MAX_PHOTO_BYTES / 1024 / 1024} MB.`;
  return undefined;
}

function staffWords(error: unknown): string {
  if (!(error instanceof AdminRequestError)) return "it could not be added; try again.";
  if (error.code === "image_too_large") return "it has too many pixels (at most 40 megapixels).";
  if (error.code === "payload_too_large") return `larger than ${MAX_PHOTO_BYTES / 1024 / 1024} MB.`;
  if (error.code === "invalid_image" || error.code === "unsupported_media_type")
    return `not an image this app takes: ${error.message}`;
  if (error.code === "too_many_photos") return `this pet has ${MAX_PHOTOS_PER_PET} photos already.`;
  return error.message;
}

/** `onSaid` tells what was done in the panel's one status line (announced politely), as its other changes do. */
export function PetPhotos({
  petId,
  petName,
  onSaid,
}: {
  petId: string;
  petName: string;
  onSaid: (text: string) => void;
}) {
  const client = useQueryClient();
  const titleId = useId();
  const query = useQuery({ queryKey: photosQueryKey(petId), queryFn: () => fetchPhotos(petId) });
  const photos = query.data ?? [];
  const [uploads, setUploads] = useState<Upload[]>([]);
  const setSaid = onSaid;
  const [deleting, setDeleting] = useState<Photo>();
  const [failure, setFailure] = useState<AdminRequestError>();
  const dragged = useRef<bigint>(undefined);

  // A moved photo's button keeps the focus: React moves the list item, which the browser does not keep focused. The
  // control to focus is named before the change is sent, and focused once the photos have been read again.
  const focusAfter = useRef<string>(undefined);
  useEffect(() => {
    const target = focusAfter.current;
    if (!target) return;
    focusAfter.current = undefined;
    document.getElementById(target)?.focus();
  }, [query.data]);

  const refresh = (fresh?: Photo[]) => {
    if (fresh) client.setQueryData(photosQueryKey(petId), fresh);
    void client.invalidateQueries({ queryKey: PHOTOS_KEY }); // the catalogue's covers too
  };
  const failed = (error: unknown) => {
    focusAfter.current = undefined; // nothing moved: the focus stays where it is, and no later refetch takes it
    setFailure(error instanceof AdminRequestError ? error : undefined);
  };

  const order = useMutation({
    mutationFn: (ids: bigint[]) => orderPhotos(petId, ids),
    onSuccess: (fresh) => refresh(fresh),
    onError: failed,
  });
  const removal = useMutation({
    mutationFn: (photo: Photo) => deletePhoto(petId, photo.id),
    onSuccess: () => {
      setSaid("The photo was deleted.");
      setDeleting(undefined);
      refresh();
    },
    onError: failed,
  });

  const move = (photo: Photo, to: number, button: string) => {
    const ids = photos.map((each) => each.id).filter((id) => id !== photo.id);
    ids.splice(to, 0, photo.id);
    setFailure(undefined);
    focusAfter.current = `${titleId}-${photo.id}-${button}`;
    order.mutate(ids, {
      onSuccess: () => setSaid(to === 0 ? "It is the cover now." : `Moved to place ${to + 1} of ${ids.length}.`),
    });
  };

  const add = async (files: File[]) => {
    setFailure(undefined);
    const room = MAX_PHOTOS_PER_PET - photos.length;
    const batch = files.map((file, index) => ({ file, key: `${Date.now()}-${index}-${file.name}` }));
    setUploads(batch.map(({ file, key }) => ({ key, name: file.name, progress: 0 })));
    const settle = (key: string, change: Partial<Upload>) =>
      setUploads((all) => all.map((upload) => (upload.key === key ? { ...upload, ...change } : upload)));
    let added = 0;
    for (const [index, { file, key }] of batch.entries()) {
      const before = index >= room ? `this pet has ${MAX_PHOTOS_PER_PET} photos already.` : refusedBeforeSending(file);
      if (before) {
        settle(key, { outcome: { ok: false, message: `Not added: ${before}` } });
        continue;
      }
      try {
        await uploadPhoto(petId, file, (progress) => settle(key, { progress }));
        settle(key, { progress: 1, outcome: { ok: true, message: "Added." } });
        added++;
      } catch (error) {
        settle(key, { outcome: { ok: false, message: `Not added: ${staffWords(error)}` } });
      }
    }
    setSaid(`${added} of ${files.length} photo${files.length === 1 ? "" : "s"} added.`);
    refresh();
  };

  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    if (event.dataTransfer.files.length > 0) void add([...event.dataTransfer.files]);
  };

  const busy = order.isPending || removal.isPending;
  return (
    <section aria-labelledby={titleId} className="mt-5 border-t border-slate-200 pt-4" data-testid="pet-photos">
      <h3 id={titleId} className="text-sm font-semibold">
        Photos{" "}
        <span className="font-normal text-slate-600">
          ({photos.length} of {MAX_PHOTOS_PER_PET})
        </span>
      </h3>
      {query.isError ? (
        <Alert className="mt-2">
          <p>The photos could not be loaded.</p>
          <Button className="mt-2" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : null}
      {failure ? (
        <Alert className="mt-2">
          <p>{failure.message}</p>
          <RequestId id={failure.requestId} />
        </Alert>
      ) : null}

      {/* The same line while they load: nothing below moves when they come. */}
      {query.isPending ? <p className="mt-2 text-sm text-slate-600">Loading the photos…</p> : null}
      {photos.length === 0 && query.isSuccess ? (
        <p className="mt-2 text-sm text-slate-600">No photos yet: the catalogue shows a placeholder.</p>
      ) : null}
      <ol className="mt-2 grid gap-3" aria-label={`Photos of ${petName}, the cover first`}>
        {photos.map((photo, index) => (
          <li
            key={String(photo.id)}
            onDragOver={(event) => event.preventDefault()}
            onDrop={(event) => {
              event.preventDefault(); // a file dropped here is added, never opened by the browser
              if (event.dataTransfer.files.length > 0) return void add([...event.dataTransfer.files]);
              const from = photos.find((each) => each.id === dragged.current);
              dragged.current = undefined;
              if (from && from.id !== photo.id) move(from, index, "earlier");
            }}
            className="rounded-md border border-slate-200 p-2"
            data-testid="pet-photo"
          >
            <PhotoItem
              photo={photo}
              place={index}
              count={photos.length}
              idPrefix={`${titleId}-${photo.id}`}
              busy={busy}
              petId={petId}
              onMove={move}
              onDragStart={() => (dragged.current = photo.id)}
              onDelete={() => setDeleting(photo)}
              onDescribed={(fresh) => {
                setSaid("The photo's text was saved.");
                refresh(photos.map((each) => (each.id === fresh.id ? fresh : each)));
              }}
            />
          </li>
        ))}
      </ol>

      <div
        onDragOver={(event) => event.preventDefault()}
        onDrop={onDrop}
        className="mt-3 rounded-md border-2 border-dashed border-slate-300 p-3 text-sm"
        data-testid="photo-drop"
      >
        <label htmlFor={`${titleId}-add`} className="font-medium">
          Add photos
        </label>
        <p id={`${titleId}-add-hint`} className="text-xs text-slate-600">
          JPEG, PNG or WebP, up to {MAX_PHOTO_BYTES / 1024 / 1024} MB each; pick several, or drop them here.
        </p>
        <input
          id={`${titleId}-add`}
          type="file"
          multiple
          accept={PHOTO_TYPES.join(",")}
          aria-describedby={`${titleId}-add-hint`}
          disabled={photos.length >= MAX_PHOTOS_PER_PET}
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = ""; // the same file may be picked again
            if (files.length > 0) void add(files);
          }}
          className={
            "mt-2 block min-h-11 w-full text-sm file:mr-3 file:min-h-11 file:rounded-md file:border " +
            `file:border-slate-300 file:bg-white file:px-3 ${focusRing}`
          }
        />
      </div>
      {uploads.length > 0 ? (
        <ul className="mt-2 grid gap-1 text-sm" aria-label="Photos being added" data-testid="photo-uploads">
          {uploads.map((upload) => (
            <li key={upload.key} className="break-all">
              <span className="font-medium">{upload.name}</span>:{" "}
              {upload.outcome ? (
                <span className={upload.outcome.ok ? "text-emerald-800" : "text-red-700"}>
                  {upload.outcome.message}
                </span>
              ) : (
                <progress
                  max={1}
                  value={upload.progress}
                  aria-label={`Sending ${upload.name}`}
                  className="h-2 w-32 align-middle"
                />
              )}
            </li>
          ))}
        </ul>
      ) : null}

      <ConfirmDialog
        open={deleting !== undefined}
        idPrefix="delete-photo"
        size="small"
        title="Delete this photo?"
        description={
          deleting?.position === 0 && photos.length > 1
            ? "It is the cover: the next photo becomes the cover. This cannot be undone."
            : "This cannot be undone."
        }
        confirmLabel="Delete photo"
        pendingLabel="Deleting…"
        pending={removal.isPending}
        onConfirm={() => {
          if (!deleting) return;
          focusAfter.current = `${titleId}-add`; // the deleted photo's controls are gone
          removal.mutate(deleting);
        }}
        onCancel={() => setDeleting(undefined)}
      />
    </section>
  );
}

function PhotoItem({
  photo,
  place,
  count,
  idPrefix,
  busy,
  petId,
  onMove,
  onDragStart,
  onDelete,
  onDescribed,
}: {
  photo: Photo;
  place: number;
  count: number;
  idPrefix: string;
  busy: boolean;
  petId: string;
  onMove: (photo: Photo, to: number, button: string) => void;
  /** The picture is the handle: dropped on another photo, it takes that photo's place. */
  onDragStart: () => void;
  onDelete: () => void;
  onDescribed: (photo: Photo) => void;
}) {
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  // Saved or cancelled, the form goes: the focus goes back to the button that opened it, once it is there again.
  const refocus = useRef(false);
  const closeEditor = () => {
    refocus.current = true;
    setEditing(false);
  };
  useEffect(() => {
    if (editing || !refocus.current) return;
    refocus.current = false;
    editButton.current?.focus();
  }, [editing]);
  const description = useMutation({
    mutationFn: (alt: string | null) => describePhoto(petId, photo.id, alt),
    onSuccess: (fresh) => {
      closeEditor();
      onDescribed(fresh);
    },
  });
  const act = (run: () => void) => () => !busy && run();
  return (
    <div className="flex flex-wrap items-start gap-3">
      {/* eslint-disable-next-line @next/next/no-img-element -- an endpoint's image, sized here: no optimiser */}
      <img
        src={photoSrc(petId, photo.id, "thumb")}
        alt={photo.alt}
        width={96}
        height={96}
        loading="lazy"
        draggable
        onDragStart={onDragStart}
        className="size-24 shrink-0 cursor-grab rounded bg-slate-100 object-cover"
      />
      <div className="min-w-0 flex-1 basis-40 text-sm">
        <p className="font-medium">
          {place === 0 ? "Cover" : `Photo ${place + 1} of ${count}`}
          <span className="font-normal text-slate-600">
            {" "}
            · {photo.width} × {photo.height}
          </span>
        </p>
        <p className="break-words text-slate-700" data-testid="photo-alt">
          {photo.alt}
        </p>
        {editing ? (
          <form
            className="mt-2"
            onSubmit={(event) => {
              event.preventDefault();
              const value = new FormData(event.currentTarget).get("alt");
              const text = typeof value === "string" ? value.trim() : "";
              description.mutate(text === "" ? null : text);
            }}
          >
            <TextField
              id={`${idPrefix}-alt`}
              name="alt"
              label="Text read in the photo's place"
              hint="Empty uses the pet's name."
              defaultValue={photo.alt}
              maxLength={ALT_MAX_LENGTH}
              errors={description.error ? [description.error.message] : undefined}
              // eslint-disable-next-line jsx-a11y/no-autofocus -- the field the Edit text button opened
              autoFocus
            />
            <div className="mt-2 flex flex-wrap gap-2">
              <Button type="submit" variant="primary" aria-disabled={description.isPending}>
                Save text
              </Button>
              <Button onClick={closeEditor}>Cancel</Button>
            </div>
          </form>
        ) : null}
        <div className="mt-2 flex flex-wrap gap-2">
          {place > 0 ? (
            <Button id={`${idPrefix}-cover`} aria-disabled={busy} onClick={act(() => onMove(photo, 0, "earlier"))}>
              Make cover
            </Button>
          ) : null}
          <Button
            id={`${idPrefix}-earlier`}
            aria-disabled={busy || place === 0}
            aria-label={`Move photo ${place + 1} earlier`}
            onClick={act(() => place > 0 && onMove(photo, place - 1, "earlier"))}
          >
            Earlier
          </Button>
          <Button
            id={`${idPrefix}-later`}
            aria-disabled={busy || place === count - 1}
            aria-label={`Move photo ${place + 1} later`}
            onClick={act(() => place < count - 1 && onMove(photo, place + 1, "later"))}
          >
            Later
          </Button>
          {editing ? null : (
            <Button ref={editButton} onClick={() => setEditing(true)}>
              Edit text
            </Button>
          )}
          <Button variant="dangerOutline" aria-haspopup="dialog" aria-disabled={busy} onClick={act(onDelete)}>
            Delete…
          </Button>
        </div>
      </div>
    </div>
  );
}
