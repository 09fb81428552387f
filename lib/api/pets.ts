import { z } from "zod";
import { readJsonBody } from "@/lib/api/body";
import { ApiError } from "@/lib/api/errors";
import { json, type ApiHandler } from "@/lib/api/route";
import { parseOrThrow } from "@/lib/api/validation";
import { createPet, findPet, listPets } from "@/lib/pets";
import { INT64_MAX, listPetsQuerySchema, newPetSchema, petIdSchema } from "@/lib/schemas/pet";

// The pets operations of the contract. Each parses its input, calls lib/pets, shapes the response;
// lib/api/route.ts does everything else.

// getPet is deprecated (RFC 9745) and removed on its sunset date (RFC 8594); GET /v1/pets replaces it.
export const DEPRECATED_SINCE = new Date("2026-11-21T00:00:00Z");
export const SUNSET = new Date("2030-12-05T00:00:00Z");
export const getPetDeprecationHeaders = {
  Deprecation: `@${DEPRECATED_SINCE.getTime() / 1000}`,
  Sunset: SUNSET.toUTCString(),
  Link: '</v1/pets>; rel="successor-version"',
};

const CURSOR_VERSION = "p1";

/** An opaque cursor for "the pets after this id". */
export function encodeCursor(lastId: bigint): string {
  return Buffer.from(`${CURSOR_VERSION}:${lastId}`).toString("base64url");
}

function decodeCursor(cursor: string): bigint {
  const match = /^p1:([1-9][0-9]{0,18})$/.exec(Buffer.from(cursor, "base64url").toString("latin1"));
  const id = match ? BigInt(match[1]) : undefined;
  if (id === undefined || id > INT64_MAX || encodeCursor(id) !== cursor) {
    throw new ApiError("invalid_query", {
      message: "Invalid query: cursor is not one this API issued; take it from a Link rel=\"next\" header.",
      errors: [{ path: "cursor", message: "cursor is not one this API issued" }],
    });
  }
  return id;
}

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

// GET /v1/pets — listPets
export const listPetsHandler: ApiHandler = async ({ url }) => {
  const query = parseOrThrow(listPetsQuerySchema, queryOf(url), "invalid_query", "Invalid query");
  const page = await listPets({
    limit: query.limit,
    status: query.status,
    afterId: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
  });
  const headers: Record<string, string> = {};
  if (page.lastId !== undefined) {
    const next = new URLSearchParams({ limit: String(query.limit) });
    if (query.status) next.set("status", query.status);
    next.set("cursor", encodeCursor(page.lastId));
    headers.Link = `<${url.pathname}?${next}>; rel="next"`;
  }
  return json(page.pets, { headers });
};

// POST /v1/pets — createPet
export const createPetHandler: ApiHandler = async ({ request, url }) => {
  const input = parseOrThrow(newPetSchema, await readJsonBody(request), "invalid_body", "Invalid pet");
  const pet = await createPet(input);
  return json(pet, { status: 201, headers: { Location: `${url.pathname.replace(/\/+$/, "")}/${pet.id}` } });
};

const getPetParamsSchema = z.object({ petId: petIdSchema });

// GET /v1/pets/{petId} — getPet (deprecated)
export const getPetHandler: ApiHandler = async ({ params }) => {
  const { petId } = parseOrThrow(getPetParamsSchema, params, "invalid_path", "Invalid path");
  const pet = await findPet(petId);
  if (!pet) throw new ApiError("not_found", { message: `No pet has id ${petId}.` });
  return json(pet);
};
