import type { KeyView } from "@/lib/auth/api-key-schema";
import { call } from "@/lib/client/admin-api";

// The browser's side of the API keys endpoints (admins only). The JSON parser makes integers bigint
// (lib/client/admin-api.ts); a key's id and counts are small, so they become numbers again here.

export type NewKey = KeyView & { key: string };
export type Revoked = { key: KeyView; alreadyRevoked: boolean };

type Raw = Omit<KeyView, "id" | "getPet"> & {
  id: number | bigint;
  getPet: { last30Days: number | bigint; lastCallAt: string | null };
};

function toView(raw: Raw): KeyView {
  return { ...raw, id: Number(raw.id), getPet: { ...raw.getPet, last30Days: Number(raw.getPet.last30Days) } };
}

export const keysQueryKey = ["admin", "keys"] as const;

/** Every key, oldest first, with its getPet calls. */
export async function fetchKeys(): Promise<KeyView[]> {
  const { body } = await call("/admin/api/keys");
  return (body as { keys: Raw[] }).keys.map(toView);
}

/** Creates a key; the answer holds the key itself, this once. */
export async function createKey(name: string): Promise<NewKey> {
  const { body } = await call("/admin/api/keys", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name }),
  });
  const created = body as Raw & { key: string };
  return { ...toView(created), key: created.key };
}

/** Revokes a key; `alreadyRevoked` when someone did it first (nothing changed then). */
export async function revokeKey(id: number): Promise<Revoked> {
  const { body } = await call(`/admin/api/keys/${id}`, { method: "DELETE" });
  const answer = body as { key: Raw; alreadyRevoked: boolean };
  return { key: toView(answer.key), alreadyRevoked: answer.alreadyRevoked };
}
