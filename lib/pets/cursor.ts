import { INT64_MAX, INT64_MIN } from "@/lib/http/int64";
import type { Pet, PetSort, PetStatus } from "@/lib/pets/schema";

// The list's cursor, in one place: an opaque token for "the pets after this one, in this order", how it travels
// in a `Link: <…>; rel="next"` header (RFC 8288), and how that header is read back. listPets writes both; the
// admin app reads the header to give the browser its Next button, and checks a cursor's shape before putting
// one from its own URL into a request. Browser-safe: no Node APIs.
//
// A cursor is the keyset position of the page's last pet: its sort key and id. Oldest-first cursors keep the
// spelling they had before listPets could sort ("p1:<id>"), so a cursor issued then still continues its list;
// the other orders write "p2:<sort>:<id>" and, for name orders, ":<name>" (the name as it is, UTF-8), for status
// orders ":<status>" ("none" for a pet without one), for category orders ":<categoryId>".

/**
 * Where a page ends: the order it is in, the last pet's id and its key in that order: its name, its status (null
 * for none) or its categoryId.
 */
export type CursorPosition = {
  sort: PetSort;
  id: bigint;
  name?: string;
  status?: PetStatus | null;
  categoryId?: bigint;
};

/** The position of `pet` in the order `sort`: its id and the one member the order sorts by. */
export function positionOf(sort: PetSort, pet: Pick<Pet, "id" | "name" | "status" | "categoryId">): CursorPosition {
  const key = sort.replace("-", "");
  if (key === "name") return { sort, id: pet.id, name: pet.name };
  if (key === "status") return { sort, id: pet.id, status: pet.status ?? null };
  if (key === "category") return { sort, id: pet.id, categoryId: pet.categoryId };
  return { sort, id: pet.id };
}

/** What every cursor this API issues looks like (a 200-character name fits); the server's decode is the check. */
export const CURSOR_PATTERN = /^[A-Za-z0-9_-]{1,1200}$/;

function toBase64Url(text: string): string {
  const binary = Array.from(new TextEncoder().encode(text), (byte) => String.fromCharCode(byte)).join("");
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(cursor: string): string | undefined {
  try {
    const binary = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

const SORTED = /^p2:(-id|name|-name|status|-status|category|-category):([1-9][0-9]{0,18})(?::([^]*))?$/;
const STATUS_KEY = /^(available|pending|sold|none)$/;
const CATEGORY_KEY = /^-?(0|[1-9][0-9]{0,18})$/;

/** The cursor's key in its order: the name, the status or the categoryId; none in id orders. */
function keyText(position: CursorPosition): string | undefined {
  switch (position.sort.replace("-", "")) {
    case "name":
      return position.name ?? "";
    case "status":
      return position.status ?? "none";
    case "category":
      return String(position.categoryId ?? "");
    default:
      return undefined;
  }
}

/** The cursor of the pets after this position. */
export function encodeCursor(position: CursorPosition): string {
  const { sort, id } = position;
  if (sort === "id") return toBase64Url(`p1:${id}`);
  const key = keyText(position);
  return toBase64Url(`p2:${sort}:${id}${key === undefined ? "" : `:${key}`}`);
}

/** The position of a "p2:" cursor's parts, or undefined when its key is not one its order has. */
function sortedPosition(sort: PetSort, id: bigint, key: string | undefined): CursorPosition | undefined {
  switch (sort.replace("-", "")) {
    case "name":
      return key ? { sort, id, name: key } : undefined;
    case "status":
      if (key === undefined || !STATUS_KEY.test(key)) return undefined;
      return { sort, id, status: key === "none" ? null : (key as PetStatus) };
    case "category": {
      if (key === undefined || !CATEGORY_KEY.test(key)) return undefined;
      const categoryId = BigInt(key);
      return categoryId >= INT64_MIN && categoryId <= INT64_MAX ? { sort, id, categoryId } : undefined;
    }
    default:
      return key === undefined ? { sort, id } : undefined;
  }
}

/** The position a cursor stands for, or undefined when it is not one this API issued. */
export function decodeCursor(cursor: string): CursorPosition | undefined {
  if (!CURSOR_PATTERN.test(cursor)) return undefined;
  const text = fromBase64Url(cursor);
  if (text === undefined) return undefined;
  let position: CursorPosition | undefined;
  const oldest = /^p1:([1-9][0-9]{0,18})$/.exec(text);
  const sorted = SORTED.exec(text);
  if (oldest) position = { sort: "id", id: BigInt(oldest[1]) };
  else if (sorted) {
    const [, sort, digits, key] = sorted as unknown as [string, PetSort, string, string | undefined];
    position = sortedPosition(sort, BigInt(digits), key);
  }
  // Only the canonical spelling is accepted, so each page has exactly one cursor.
  return position && position.id <= INT64_MAX && encodeCursor(position) === cursor ? position : undefined;
}

/** The Link header to the next page: the same query, with the cursor after `last`. */
export function nextPageLink(
  pathname: string,
  query: Record<string, string | undefined>,
  last: CursorPosition,
): string {
  const next = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    if (value !== undefined && name !== "cursor") next.set(name, value);
  next.set("cursor", encodeCursor(last));
  return `<${pathname}?${next}>; rel="next"`;
}

/** The cursor of a Link header's rel="next" target, if it has one. */
export function nextCursorOf(link: string | null): string | undefined {
  const target = link ? /<([^>]+)>\s*;\s*rel="next"/.exec(link)?.[1] : undefined;
  return target ? (new URL(target, "http://link.invalid").searchParams.get("cursor") ?? undefined) : undefined;
}
