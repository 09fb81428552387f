import "server-only";
import { json, type Handler, type OperationMethod } from "@/lib/http/edge";
import type { Deprecation } from "@/lib/http/deprecation";
import { getPetDeprecation } from "@/lib/pets/deprecation";
import { createPetHandler, getPetHandler, listPetsHandler } from "@/lib/pets/handlers";
import { listPetsQuerySchema, newPetSchema, petIdSchema, petSchema } from "@/lib/pets/schema";
import {
  commonErrors,
  errorAnswer,
  openApiDocument,
  rateLimitHeaders,
  ref,
  requestIdHeader,
  type OperationDocument,
} from "@/lib/v1/openapi";
import type { ApiClient } from "@/lib/v1/surface";

// The /v1 route table: every operation of the API, declared once — method, path, handler, and the
// facts its OpenAPI document gives. Next serves these through the route files under app/v1 (each
// re-exports v1Route(path)), server.ts's fast path dispatches from the same table (lib/v1/router.ts),
// and the OpenAPI document's paths are generated from it. Adding an operation is: its handler, its
// entry here, its schema.

export type V1Operation = {
  method: OperationMethod;
  /** The path as OpenAPI writes it: `{name}` for a parameter. */
  path: string;
  handler: Handler<ApiClient>;
  /** Answered without an API key. */
  anonymous?: boolean;
  /** Deprecated: its answers carry the notice, and the document says so. */
  deprecation?: Deprecation;
  /** Left out of the document when absent. */
  openapi?: OperationDocument;
};

// GET /v1/openapi.json — the API's description, readable without a key.
const openApiHandler: Handler<ApiClient> = async () =>
  json(openApiDocument(v1Operations), { headers: { "Cache-Control": "public, max-age=300" } });

export const v1Operations: readonly V1Operation[] = [
  {
    method: "GET",
    path: "/v1/pets",
    handler: listPetsHandler,
    openapi: {
      operationId: "listPets",
      summary: "List pets",
      description:
        "A page of pets in ascending id order, optionally only those with one status. " +
        'Follow the `Link` rel="next" header for the next page.',
      query: listPetsQuerySchema,
      responses: {
        "200": {
          description: "A page of pets (a bare array; `[]` when none).",
          headers: {
            Link: {
              description: 'Present when more pets follow: `</v1/pets?limit=…&cursor=…>; rel="next"`.',
              schema: { type: "string" },
            },
            "X-Request-Id": requestIdHeader,
            ...rateLimitHeaders,
          },
          content: { "application/json": { schema: { type: "array", items: ref(petSchema) } } },
        },
        "400": errorAnswer(["invalid_query"]),
        ...commonErrors,
      },
    },
  },
  {
    method: "POST",
    path: "/v1/pets",
    handler: createPetHandler,
    openapi: {
      operationId: "createPet",
      summary: "Add a pet",
      description:
        "Send an `Idempotency-Key` to retry safely: the same key with the same body within 24 hours replays " +
        "the first answer (with `Idempotent-Replayed: true`) instead of adding a second pet.",
      headers: [
        {
          name: "Idempotency-Key",
          description:
            "1 to 255 visible ASCII characters (a UUID, say), scoped to the API key and kept 24 hours; quoted or not.",
          schema: { type: "string", minLength: 1, maxLength: 255 },
        },
      ],
      body: newPetSchema,
      responses: {
        "201": {
          description: "The pet as stored, with its id.",
          headers: {
            Location: { description: "/v1/pets/{id} of the new pet.", schema: { type: "string" } },
            "Idempotent-Replayed": {
              description: "`true` when this is the stored answer to an earlier request with the same Idempotency-Key.",
              schema: { type: "string" },
            },
            "X-Request-Id": requestIdHeader,
            ...rateLimitHeaders,
          },
          content: { "application/json": { schema: ref(petSchema) } },
        },
        "400": errorAnswer(["invalid_body", "invalid_json", "invalid_header"]),
        "409": errorAnswer(["idempotency_key_in_progress"]),
        "413": errorAnswer(["payload_too_large"]),
        "415": errorAnswer(["unsupported_media_type"]),
        "422": errorAnswer(["idempotency_key_reused"]),
        ...commonErrors,
      },
    },
  },
  {
    method: "GET",
    path: "/v1/pets/{petId}",
    handler: getPetHandler,
    deprecation: getPetDeprecation,
    openapi: {
      operationId: "getPet",
      summary: "Get a pet (deprecated)",
      description: "Use `GET /pets` instead, with the `status` filter to narrow it.",
      path: { petId: petIdSchema },
      responses: {
        "200": {
          description: "The pet.",
          headers: { "X-Request-Id": requestIdHeader },
          content: { "application/json": { schema: ref(petSchema) } },
        },
        "400": errorAnswer(["invalid_path"]),
        "404": errorAnswer(["not_found"]),
        ...commonErrors,
      },
    },
  },
  { method: "GET", path: "/v1/openapi.json", handler: openApiHandler, anonymous: true },
];
