import type { FieldError } from "@/lib/http/errors";
import { parseJson, stringifyJson } from "@/lib/http/json";
import type { NewPet, Pet } from "@/lib/pets/schema";

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

async function call(path: string, init: RequestInit = {}): Promise<{ body: unknown; headers: Headers }> {
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

export async function addPet(pet: NewPet): Promise<Pet> {
  const { body } = await call("/admin/api/pets", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: stringifyJson(pet),
  });
  return body as Pet;
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
