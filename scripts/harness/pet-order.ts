import type { Reply } from "@/scripts/harness/http";
import type { PetSort, PetStatus } from "@/lib/pets/schema";

// The orders listPets must give, computed here from the pets a test made, for the sorting and filtering tests to
// hold the API's pages to; and the next page's path from a reply's Link header.

export type Pet = { id: bigint; name: string; categoryId: bigint; status?: PetStatus };

/** The name order, as both databases must give it: ASCII letters folded to lower case, then code points. */
function nameKey(name: string): Buffer {
  return Buffer.from(
    name.replace(/[A-Z]/g, (letter) => letter.toLowerCase()),
    "utf8",
  );
}

/** The statuses in the status order: the pets without one last. */
const STATUS_ORDER: (PetStatus | undefined)[] = ["available", "pending", "sold", undefined];

/** How two pets compare by the order's key alone (0 for a tie, which the id breaks). */
function byKey(a: Pet, b: Pet, sort: PetSort): number {
  switch (sort.replace("-", "")) {
    case "name":
      return Buffer.compare(nameKey(a.name), nameKey(b.name));
    case "status":
      return STATUS_ORDER.indexOf(a.status) - STATUS_ORDER.indexOf(b.status);
    case "category":
      return a.categoryId < b.categoryId ? -1 : a.categoryId > b.categoryId ? 1 : 0;
    default:
      return 0;
  }
}

/** `pets` in the order `sort`: its key, then the id in the same direction. */
export function sorted<P extends Pet>(pets: P[], sort: PetSort): P[] {
  const byId = (a: Pet, b: Pet) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const ascending = [...pets].sort((a, b) => byKey(a, b, sort) || byId(a, b));
  return sort.startsWith("-") ? ascending.reverse() : ascending;
}

/** The path of the next page a reply's `Link` header names, if any. */
export function nextPath(reply: Reply): string | undefined {
  const link = reply.headers.get("link");
  return link ? /^<([^>]+)>; rel="next"$/.exec(link)![1] : undefined;
}
