import { z } from "zod";
import { errorCodes, type ErrorCode } from "@/lib/api/error-codes";
import { BODY_LIMIT_BYTES } from "@/lib/api/body";
import { SUNSET } from "@/lib/api/pets";
import { config } from "@/lib/config";
import { errorBodySchema } from "@/lib/schemas/error";
import { listPetsQuerySchema, newPetSchema, petIdSchema, petSchema, petStatusSchema } from "@/lib/schemas/pet";

// The OpenAPI 3.1 document, generated from the zod schemas that validate requests (OpenAPI 3.1
// schemas are JSON Schema 2020-12, which zod emits). Served at /v1/openapi.json and rendered at /docs.

const registry = z.registry<{ id: string }>();
for (const schema of [petStatusSchema, newPetSchema, petSchema, errorBodySchema]) {
  registry.add(schema, { id: schema.meta()!.id as string });
}

const jsonSchemaOptions = {
  unrepresentable: "any",
  // int64 values travel as bigint inside the service; on the wire they are plain JSON integers.
  override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
    delete jsonSchema.$schema;
  },
} as const;

function componentSchemas(): Record<string, unknown> {
  const { schemas } = z.toJSONSchema(registry, { ...jsonSchemaOptions, uri: (id) => `#/components/schemas/${id}` });
  for (const schema of Object.values(schemas) as Record<string, unknown>[]) {
    delete schema.$id;
    delete schema.$schema;
  }
  return schemas;
}

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

/** A schema on its own; references to the named schemas (PetStatus, …) point into components. */
function inlineSchema(schema: z.ZodType, io: "input" | "output") {
  const text = JSON.stringify(z.toJSONSchema(schema, { ...jsonSchemaOptions, io }));
  const { $defs: _named, $schema: _dialect, ...rest } = JSON.parse(text.replaceAll('"#/$defs/', '"#/components/schemas/'));
  return rest;
}

function queryParameters() {
  const { properties } = inlineSchema(listPetsQuerySchema, "output") as { properties: Record<string, { description?: string }> };
  return Object.entries(properties).map(([name, schema]) => ({ name, in: "query", required: false, description: schema.description, schema }));
}

function errorResponse(codes: ErrorCode[], extra: Record<string, unknown> = {}) {
  const status = errorCodes[codes[0]].status;
  const example = { code: codes[0], message: errorCodes[codes[0]].message, status };
  return {
    description: codes.map((code) => `\`${code}\`: ${errorCodes[code].message}`).join(" "),
    ...extra,
    content: { "application/json": { schema: ref("Error"), example } },
  };
}

const requestIdHeader = { description: "The request's id: echoed from the request's X-Request-Id when sane, else generated.", schema: { type: "string" } };
const unauthorized = errorResponse(["unauthorized"], {
  headers: { "WWW-Authenticate": { description: 'Always `Bearer realm="animal-store"`.', schema: { type: "string" } } },
});
const rateLimitHeaders = {
  "RateLimit-Policy": { description: 'The key\'s quota (draft-ietf-httpapi-ratelimit-headers): `"per-key";q=<requests>;w=<seconds>`.', schema: { type: "string" } },
  RateLimit: { description: 'What is left of it: `"per-key";r=<remaining>;t=<seconds until the window resets>`.', schema: { type: "string" } },
};
const commonErrors = {
  "401": unauthorized,
  "429": errorResponse(["rate_limited"], { headers: { "Retry-After": { schema: { type: "integer" }, description: "Seconds until the window resets." }, ...rateLimitHeaders } }),
  "500": errorResponse(["internal"]),
  "503": errorResponse(["service_unavailable"], { headers: { "Retry-After": { schema: { type: "integer" }, description: "Seconds to wait." } } }),
};

let built: { settings: ReturnType<typeof config>; document: ReturnType<typeof buildDocument> } | undefined;

/** The document for the process's configuration, built once. */
export function openApiDocument() {
  const settings = config();
  if (built?.settings !== settings) built = { settings, document: buildDocument(settings) };
  return built.document;
}

