import { isInteger, parse, stringify } from "lossless-json";

// JSON with int64 kept exact: JavaScript numbers round past 2^53, so integer literals are read as bigint
// and bigints are written back as plain JSON integers. Other numbers stay ordinary numbers. The server
// and the admin app's browser code both read and write bodies with these.

/**
 * How deeply arrays and objects may nest in JSON this code parses. A pet is one level; the parser
 * recurses once per level, so text nested deeper is refused by a scan before it is parsed, never by
 * a stack overflow (which Node before 20.20 cannot even catch: CVE-2025-59466).
 */
export const MAX_JSON_DEPTH = 64;

/** JSON text nested deeper than MAX_JSON_DEPTH, refused unparsed. */
export class JsonTooDeepError extends Error {
  constructor() {
    super(`JSON nested more than ${MAX_JSON_DEPTH} levels deep is not parsed`);
    this.name = "JsonTooDeepError";
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Follows the nesting depth of JSON text fed to it in pieces, in one pass and without recursion:
 * brackets inside strings (escaped quotes included) do not count. It does not validate: a close with
 * nothing open is ignored (the parser refuses that text anyway). Pieces may be strings or UTF-8
 * bytes, mixed freely within a text: every character it looks at is ASCII, and no byte of a multi-byte
 * UTF-8 character is.
 */
export class JsonDepthGauge {
  private depth = 0;
  private inString = false;
  private escaped = false;

  constructor(readonly limit = MAX_JSON_DEPTH) {}

  /** Feeds the next piece of the text; false once the text has nested deeper than the limit. */
  feed(piece: string | Uint8Array): boolean {
    const length = piece.length;
    for (let index = 0; index < length; index++) {
      const unit = typeof piece === "string" ? piece.charCodeAt(index) : piece[index];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (unit === BACKSLASH) this.escaped = true;
        else if (unit === QUOTE) this.inString = false;
      } else if (unit === QUOTE) {
        this.inString = true;
      } else if (unit === OPEN_ARRAY || unit === OPEN_OBJECT) {
        if (++this.depth > this.limit) return false;
      } else if ((unit === CLOSE_ARRAY || unit === CLOSE_OBJECT) && this.depth > 0) {
        this.depth--;
      }
    }
    return true;
  }
}

function parseNumber(literal: string): bigint | number {
  return isInteger(literal) ? BigInt(literal) : Number(literal);
}

/**
 * Parses JSON text; integer literals become bigint. Throws on malformed JSON, on duplicate keys, and
 * with JsonTooDeepError, before parsing anything, on text nested deeper than MAX_JSON_DEPTH.
 */
export function parseJson(text: string): unknown {
  if (!new JsonDepthGauge().feed(text)) throw new JsonTooDeepError();
  return parse(text, null, parseNumber);
}

/** Serialises a value; bigints become plain JSON integers, digit for digit. */
export function stringifyJson(value: unknown): string {
  return stringify(value) ?? "null";
}
