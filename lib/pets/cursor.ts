import { INT64_MAX } from "@/lib/http/int64";

// The list's cursor, in one place: an opaque token for "the pets after this id", how it travels in a
// `Link: <…>; rel="next"` header (RFC 8288), and how that header is read back. listPets writes both;
// the admin app reads the header to give the browser its Next button, and checks a cursor's shape
// before putting one from its own URL into a request. Browser-safe: no Node APIs.

const VERSION = "p1";

/** What every cursor this API issues looks like; the server's decode is the whole check. */
export const CURSOR_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;

function toBase64Url(text: string): string {
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The cursor of the pets after this id. */
export function encodeCursor(lastId: bigint): string {
  return toBase64Url(`${VERSION}:${lastId}`);
}

/** The id a cursor stands for, or undefined when it is not one this API issued. */
export function decodeCursor(cursor: string): bigint | undefined {
  if (!CURSOR_PATTERN.test(cursor)) return undefined;
  let text: string;
  try {
    text = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    return undefined;
  }
  const [version, digits = ""] = text.split(":");
  const id = version === VERSION && /^[1-9][0-9]{0,18}$/.test(digits) ? BigInt(digits) : undefined;
  // Only the canonical spelling is accepted, so each page has exactly one cursor.
  return id !== undefined && id <= INT64_MAX && encodeCursor(id) === cursor ? id : undefined;
}

/** The Link header to the next page: the same query, with the cursor after `lastId`. */
export function nextPageLink(pathname: string, query: Record<string, string | undefined>, lastId: bigint): string {
  const next = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    if (value !== undefined && name !== "cursor") next.set(name, value);
  next.set("cursor", encodeCursor(lastId));
  return `<${pathname}?${next}>; rel="next"`;
}

/** The cursor of a Link header's rel="next" target, if it has one. */
export function nextCursorOf(link: string | null): string | undefined {
  const target = link ? /<([^>]+)>\s*;\s*rel="next"/.exec(link)?.[1] : undefined;
  return target ? (new URL(target, "http://link.invalid").searchParams.get("cursor") ?? undefined) : undefined;
}