function buildDocument({ API_PRODUCTION_URL, API_STAGING_URL }: ReturnType<typeof config>) {
  const sunset = SUNSET.toUTCString();
  return {
    openapi: "3.1.0",
    info: {
      title: "Animal Store Service",
      version: "1.0.0",
      summary: "The store's animal catalogue: list, add and fetch pets.",
      description: [
        "JSON over HTTP with bearer API keys. Every error is an `Error` body whose `status` repeats the HTTP status; 400s about the body also name each offending member in `errors`.",
        "",
        "- **int64**: ids and categoryIds are plain JSON integers over the whole int64 range, never strings and never rounded.",
        "- **Paging**: lists are in ascending id order. When more pets follow, the response has a `Link: <…>; rel=\"next\"` header (RFC 8288) whose URL carries an opaque `cursor`; the body stays a bare array.",
        `- **Bodies**: \`application/json\` only (else 415), at most ${BODY_LIMIT_BYTES / 1024} KiB (else 413); unknown members are refused.`,
        "- **Unsupported methods** get 405 with an `Allow` header; unknown paths under /v1 get a JSON 404.",
        "- Every response carries `X-Request-Id`, and `RateLimit-Policy` / `RateLimit` describing the key's quota; past it, 429 with `Retry-After` in seconds.",
      ].join("\n"),
    },
    servers: [
      { url: API_PRODUCTION_URL, description: "Production" },
      { url: API_STAGING_URL, description: "Staging" },
    ],
    security: [{ bearerAuth: [] }],
    tags: [{ name: "pets", description: "The animals of the catalogue." }],
    paths: {
      "/pets": {
        get: {
          operationId: "listPets",
          tags: ["pets"],
          summary: "List pets",
          description: "A page of pets in ascending id order, optionally only those with one status. Follow the `Link` rel=\"next\" header for the next page.",
          parameters: queryParameters(),
          responses: {
            "200": {
              description: "A page of pets (a bare array; `[]` when none).",
              headers: {
                Link: { description: 'Present when more pets follow: `</v1/pets?limit=…&cursor=…>; rel="next"`.', schema: { type: "string" } },
                "X-Request-Id": requestIdHeader,
                ...rateLimitHeaders,
              },
              content: { "application/json": { schema: { type: "array", items: ref("Pet") } } },
            },
            "400": errorResponse(["invalid_query"]),
            ...commonErrors,
          },
        },
        post: {
          operationId: "createPet",
          tags: ["pets"],
          summary: "Add a pet",
          description: "Send an `Idempotency-Key` to retry safely: the same key with the same body within 24 hours replays the first answer (with `Idempotent-Replayed: true`) instead of adding a second pet.",
          parameters: [
            {
              name: "Idempotency-Key",
              in: "header",
              required: false,
              description: "1 to 255 visible ASCII characters (a UUID, say), scoped to the API key and kept 24 hours; quoted or not.",
              schema: { type: "string", minLength: 1, maxLength: 255 },
            },
          ],
          requestBody: { required: true, content: { "application/json": { schema: ref("NewPet") } } },
          responses: {
            "201": {
              description: "The pet as stored, with its id.",
              headers: {
                Location: { description: "/v1/pets/{id} of the new pet.", schema: { type: "string" } },
                "Idempotent-Replayed": { description: "`true` when this is the stored answer to an earlier request with the same Idempotency-Key.", schema: { type: "string" } },
                "X-Request-Id": requestIdHeader,
                ...rateLimitHeaders,
              },
              content: { "application/json": { schema: ref("Pet") } },
            },
            "400": errorResponse(["invalid_body", "invalid_json", "invalid_header"]),
            "409": errorResponse(["idempotency_key_in_progress"]),
            "413": errorResponse(["payload_too_large"]),
            "415": errorResponse(["unsupported_media_type"]),
            "422": errorResponse(["idempotency_key_reused"]),
            ...commonErrors,
          },
        },
      },
      "/pets/{petId}": {
        get: {
          operationId: "getPet",
          tags: ["pets"],
          summary: "Get a pet (deprecated)",
          deprecated: true,
          description: `Deprecated; removed on ${sunset}. Use \`GET /pets\` with the \`status\` filter instead. Every response carries \`Deprecation\`, \`Sunset: ${sunset}\` and \`Link: </v1/pets>; rel="successor-version"\`.`,
          parameters: [{ name: "petId", in: "path", required: true, schema: inlineSchema(petIdSchema, "output") }],
          responses: {
            "200": {
              description: "The pet.",
              headers: {
                Deprecation: { description: "RFC 9745: when the operation was deprecated.", schema: { type: "string" } },
                Sunset: { description: "RFC 8594: when the operation goes away.", schema: { type: "string", const: sunset } },
                Link: { description: "The successor operation.", schema: { type: "string" } },
                "X-Request-Id": requestIdHeader,
              },
              content: { "application/json": { schema: ref("Pet") } },
            },
            "400": errorResponse(["invalid_path"]),
            "404": errorResponse(["not_found"]),
            ...commonErrors,
          },
        },
      },
    },
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "An API key from `npm run key -- create <name>`, sent as `Authorization: Bearer <key>`." },
      },
    },
  };
}
