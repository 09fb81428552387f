import type { FieldError } from "@/lib/http/errors";
import { parseJson, stringifyJson } from "@/lib/http/json";
import type { NewPet, Pet, PetCounts, PetPatch } from "@/lib/pets/schema";

// The browser's side of the admin endpoints. Bodies are /v1's own, with ids as JSON integers: they are
// parsed with the same int64-exact parser the server uses (integers become bigint), so no id loses
// digits. Every request carries a request id chosen here, so even a failure without an answer has one.

export class AdminRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly requestId: string,
    readonly code?: string,
    readonly errors?: FieldError[],
  ) {
    super(message);
  }
}

/** A request id; crypto.randomUUID needs a secure context, getRandomValues does not. */
function newRequestId(): string {
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
  if (!response.ok) {
    const error = (body ?? {}) as { code?: unknown; message?: unknown; errors?: unknown };
    throw new AdminRequestError(
      typeof error.message === "string" ? error.message : `The server answered ${response.status}.`,
      response.status,
      response.headers.get("x-request-id") ?? requestId,
      typeof error.code === "string" ? error.code : undefined,
      Array.isArray(error.errors) ? (error.errors as FieldError[]) : undefined,
    );
  }
  return { body, headers: response.headers };
}

export type PetPage = { pets: Pet[]; nextCursor?: string };

/** One page of the catalogue; `query` is listPets' query string. */
export async function fetchPetPage(query: string): Promise<PetPage> {
  const { body, headers } = await call(`/admin/api/pets?${query}`);
  return { pets: body as Pet[], nextCursor: headers.get("x-next-cursor") ?? undefined };
}

/** How many pets there are, by status, matching the search when `query` has one (countPets' query string). */
export async function fetchPetCounts(query: string): Promise<PetCounts> {
  const { body } = await call(`/admin/api/pets/counts${query ? `?${query}` : ""}`);
  // The int64-exact parser reads the counts as bigint; they are far below 2^53.
  const { total, byStatus, exact } = body as { total: bigint; byStatus: Record<string, bigint>; exact: boolean };
  return {
    total: Number(total),
    byStatus: {
      available: Number(byStatus.available),
      pending: Number(byStatus.pending),
      sold: Number(byStatus.sold),
      none: Number(byStatus.none),
    },
    exact,
  };
}

/** A pet with the ETag of the state it was read in: what a change sends back as If-Match. */
export type VersionedPet = { pet: Pet; etag: string };

function versioned(body: unknown, headers: Headers): VersionedPet {
  return { pet: body as Pet, etag: headers.get("etag") ?? "" };
}

/**
 * Adds a pet. `idempotencyKey` is chosen once per submission of the form (a retry or a second click sends the
 * same one), so the server makes the pet at most once.
 */
export async function addPet(pet: NewPet, idempotencyKey: string): Promise<VersionedPet> {
  const { body, headers } = await call("/admin/api/pets", {
    method: "POST",
    headers: { "Content-Type": "application/json", "Idempotency-Key": idempotencyKey },
    body: stringifyJson(pet),
  });
  return versioned(body, headers);
}

/** A new Idempotency-Key; like the request id, from getRandomValues, which needs no secure context. */
export function newIdempotencyKey(): string {
  return newRequestId().replace(/^admin-/, "add-");
}

/** One pet and its ETag (read without the deprecated getPet, so the admin app outlives its sunset). */
export async function fetchPet(id: bigint | string): Promise<VersionedPet> {
  const { body, headers } = await call(`/admin/api/pets/${String(id)}`);
  return versioned(body, headers);
}

/**
 * Changes a pet (a JSON Merge Patch: `status: null` removes the status). With `etag`, only if the pet is still
 * in that state: otherwise an AdminRequestError with status 412 and code `precondition_failed`.
 */
export async function updatePet(id: bigint | string, patch: PetPatch, etag?: string): Promise<VersionedPet> {
  const { body, headers } = await call(`/admin/api/pets/${String(id)}`, {
    method: "PATCH",
    headers: { "Content-Type": "application/merge-patch+json", ...(etag ? { "If-Match": etag } : {}) },
    body: stringifyJson(patch),
  });
  return versioned(body, headers);
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
  const { body, headers } = await call(`/admin/api/pets/${String(id)}/restore`, { method: "POST" });
  return versioned(body, headers);
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
