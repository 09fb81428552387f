import type { QueryClient, QueryKey } from "@tanstack/react-query";
import type { PetPage, VersionedPet } from "@/lib/client/admin-api";
import type { Pet, PetPatch } from "@/lib/pets/schema";

// The admin app's cached copies of pets: every catalogue page under ["pets", <listPets query>] and each open pet
// under ["pet", <id>], with the ETag it was read in. A change is shown in all of them at once, and taken back
// from a snapshot when the server refuses it. The counts live under ["pets", "counts", <query>], so whatever
// refetches the pages after a change refetches the counts too.

export const PETS_KEY = ["pets"] as const;

export function petCountsQueryKey(query: string) {
  return [...PETS_KEY, "counts", query] as const;
}

/** Whether a cached entry under PETS_KEY is a page (the counts are there too). */
function isPage(data: unknown): data is PetPage {
  return typeof data === "object" && data !== null && Array.isArray((data as { pets?: unknown }).pets);
}

export function petQueryKey(id: string) {
  return ["pet", id] as const;
}

/** A pet with a merge patch applied, as the server will apply it: `status: null` removes the status. */
export function applyPatch(pet: Pet, patch: PetPatch): Pet {
  const { status, ...rest } = pet;
  const next: Pet = {
    ...rest,
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.categoryId !== undefined ? { categoryId: patch.categoryId } : {}),
  };
  const nextStatus = patch.status === undefined ? status : (patch.status ?? undefined);
  return nextStatus ? { ...next, status: nextStatus } : next;
}

/** The pet as some cached catalogue page shows it, to show while the pet itself loads. */
export function petFromPages(client: QueryClient, id: string): Pet | undefined {
  for (const [, page] of client.getQueriesData<PetPage>({ queryKey: PETS_KEY })) {
    if (!isPage(page)) continue;
    const pet = page.pets.find((candidate) => String(candidate.id) === id);
    if (pet) return pet;
  }
  return undefined;
}

/** Rewrites the pet on every cached page that shows it (`change` returning undefined removes it). */
export function changePetInPages(client: QueryClient, id: string, change: (pet: Pet) => Pet | undefined): void {
  client.setQueriesData<PetPage>({ queryKey: PETS_KEY }, (page) => {
    if (!isPage(page) || !page.pets.some((pet) => String(pet.id) === id)) return page;
    const pets = page.pets.flatMap((pet) => {
      if (String(pet.id) !== id) return [pet];
      const changed = change(pet);
      return changed ? [changed] : [];
    });
    return { ...page, pets };
  });
}

export type PetSnapshot = { pages: [QueryKey, PetPage | undefined][]; pet?: VersionedPet };

/** Everything a change of this pet may rewrite, to put back if the server refuses the change. */
export async function snapshotPet(client: QueryClient, id: string): Promise<PetSnapshot> {
  // A fetch still under way would overwrite the change shown with what it read before.
  await client.cancelQueries({ queryKey: PETS_KEY });
  await client.cancelQueries({ queryKey: petQueryKey(id) });
  return {
    pages: client.getQueriesData<PetPage>({ queryKey: PETS_KEY }),
    pet: client.getQueryData<VersionedPet>(petQueryKey(id)),
  };
}

export function restoreSnapshot(client: QueryClient, id: string, snapshot: PetSnapshot): void {
  for (const [key, page] of snapshot.pages) client.setQueryData(key, page);
  if (snapshot.pet) client.setQueryData(petQueryKey(id), snapshot.pet);
}
