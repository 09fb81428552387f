import { z } from "zod";
import { readJsonBody } from "@/lib/api/body";
import { ApiError } from "@/lib/api/errors";
import { stringifyPet, stringifyPets } from "@/lib/api/json";
import { jsonText, type ApiHandler } from "@/lib/api/route";
import { parseOrThrow } from "@/lib/api/validation";
import { claimIdempotencyKey, IdempotencyClaimLost, releaseIdempotencyKey, requestHash, type StoredResponse } from "@/lib/idempotency";
import { createPet, findPet, listPets } from "@/lib/pets";
import { INT64_MAX, listPetsQuerySchema, newPetSchema, petIdSchema, type Pet } from "@/lib/schemas/pet";

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
  const [version, digits = ""] = Buffer.from(cursor, "base64url").toString("latin1").split(":");
  const id = version === CURSOR_VERSION && /^[1-9][0-9]{0,18}$/.test(digits) ? BigInt(digits) : undefined;
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
  return jsonText(stringifyPets(page.pets), { headers });
};

/** The Idempotency-Key header: an opaque string of 1 to 255 visible characters, quoted or not. */
function idempotencyKeyOf(request: Request): string | undefined {
  const raw = request.headers.get("idempotency-key");
  if (raw === null) return undefined;
  const key = /^"(.*)"$/.exec(raw)?.[1] ?? raw;
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new ApiError("invalid_header", {
      message: "Idempotency-Key must be 1 to 255 visible ASCII characters, such as a UUID.",
      errors: [{ path: "Idempotency-Key", message: "must be 1 to 255 visible ASCII characters" }],
    });
  }
  return key;
}

// POST /v1/pets — createPet
export const createPetHandler: ApiHandler = async ({ request, apiKey }) => {
  const idempotencyKey = idempotencyKeyOf(request);
  const body = await readJsonBody(request);
  const input = parseOrThrow(newPetSchema, body.json, "invalid_body", "Invalid pet");
  const answer = (pet: Pet): StoredResponse => ({ status: 201, body: stringifyPet(pet), location: `/v1/pets/${pet.id}` });
  const respond = ({ status, body, location }: StoredResponse, replayed: boolean) =>
    new Response(body, {
      status,
      headers: { "Content-Type": "application/json", ...(location ? { Location: location } : {}), ...(replayed ? { "Idempotent-Replayed": "true" } : {}) },
    });
  if (!idempotencyKey) return respond(answer(await createPet(input)), false);

  const inProgress = () => new ApiError("idempotency_key_in_progress", { headers: { "Retry-After": "1" } });
  const claim = await claimIdempotencyKey(apiKey.id, idempotencyKey, requestHash(body.text));
  if (claim.kind === "replay") return respond(claim.response, true);
  if (claim.kind === "in_progress") throw inProgress();
  if (claim.kind === "mismatch") throw new ApiError("idempotency_key_reused");
  try {
    return respond(answer(await createPet(input, { apiKeyId: apiKey.id, key: idempotencyKey, answer })), false);
  } catch (error) {
    if (error instanceof IdempotencyClaimLost) throw inProgress();
    await releaseIdempotencyKey(apiKey.id, idempotencyKey, claim.lockedAt).catch(() => {});
    throw error;
  }
};

const getPetParamsSchema = z.object({ petId: petIdSchema });

// GET /v1/pets/{petId} — getPet (deprecated)
export const getPetHandler: ApiHandler = async ({ params }) => {
  const { petId } = parseOrThrow(getPetParamsSchema, params, "invalid_path", "Invalid path");
  const pet = await findPet(petId);
  if (!pet) throw new ApiError("not_found", { message: `No pet has id ${petId}.` });
  return jsonText(stringifyPet(pet));
};
