import "server-only";
import { Refusal } from "@/lib/refusal";

// Conditional requests (RFC 9110 §13): the entity-tags of If-Match and If-None-Match, read strictly. A
// malformed header is refused with a 400 rather than ignored: ignoring an If-Match would turn a change the
// client made conditional into an unconditional one.

export type EntityTag = { weak: boolean; opaque: string };

/** "*" (any current representation), a list of entity-tags, or undefined when the header is absent. */
export type Condition = "*" | EntityTag[] | undefined;

// An entity-tag: optional W/, then a quoted string of etagc characters (RFC 9110 §8.8.3).
const ENTITY_TAG = /(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"/y;

/**
 * The entity-tags of a conditional header, or a 400 `invalid_header` naming it when malformed; `lenient` reads a
 * malformed one as absent instead (for a read, which is safe to answer in full).
 */
export function conditionOf(
  request: Request,
  header: "If-Match" | "If-None-Match",
  { lenient = false } = {},
): Condition {
  const raw = request.headers.get(header);
  if (raw === null) return undefined;
  const value = raw.trim();
  if (value === "*") return "*";
  // A comma-separated list (RFC 9110 §5.6.1): empty elements and whitespace around commas are allowed.
  const LIST_SEPARATOR = /[ \t]*(?:,[ \t]*)+/y;
  const tags: EntityTag[] = [];
  let position = 0;
  LIST_SEPARATOR.lastIndex = 0;
  if (LIST_SEPARATOR.test(value)) position = LIST_SEPARATOR.lastIndex;
  while (position < value.length) {
    ENTITY_TAG.lastIndex = position;
    const match = ENTITY_TAG.exec(value);
    if (!match) break;
    tags.push({ weak: Boolean(match[1]), opaque: match[2] });
    position = ENTITY_TAG.lastIndex;
    LIST_SEPARATOR.lastIndex = position;
    if (LIST_SEPARATOR.test(value)) position = LIST_SEPARATOR.lastIndex;
    else if (position < value.length) break; // two tags without a comma between them
  }
  if (tags.length === 0 || position < value.length) {
    if (lenient) return undefined;
    throw new Refusal("invalid_header", {
      message: `${header} must be * or a list of entity-tags such as "12.3", as an ETag header gave them.`,
      errors: [{ path: header, message: 'must be * or a list of quoted entity-tags ("…")' }],
    });
  }
  return tags;
}

// A resource's version as its ETag names it: pets and orders alike have the strong tag `"<id>.<version>"`.

/** The strong ETag of a resource with this id and count of changes. */
export function versionTag(id: bigint, version: number): string {
  return `"${id}.${version}"`;
}

/**
 * The versions of the resource with this id that entity-tags name: If-Match compares strongly (a weak tag names
 * nothing), If-None-Match weakly. Tags of another resource, or not of this service's making, name nothing.
 */
function versionsNamed(tags: EntityTag[], id: bigint, { weakly }: { weakly: boolean }): number[] {
  return tags.flatMap(({ weak, opaque }) => {
    const match = /^([0-9]+)\.([1-9][0-9]{0,9})$/.exec(opaque);
    return (weakly || !weak) && match && BigInt(match[1]) === id ? [Number(match[2])] : [];
  });
}

/**
 * A request's preconditions on the resource with this id (RFC 9110 §13.1): `ifMatch`, the versions If-Match
 * accepts (undefined for any: no header, or `*`, since a resource that does not exist is a 404 either way,
 * §13.2.1); `ifNoneMatch`, the versions If-None-Match refuses, or `*` for any.
 */
export function preconditionsOf(request: Request, id: bigint, options: { lenient?: boolean } = {}) {
  const ifMatch = conditionOf(request, "If-Match", options);
  const ifNoneMatch = conditionOf(request, "If-None-Match", options);
  return {
    ifMatch: ifMatch === undefined || ifMatch === "*" ? undefined : versionsNamed(ifMatch, id, { weakly: false }),
    ifNoneMatch: ifNoneMatch === "*" ? ("*" as const) : ifNoneMatch && versionsNamed(ifNoneMatch, id, { weakly: true }),
  };
}

/**
 * What a conditional change expects of the resource's version: one of `among` (If-Match), and none of `notAmong`
 * (If-None-Match). An absent member asks nothing.
 */
export type Expected = { among?: number[]; notAmong?: number[] };

/** What a change asks of the version; `If-None-Match: *` (only if it does not exist) holds for none. */
export function expectedOf(request: Request, id: bigint): Expected {
  const { ifMatch, ifNoneMatch } = preconditionsOf(request, id);
  return ifNoneMatch === "*" ? { among: [] } : { among: ifMatch, notAmong: ifNoneMatch };
}

/** Whether a version meets what a change expects of it. */
export function meets(expected: Expected, version: number): boolean {
  return (!expected.among || expected.among.includes(version)) && !expected.notAmong?.includes(version);
}
