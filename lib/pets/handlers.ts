import "server-only";
import { respond } from "@/lib/http/response";
import { MERGE_PATCH_TYPES, readJsonBody } from "@/lib/http/body";
import { expectedOf, preconditionsOf, versionTag } from "@/lib/http/conditional";
import { json, jsonText, type HandlerContext, type Handler } from "@/lib/http/api-route";
import { Refusal } from "@/lib/refusal";
import { parseOrThrow, pathParam } from "@/lib/http/validation";
import { idempotency } from "@/lib/idempotency";
import { decodeCursor, nextPageLink, positionOf, type CursorPosition } from "@/lib/pets/cursor";
import { getPetDeprecation } from "@/lib/pets/deprecation";
import { stringifyPet, stringifyPets } from "@/lib/pets/json";
import {
  countPetsQuerySchema,
  listPetsQuerySchema,
  newPetSchema,
  petIdSchema,
  petPatchSchema,
  type PetSort,
} from "@/lib/pets/schema";
import {
  countPets,
  createPet,
  deletePet,
  findPet,
  listPets,
  noSuchPet,
  restorePet,
  updatePet,
  type VersionedPet,
} from "@/lib/pets/store";
import type { AuditContext } from "@/lib/audit/record";
import { countCall } from "@/lib/v1/call-counts";
import { settleExpiredHolds } from "@/lib/orders/store";
import { auditContextOf, type ApiClient } from "@/lib/v1/guard";

// The pets operations of /v1: each parses its input, calls the store, shapes the response. The route
// table (lib/v1/routes.ts) puts them on their paths; the route wrapper (lib/http/api-route.ts) does everything else.

/** The query string as an object; a parameter given twice is refused rather than guessed at. */
export function queryOf(url: URL): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    if (Object.hasOwn(query, name)) {
      throw new Refusal("invalid_query", {
        message: `Invalid query: ${name} is given more than once.`,
        errors: [{ path: name, message: `${name} must be given at most once` }],
      });
    }
    query[name] = value;
  }
  return query;
}

/**
 * Where a list's cursor (listPets', or listOrders' in id order) says the page starts. A cursor this API did not
 * issue, or one issued for another order, is a 400 naming it.
 */
export function afterOf(cursor: string, sort: PetSort): CursorPosition {
  const position = decodeCursor(cursor);
  if (position === undefined) {
    throw new Refusal("invalid_query", {
      message: 'Invalid query: cursor is not one this API issued; take it from a Link rel="next" header.',
      errors: [{ path: "cursor", message: "cursor is not one this API issued" }],
    });
  }
  if (position.sort !== sort) {
    throw new Refusal("invalid_query", {
      message:
        `Invalid query: cursor continues the list in sort=${position.sort} order, not sort=${sort}; ` +
        "to change the order, start again from the first page.",
      errors: [{ path: "cursor", message: `cursor was issued for sort=${position.sort}` }],
    });
  }
  return position;
}

// GET /v1/pets — listPets
export const listPetsHandler: Handler<ApiClient> = async ({ url }) => {
  const query = parseOrThrow(listPetsQuerySchema, queryOf(url), "invalid_query", "Invalid query");
  const { limit, status, categoryId: categoryIds, q, sort } = query;
  const after = query.cursor === undefined ? undefined : afterOf(query.cursor, sort);
  const page = await listPets({ limit, status, categoryIds, q, sort, after });
  const last = page.pets.at(-1);
  // The next page keeps the query as given: a sort that was left out stays out (the default, oldest first).
  // The cursor is a position in the order alone, so it continues any filters: the Link carries them.
  const kept = {
    limit: String(limit),
    status,
    categoryId: categoryIds?.join(","),
    q,
    sort: url.searchParams.has("sort") ? sort : undefined,
  };
  const headers: Record<string, string> =
    page.more && last ? { Link: nextPageLink(url.pathname, kept, positionOf(sort, last)) } : {};
  return jsonText(stringifyPets(page.pets), { headers });
};

// GET /v1/pets/counts — countPets
export const countPetsHandler: Handler<ApiClient> = async ({ url }) => {
  const query = parseOrThrow(countPetsQuerySchema, queryOf(url), "invalid_query", "Invalid query");
  return json(await countPets({ q: query.q, categoryIds: query.categoryId }));
};

