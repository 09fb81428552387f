import { z } from "zod";
import { errorAnswerSchema, type FieldError } from "@/lib/http/errors";
import { petBatchResultSchema, type PetBatch, type PetBatchResult } from "@/lib/pets/batch-schema";
import { parseJson, stringifyJson } from "@/lib/http/json";
import {
  petCountsAnswerSchema,
  petSchema,
  type NewPet,
  type Pet,
  type PetCounts,
  type PetPatch,
} from "@/lib/pets/schema";

// The browser's side of the admin endpoints. Bodies are /v1's own, with ids as JSON integers: they are
// parsed with the same int64-exact parser the server uses (integers become bigint), so no id loses
// digits. Every request carries a request id chosen here, so even a failure without an answer has one. An answer
// is read with its resource's zod schema: one that does not fit is a failure like a refused request.

export class AdminRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly requestId: string,
    readonly code?: string,
    readonly errors?: FieldError[],
    /** Retry-After, in seconds, when the answer had one (429). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** A request id; crypto.randomUUID needs a secure context, getRandomValues does not. */
export function newRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `admin-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

export async function call(path: string, init: RequestInit = {}): Promise<{ body: unknown; headers: Headers }> {
  const requestId = newRequestId();
  let response: Response;
  try {
    response = await fetch(path, {
      ...init,
      headers: { ...init.headers, "X-Request-Id": requestId },
      credentials: "same-origin",
      cache: "no-store",
    });
  } catch {
    throw new AdminRequestError("The server could not be reached.", 0, requestId);
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? parseJson(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!response.ok) throw refusal(response, body, requestId);
  return { body, headers: response.headers };
}

/** The AdminRequestError of a refused request, with what its Error body says when it has one. */
export function refusal(response: Response, body: unknown, requestId = ""): AdminRequestError {
  const error = errorAnswerSchema.safeParse(body).data ?? {};
  return new AdminRequestError(
    error.message ?? `The server answered ${response.status}.`,
    response.status,
    response.headers.get("x-request-id") ?? requestId,
    error.code,
    error.errors,
    Number(response.headers.get("retry-after")) || undefined,
  );
}

/** Calls an endpoint and reads its answer with `schema`. */
export async function callFor<Schema extends z.ZodType>(
  schema: Schema,
  path: string,
  init?: RequestInit,
): Promise<{ body: z.output<Schema>; headers: Headers }> {
  const { body, headers } = await call(path, init);
  const result = schema.safeParse(body);
  if (!result.success) {
    throw new AdminRequestError(
      "The server's answer could not be read; try again.",
      200,
      headers.get("x-request-id") ?? "",
      "invalid_answer",
    );
  }
  return { body: result.data, headers };
}

/** A 401 `session_required`: the staff session ended (signed out elsewhere, expired, account disabled). */
export function isSessionEnded(error: unknown): error is AdminRequestError {
  return error instanceof AdminRequestError && error.status === 401 && error.code === "session_required";
}

export type PetPage = { pets: Pet[]; nextCursor?: string };

/** One page of the catalogue; `query` is listPets' query string. */
export async function fetchPetPage(query: string): Promise<PetPage> {
  const { body, headers } = await callFor(z.array(petSchema), `/admin/api/pets?${query}`);
  return { pets: body, nextCursor: headers.get("x-next-cursor") ?? undefined };
}

/** How many pets there are, by status, matching the search when `query` has one (countPets' query string). */
export async function fetchPetCounts(query: string): Promise<PetCounts> {
  const { body } = await callFor(petCountsAnswerSchema, `/admin/api/pets/counts${query ? `?${query}` : ""}`);
  return body;
}

/** A pet with the ETag of the state it was read in: what a change sends back as If-Match. */
export type VersionedPet = { pet: Pet; etag: string };

function versioned({ body, headers }: { body: Pet; headers: Headers }): VersionedPet {
  return { pet: body, etag: headers.get("etag") ?? "" };
}

/**
 * Adds a pet. `idempotencyKey` is chosen once per submission of the form (a retry or a second click sends the
 * same one), so the server makes the pet at most once.
 */
export async function addPet(pet: NewPet, idempotencyKey: string): Promise<VersionedPet> {
  return versioned(
    await callFor(petSchema, "/admin/api/pets", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": idempotencyKey },
      body: stringifyJson(pet),
    }),
  );
}

/** A new Idempotency-Key; like the request id, from getRandomValues, which needs no secure context. */
export function newIdempotencyKey(): string {
  return newRequestId().replace(/^admin-/, "add-");
}

/** One pet and its ETag (read without the deprecated getPet, so the admin app outlives its sunset). */
export async function fetchPet(id: bigint | string): Promise<VersionedPet> {
  return versioned(await callFor(petSchema, `/admin/api/pets/${String(id)}`));
}

/**
 * Changes a pet (a JSON Merge Patch: `status: null` removes the status). With `etag`, only if the pet is still
 * in that state: otherwise an AdminRequestError with status 412 and code `precondition_failed`.
 */
export async function updatePet(id: bigint | string, patch: PetPatch, etag?: string): Promise<VersionedPet> {
  return versioned(
    await callFor(petSchema, `/admin/api/pets/${String(id)}`, {
      method: "PATCH",
      headers: { "Content-Type": "application/merge-patch+json", ...(etag ? { "If-Match": etag } : {}) },
      body: stringifyJson(patch),
    }),
  );
}

/** Deletes a pet; with `etag`, only if it is still in that state (else 412 `precondition_failed`). */
export async function deletePet(id: bigint | string, etag?: string): Promise<void> {
  await call(`/admin/api/pets/${String(id)}`, { method: "DELETE", headers: etag ? { "If-Match": etag } : {} });
}

/**
 * Brings back a pet deleted less than a minute ago, as it was (same id and members): the Undo of a deletion. 409
 * `pet_exists` when it is back already, 409 `restore_too_late` after the minute.
 */
export async function restorePet(id: bigint | string): Promise<VersionedPet> {
  return versioned(await callFor(petSchema, `/admin/api/pets/${String(id)}/restore`, { method: "POST" }));
}

/**
 * One change to many pets (batchPets), atomic: all of them or, with 409 `batch_refused`, none, its `errors[]` naming
 * each pet in the way by its place in `ids` (`ids.3`).
 */
export async function batchPets(batch: PetBatch): Promise<PetBatchResult> {
  const { body } = await callFor(petBatchResultSchema, "/admin/api/pets/batch", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: stringifyJson(batch),
  });
  return body;
}

export async function signIn(email: string, password: string): Promise<void> {
  await call("/admin/api/session", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
}

export async function signOut(): Promise<void> {
  await call("/admin/api/session", { method: "DELETE" });
}
