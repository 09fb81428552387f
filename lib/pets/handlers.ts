import "server-only";
import { z } from "zod";
import { readJsonBody } from "@/lib/http/body";
import { jsonText, type Handler } from "@/lib/http/edge";
import { ApiError } from "@/lib/http/errors";
import { parseOrThrow } from "@/lib/http/validation";
import { idempotency } from "@/lib/idempotency";
import { decodeCursor, nextPageLink } from "@/lib/pets/cursor";
import { stringifyPet, stringifyPets } from "@/lib/pets/json";
import { listPetsQuerySchema, newPetSchema, petIdSchema } from "@/lib/pets/schema";
import { createPet, findPet, listPets } from "@/lib/pets/store";
import type { ApiClient } from "@/lib/v1/surface";

// The pets operations of /v1: each parses its input, calls the store, shapes the response. The route
// table (lib/v1/routes.ts) puts them on their paths; the edge (lib/http/edge.ts) does everything else.

/** The query string as an object; a parameter given twice is refused rather than guessed at. */
function queryOf(url: URL): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    if (Object.hasOwn(query, name)) {
      throw new ApiError("invalid_query", {
        message: `Invalid query: ${name} is given more than once.`,
        errors: [{ path: name, message: `${name} must be given at most once` }],
      });
    }
    query[name] = value;
  }
  return query;
}

/** The id a listPets cursor stands for; a cursor this API did not issue is a 400 naming it. */
function afterIdOf(cursor: string): bigint {
  const id = decodeCursor(cursor);
  if (id === undefined) {
    throw new ApiError("invalid_query", {
      message: 'Invalid query: cursor is not one this API issued; take it from a Link rel="next" header.',
      errors: [{ path: "cursor", message: "cursor is not one this API issued" }],
    });
  }
  return id;
}

// GET /v1/pets — listPets
export const listPetsHandler: Handler<ApiClient> = async ({ url }) => {
  const query = parseOrThrow(listPetsQuerySchema, queryOf(url), "invalid_query", "Invalid query");
  const afterId = query.cursor === undefined ? undefined : afterIdOf(query.cursor);
  const page = await listPets({ limit: query.limit, status: query.status, afterId });
  const last = page.pets.at(-1);
  const headers: Record<string, string> =
    page.more && last
      ? { Link: nextPageLink(url.pathname, { limit: String(query.limit), status: query.status }, last.id) }
      : {};
  return jsonText(stringifyPets(page.pets), { headers });
};

// POST /v1/pets — createPet
export const createPetHandler: Handler<ApiClient> = async ({ request, caller }) => {
  const once = idempotency(request, caller.apiKey.id);
  const body = await readJsonBody(request);
  const input = parseOrThrow(newPetSchema, body.json, "invalid_body", "Invalid pet");
  return once.run(body.text, async (tx) => {
    const pet = await createPet(input, tx);
    return { status: 201, body: stringifyPet(pet), location: `/v1/pets/${pet.id}` };
  });
};

const petPathSchema = z.object({ petId: petIdSchema });

// GET /v1/pets/{petId} — getPet (deprecated)
export const getPetHandler: Handler<ApiClient> = async ({ params }) => {
  const { petId } = parseOrThrow(petPathSchema, params, "invalid_path", "Invalid path");
  const pet = await findPet(petId);
  if (!pet) throw new ApiError("not_found", { message: `No pet has id ${petId}.` });
  return jsonText(stringifyPet(pet));
};