// POST /v1/pets — createPet
export const createPetHandler: Handler<ApiClient> = async ({ request, requestId, caller }) => {
  const once = idempotency(request, caller.apiKey.id, caller.actingStaff?.id);
  const body = await readJsonBody(request);
  const input = parseOrThrow(newPetSchema, body.json, "invalid_body", "Invalid pet");
  return once.run(body.text, async (tx) => {
    const created = await createPet(input, auditContextOf(caller, requestId), tx);
    const { id } = created.pet;
    return { status: 201, body: stringifyPet(created.pet), location: `/v1/pets/${id}`, etag: petEtag(created) };
  });
};

/** A pet's strong ETag: its id and the count of its changes, so it changes whenever the pet does. */
export function petEtag({ pet, version }: VersionedPet): string {
  return versionTag(pet.id, version);
}

function petAnswer(found: VersionedPet): Response {
  return jsonText(stringifyPet(found.pet), { headers: { ETag: petEtag(found) } });
}

/**
 * One pet with its ETag: getPet's work, and the admin app's read of a pet (which must outlive getPet's sunset,
 * so it calls this and not the deprecated operation). If-None-Match naming it is a 304, a stale If-Match a 412,
 * in RFC 9110 §13.2.2's order. getPet ignored these headers before it had ETags, so a malformed one is still
 * ignored rather than refused: a read is safe to answer in full.
 */
export async function readPet({ request, params }: Pick<HandlerContext<unknown>, "request" | "params">) {
  const id = pathParam(params, "petId", petIdSchema);
  await settleExpiredHolds(); // the admin app's read does not pass the /v1 guard, which does this for getPet
  const { ifMatch, ifNoneMatch } = preconditionsOf(request, id, { lenient: true });
  const found = await findPet(id);
  if (!found) throw noSuchPet(id);
  if (ifMatch && !ifMatch.includes(found.version)) throw new Refusal("precondition_failed");
  if (ifNoneMatch === "*" || ifNoneMatch?.includes(found.version))
    return respond(null, { status: 304, headers: { ETag: petEtag(found) } });
  return petAnswer(found);
}

// GET /v1/pets/{petId} — getPet (deprecated; 410 Gone from its sunset on)
// Every call by an API key is counted, whatever its answer (lib/v1/call-counts.ts: in memory, written every few
// seconds), the 410s too, so the keys page shows who still calls it. From the sunset on, the clock alone makes it
// a 410 before any work; the route table adds the Deprecation, Sunset and successor Link to every answer.
export const getPetHandler: Handler<ApiClient> = async (context) => {
  const { apiKey, actingStaff } = context.caller;
  if (!actingStaff) countCall(apiKey.id, "getPet");
  const { sunset, successor } = getPetDeprecation;
  if (Date.now() >= sunset.getTime()) {
    throw new Refusal("gone", {
      message: `getPet was removed on ${sunset.toISOString().slice(0, 10)}: use GET ${successor} (the Link header).`,
    });
  }
  return readPet(context);
};

// PATCH /v1/pets/{petId} — updatePet
export const updatePetHandler: Handler<ApiClient> = async ({ request, requestId, params, caller }) => {
  const id = pathParam(params, "petId", petIdSchema);
  const expected = expectedOf(request, id);
  const body = await readJsonBody(request, MERGE_PATCH_TYPES);
  const patch = parseOrThrow(petPatchSchema, body.json, "invalid_body", "Invalid pet");
  return petAnswer(await updatePet(id, patch, expected, auditContextOf(caller, requestId)));
};

// DELETE /v1/pets/{petId} — deletePet
export const deletePetHandler: Handler<ApiClient> = async ({ request, requestId, params, caller }) => {
  const id = pathParam(params, "petId", petIdSchema);
  await deletePet(id, expectedOf(request, id), auditContextOf(caller, requestId));
  return respond(null, { status: 204 });
};

/**
 * The admin app's Undo of a deletion (POST /admin/api/pets/{petId}/restore): the pet as it was, with its new
 * ETag. 403 `restore_not_yours` for a deletion someone else made, 409 `pet_exists` when it is in the catalogue
 * (restored already), 409 `restore_too_late` after the
 * window, 404 when it was never deleted.
 */
export async function restorePetAnswer(params: Record<string, string>, audit: AuditContext): Promise<Response> {
  const id = pathParam(params, "petId", petIdSchema);
  return petAnswer(await restorePet(id, audit));
}
