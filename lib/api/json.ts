import { isInteger, parse, stringify } from "lossless-json";
import type { Pet } from "@/lib/schemas/pet";

// JSON with int64 kept exact: JavaScript numbers round past 2^53, so integer literals are read as bigint
// and bigints are written back as plain JSON integers. Other numbers stay ordinary numbers.

function parseNumber(literal: string): bigint | number {
  return isInteger(literal) ? BigInt(literal) : Number(literal);
}

/** Parses JSON text; integer literals become bigint. Throws on malformed JSON and on duplicate keys. */
export function parseJson(text: string): unknown {
  return parse(text, null, parseNumber);
}

/** Serialises a value; bigints become plain JSON integers, digit for digit. */
export function stringifyJson(value: unknown): string {
  return stringify(value) ?? "null";
}

/**
 * A pet as JSON, exactly as stringifyJson writes it, for the hot path of every read: the members are
 * known, so strings go through the native JSON.stringify and the int64s are written as they are.
 */
export function stringifyPet(pet: Pet): string {
  const status = pet.status === undefined ? "" : `,"status":${JSON.stringify(pet.status)}`;
  return `{"id":${pet.id},"name":${JSON.stringify(pet.name)},"categoryId":${pet.categoryId}${status}}`;
}

export function stringifyPets(pets: Pet[]): string {
  return `[${pets.map(stringifyPet).join(",")}]`;
}
