import "server-only";
import { z } from "zod";
import { config, type Config } from "@/lib/config";
import { BODY_LIMIT_BYTES } from "@/lib/http/body";
import { MAX_JSON_DEPTH } from "@/lib/http/json";
import { errorCodes, type ErrorCode } from "@/lib/http/error-codes";
import { errorBodySchema } from "@/lib/http/errors";
import type { Deprecation } from "@/lib/http/deprecation";
import { categorySchema } from "@/lib/categories/schema";
import { eventSchema, eventVariantSchemas } from "@/lib/events/schema";
import { photoOrderSchema, photoPatchSchema, photoSchema } from "@/lib/photos/schema";
import {
  inventorySchema,
  newOrderSchema,
  orderCountsSchema,
  orderSchema,
  orderStatusSchema,
} from "@/lib/orders/schema";
import {
  newPetSchema,
  petCountsSchema,
  petPatchSchema,
  petSchema,
  petSortSchema,
  petStatusSchema,
} from "@/lib/pets/schema";

// The OpenAPI 3.1 document, generated: its paths from the route table (lib/v1/routes.ts), its schemas
// from the zod schemas that validate requests (OpenAPI 3.1 schemas are JSON Schema 2020-12, which zod
// emits). Served at /v1/openapi.json and rendered at /docs. The helpers below are what the route table
// describes its responses with.

/** The OpenAPI facts of one operation; the route table gives them beside the handler. */
export type OperationDocument = {
  /** The document's tag for the operation: "pets" unless given. */
  tag?: "pets" | "categories" | "store" | "events";
  summary: string;
  description: string;
  /** The query string's schema: each member is one parameter. */
  query?: z.ZodObject;
  /** The path's parameters, by name. */
  path?: Record<string, z.ZodType>;
  headers?: { name: string; description: string; schema: Record<string, unknown> }[];
  /** The request body: a schema with a component id. */
  body?: z.ZodType;
  /** The body's media types (default application/json). */
  bodyMediaTypes?: string[];
  /** A body that is a file's bytes (an image), of these media types, instead of `body`. */
  binaryBody?: { mediaTypes: readonly string[]; description: string };
  responses: Record<string, unknown>;
};

/** What the document needs of a route-table entry. */
export type DocumentedOperation = {
  method: string;
  path: string;
  operationId: string;
  deprecation?: Deprecation;
  openapi?: OperationDocument;
};

