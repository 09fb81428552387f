import { keyListSchema, newKeyAnswerSchema, revokedKeySchema, type KeyView } from "@/lib/auth/api-key-schema";
import { callFor } from "@/lib/client/admin-api";

// The browser's side of the API keys endpoints (admins only), read with the keys' schemas
// (lib/auth/api-key-schema.ts); a key's id and counts arrive as bigint and are made numbers there.

export type NewKey = KeyView & { key: string };
export type Revoked = { key: KeyView; alreadyRevoked: boolean };

export const keysQueryKey = ["admin", "keys"] as const;

/** Every key, oldest first, with its getPet calls. */
export async function fetchKeys(): Promise<KeyView[]> {
  return (await callFor(keyListSchema, "/admin/api/keys")).body.keys;
}

/** Creates a key; the answer holds the key itself, this once. */
export async function createKey(name: string): Promise<NewKey> {
  const { body } = await callFor(newKeyAnswerSchema, "/admin/api/keys", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name }),
  });
  return body;
}

/** Revokes a key; `alreadyRevoked` when someone did it first (nothing changed then). */
export async function revokeKey(id: number): Promise<Revoked> {
  return (await callFor(revokedKeySchema, `/admin/api/keys/${id}`, { method: "DELETE" })).body;
}
