import { isInteger, parse, stringify } from "lossless-json";

// JSON with int64 kept exact: JavaScript numbers round past 2^53, so integer literals are read as bigint
// and bigints are written back as plain JSON integers. Other numbers stay ordinary numbers. The server
// and the admin app's browser code both read and write bodies with these.

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