const registry = z.registry<{ id: string }>();
for (const schema of [
  petStatusSchema,
  petSortSchema,
  newPetSchema,
  petPatchSchema,
  petSchema,
  petCountsSchema,
  categorySchema,
  orderStatusSchema,
  newOrderSchema,
  orderSchema,
  orderCountsSchema,
  inventorySchema,
  ...eventVariantSchemas,
  eventSchema,
  photoSchema,
  photoPatchSchema,
  photoOrderSchema,
  errorBodySchema,
]) {
  registry.add(schema, { id: schema.meta()!.id! });
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

export const ref = (schema: z.ZodType) => ({ $ref: `#/components/schemas/${schema.meta()!.id!}` });

/** A schema on its own; references to the named schemas (PetStatus, …) point into components. */
function inlineSchema(schema: z.ZodType, io: "input" | "output") {
  const text = JSON.stringify(z.toJSONSchema(schema, { ...jsonSchemaOptions, io }));
  const {
    $defs: _named,
    $schema: _dialect,
    ...rest
  } = JSON.parse(text.replaceAll('"#/$defs/', '"#/components/schemas/')) as Record<string, unknown>;
  return rest;
}

/** The documented answer for these error codes (all of one status). */
export function errorAnswer(codes: ErrorCode[], extra: Record<string, unknown> = {}) {
  const status = errorCodes[codes[0]].status;
  const example = { code: codes[0], message: errorCodes[codes[0]].message, status };
  return {
    description: codes.map((code) => `\`${code}\`: ${errorCodes[code].message}`).join(" "),
    ...extra,
    content: { "application/json": { schema: ref(errorBodySchema), example } },
  };
}

export const requestIdHeader = {
  description: "The request's id: echoed from the request's X-Request-Id when sane, else generated.",
  schema: { type: "string" },
};
export const rateLimitHeaders = {
  "RateLimit-Policy": {
    description: 'The key\'s quota (draft-ietf-httpapi-ratelimit-headers): `"per-key";q=<requests>;w=<seconds>`.',
    schema: { type: "string" },
  },
  RateLimit: {
    description: 'What is left of it: `"per-key";r=<remaining>;t=<seconds until the window resets>`.',
    schema: { type: "string" },
  },
};

/** The answers every operation with a key may give. */
export const commonErrors = {
  "401": errorAnswer(["unauthorized"], {
    headers: {
      "WWW-Authenticate": { description: 'Always `Bearer realm="animal-store"`.', schema: { type: "string" } },
    },
  }),
  "429": errorAnswer(["rate_limited"], {
    headers: {
      "Retry-After": { schema: { type: "integer" }, description: "Seconds until the window resets." },
      ...rateLimitHeaders,
    },
  }),
  "500": errorAnswer(["internal"]),
  "503": errorAnswer(["service_unavailable"], {
    headers: { "Retry-After": { schema: { type: "integer" }, description: "Seconds to wait." } },
  }),
};

function deprecationNotes({ sunset, successor }: Deprecation) {
  const date = sunset.toUTCString();
  return {
    description:
      `Deprecated; removed on ${date}. Every response carries \`Deprecation\`, \`Sunset: ${date}\` and ` +
      `\`Link: <${successor}>; rel="successor-version"\`.`,
    headers: {
      Deprecation: { description: "RFC 9745: when the operation was deprecated.", schema: { type: "string" } },
      Sunset: { description: "RFC 8594: when the operation goes away.", schema: { type: "string", const: date } },
      Link: { description: "The successor operation.", schema: { type: "string" } },
    },
  };
}

function parameters({ query, path, headers }: OperationDocument) {
  const list: Record<string, unknown>[] = [];
  for (const [name, schema] of Object.entries(path ?? {}))
    list.push({ name, in: "path", required: true, schema: inlineSchema(schema, "output") });
  if (query) {
    const { properties } = inlineSchema(query, "output") as { properties: Record<string, { description?: string }> };
    for (const [name, schema] of Object.entries(properties))
      list.push({ name, in: "query", required: false, description: schema.description, schema });
  }
  for (const header of headers ?? []) list.push({ ...header, in: "header", required: false });
  return list;
}

function operationObject({ operationId, deprecation, openapi }: DocumentedOperation & { openapi: OperationDocument }) {
  const notes = deprecation && deprecationNotes(deprecation);
  const responses = notes
    ? Object.fromEntries(
        Object.entries(openapi.responses).map(([status, answer]) => [status, withHeaders(answer, notes.headers)]),
      )
    : openapi.responses;
  const list = parameters(openapi);
  return {
    operationId,
    tags: [openapi.tag ?? "pets"],
    summary: openapi.summary,
    ...(deprecation ? { deprecated: true } : {}),
    description: notes ? `${notes.description} ${openapi.description}` : openapi.description,
    ...(list.length ? { parameters: list } : {}),
    ...(openapi.body
      ? {
          requestBody: {
            required: true,
            content: Object.fromEntries(
              (openapi.bodyMediaTypes ?? ["application/json"]).map((type) => [type, { schema: ref(openapi.body!) }]),
            ),
          },
        }
      : openapi.binaryBody
        ? {
            requestBody: {
              required: true,
              description: openapi.binaryBody.description,
              content: Object.fromEntries(
                openapi.binaryBody.mediaTypes.map((type) => [type, { schema: { type: "string", format: "binary" } }]),
              ),
            },
          }
        : {}),
    responses,
  };
}

function withHeaders(answer: unknown, headers: Record<string, unknown>) {
  const object = answer as { headers?: Record<string, unknown> };
  return { ...object, headers: { ...headers, ...object.headers } };
}

/** A Standard Webhooks header of every delivery. */
const webhookHeader = (name: string, description: string, example: string) => ({
  name,
  in: "header",
  required: true,
  description,
  schema: { type: "string" },
  example,
});

/** What a webhook endpoint receives (docs/api.md#webhooks): OpenAPI 3.1's `webhooks`, one delivery of an Event. */
function webhooksDocument() {
  return {
    event: {
      post: {
        operationId: "receiveEvent",
        tags: ["events"],
        summary: "An event, delivered to a webhook endpoint",
        description:
          "Sent to every enabled endpoint an admin registered (the Webhooks page, `npm run webhook`) for each event " +
          "of its types, signed as Standard Webhooks says: verify it with a Standard Webhooks library and the " +
          "endpoint's `whsec_` secret. At least once, in no promised order: de-duplicate by `webhook-id`.",
        security: [],
        parameters: [
          webhookHeader("webhook-id", "`evt_<event id>`, the same on every attempt and resend of the event.", "evt_41"),
          webhookHeader("webhook-timestamp", "Seconds since 1970 when the attempt was signed.", "1795147200"),
          webhookHeader(
            "webhook-signature",
            "`v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` under the secret; two, " +
              "space-separated, for 24 hours after a rotation.",
            "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
          ),
        ],
        requestBody: { required: true, content: { "application/json": { schema: ref(eventSchema) } } },
        responses: {
          "2XX": { description: "Received. Answer within 10 s; anything else is retried on the schedule." },
          "410": { description: "Unsubscribe: the endpoint is disabled at once and gets nothing more." },
        },
      },
    },
  };
}

function buildDocument({ API_PRODUCTION_URL, API_STAGING_URL }: Config, operations: readonly DocumentedOperation[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    if (!operation.openapi) continue;
    const path = operation.path.replace(/^\/v1/, ""); // the servers' URLs end in /v1
    paths[path] ??= {};
    paths[path][operation.method.toLowerCase()] = operationObject({ ...operation, openapi: operation.openapi });
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Animal Store Service",
      version: "1.0.0",
      summary:
        "The store's animal catalogue and its sales: list, search, add, change and remove pets; read the category " +
        "names; place, approve, deliver and cancel orders.",
      description: [
        "JSON over HTTP with bearer API keys. Every error is an `Error` body whose `status` repeats the HTTP status; " +
          "400s about the body also name each offending member in `errors`.",
        "",
        "- **int64**: ids and categoryIds are plain JSON integers over the whole int64 range, " +
          "never strings and never rounded.",
        "- **Paging**: lists are in ascending id order unless `sort` asks for another. When more pets follow, " +
          'the response has a `Link: <…>; rel="next"` header (RFC 8288) whose URL carries an opaque `cursor`; ' +
          "the body stays a bare array.",
        "- **Statuses**: updatePet may set any status after any other (available, pending, sold, or none), " +
          "except while an open order holds the pet (409 `pet_on_hold`): orders move it from available to " +
          "pending (placeOrder) and to sold (deliverOrder) or back to available (cancelOrder, or the hold expiring).",
        "- **Concurrency**: every single-pet and single-order response carries a strong `ETag`; updatePet, " +
          "deletePet and an order's approve, deliver and cancel honour `If-Match` (412 `precondition_failed` when " +
          "stale), getPet and getOrder honour `If-None-Match` (304).",
        `- **Bodies**: \`application/json\` only (else 415), at most ${BODY_LIMIT_BYTES / 1024} KiB (else 413), ` +
          `arrays and objects nested at most ${MAX_JSON_DEPTH} deep (else 400 \`invalid_json\`, before any ` +
          "parsing); unknown members are refused.",
        "- **Unsupported methods** get 405 with an `Allow` header; unknown paths under /v1 get a JSON 404.",
        "- Every response carries `X-Request-Id`, and `RateLimit-Policy` / `RateLimit` describing the key's quota; " +
          "past it, 429 with `Retry-After` in seconds.",
        "- **Webhooks**: what a webhook endpoint receives (an `Event`, signed as Standard Webhooks says) is " +
          "described in this document's `webhooks` member (`/v1/openapi.json`) and in the API guide (docs/api.md).",
      ].join("\n"),
    },
    servers: [
      { url: API_PRODUCTION_URL, description: "Production" },
      { url: API_STAGING_URL, description: "Staging" },
    ],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: "pets", description: "The animals of the catalogue." },
      { name: "categories", description: "The names of the categoryIds pets carry (read-only here)." },
      {
        name: "store",
        description: "Sales: orders that hold a pet (pending) and sell it (sold), and the inventory by status.",
      },
      { name: "events", description: "Every change to a pet, an order or a category, as a feed to follow." },
    ],
    paths,
    webhooks: webhooksDocument(),
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "An API key from `npm run key -- create <name>`, sent as `Authorization: Bearer <key>`.",
        },
      },
    },
  };
}

let built: { settings: Config; document: ReturnType<typeof buildDocument> } | undefined;

/** The document of these operations for the process's configuration, built once. */
export function openApiDocument(operations: readonly DocumentedOperation[]) {
  const settings = config();
  if (built?.settings !== settings) built = { settings, document: buildDocument(settings, operations) };
  return built.document;
}
