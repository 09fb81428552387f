import "server-only";
import type { Pet } from "@/lib/pets/schema";
import { petMembers } from "@/lib/pets/schema";

// Pets as JSON, exactly as the generic int64 serialiser (lib/http/json.ts) writes them, for the hot path
// of every read and write: the members are petSchema's, in its order; strings go through the native
// JSON.stringify and int64s are written digit for digit. A unit test holds the two to the same output.

export function stringifyPet(pet: Pet): string {
  let text = "";
  for (const member of petMembers) {
    const value = pet[member];
    if (value === undefined) continue;
    text += `${text ? "," : "{"}"${member}":${typeof value === "bigint" ? value : JSON.stringify(value)}`;
  }
  return `${text}}`;
}

export function stringifyPets(pets: Pet[]): string {
  return `[${pets.map(stringifyPet).join(",")}]`;
}
