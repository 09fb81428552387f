import "server-only";
import { json, type Handler, type OperationMethod } from "@/lib/http/api-route";
import type { Deprecation } from "@/lib/http/deprecation";
import { listCategoriesHandler } from "@/lib/categories/handlers";
import { categorySchema } from "@/lib/categories/schema";
import { getPetDeprecation } from "@/lib/pets/deprecation";
import { MERGE_PATCH_TYPES } from "@/lib/http/body";
import {
  countPetsHandler,
  createPetHandler,
  deletePetHandler,
  getPetHandler,
  listPetsHandler,
  updatePetHandler,
} from "@/lib/pets/handlers";
import {
  countPetsQuerySchema,
  exportPetsQuerySchema,
  listPetsQuerySchema,
  newPetSchema,
  petCountsSchema,
  petIdSchema,
  petPatchSchema,
  petSchema,
} from "@/lib/pets/schema";
import {
  commonErrors,
  errorAnswer,
  openApiDocument,
  rateLimitHeaders,
  ref,
  requestIdHeader,
  type OperationDocument,
} from "@/lib/v1/openapi";
import type { ApiClient } from "@/lib/v1/guard";
import { exportPetsHandler } from "@/lib/pets/export";
import { batchPetsHandler } from "@/lib/pets/batch";
import { BATCH_BODY_LIMIT_BYTES, BATCH_MAX_PETS, petBatchResultSchema, petBatchSchema } from "@/lib/pets/batch-schema";
import {
  approveOrderHandler,
  cancelOrderHandler,
  countOrdersHandler,
  deliverOrderHandler,
  getInventoryHandler,
  getOrderHandler,
  listOrdersHandler,
  placeOrderHandler,
} from "@/lib/orders/handlers";
import { listEventsHandler } from "@/lib/events/handlers";
import {
  deletePetPhotoHandler,
  getPetPhotoHandler,
  listPetPhotosHandler,
  orderPetPhotosHandler,
  updatePetPhotoHandler,
  uploadPetPhotoHandler,
} from "@/lib/photos/handlers";
import { MAX_PHOTO_BYTES, MAX_PHOTO_PIXELS, PHOTO_TYPES } from "@/lib/photos/image";
import {
  MAX_PHOTOS_PER_PET,
  photoIdSchema,
  photoOrderSchema,
  photoPatchSchema,
  photoSchema,
  photoSizeQuerySchema,
} from "@/lib/photos/schema";
import { eventSchema, listEventsQuerySchema } from "@/lib/events/schema";
import {
  inventorySchema,
  listOrdersQuerySchema,
  newOrderSchema,
  orderCountsSchema,
  orderIdSchema,
  orderSchema,
} from "@/lib/orders/schema";

// The /v1 route table: every operation of the API, declared once — method, path, handler, and the
// facts its OpenAPI document gives. Next serves these through the route files under app/v1 (each
// re-exports v1Route(path)), server.ts's fast path dispatches from the same table (lib/v1/router.ts),
// and the OpenAPI document's paths are generated from it. Adding an operation is: its handler, its
// entry here, its schema.

export type V1Operation = {
  method: OperationMethod;
  /** The path as OpenAPI writes it: `{name}` for a parameter. */
  path: string;
  /** The operation's name: in the OpenAPI document, and as the metrics' label. */
  operationId: string;
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

const etagHeader = {
  description:
    'The pet\'s strong entity-tag (`"<id>.<version>"`, to be treated as opaque): it changes whenever the pet ' +
    "changes. Send it back as `If-Match` to change the pet only if nobody changed it meanwhile.",
  schema: { type: "string" },
};
const ifMatchHeader = {
  name: "If-Match",
  description:
    "Optional. Apply the change only while the pet's ETag is one of these (or `*`: any existing pet); " +
    "otherwise 412 `precondition_failed` and nothing changes. Without it, the change is unconditional.",
  schema: { type: "string" },
};
const ifNoneMatchOnChange = {
  name: "If-None-Match",
  description:
    "Optional. `*`, or ETags under which the change must not be made: when the pet's current ETag is among them " +
    "(compared weakly), or the pet exists at all for `*`, 412 `precondition_failed` and nothing changes.",
  schema: { type: "string" },
};
const preconditionFailed = errorAnswer(["precondition_failed"], {
  description:
    "`precondition_failed`: the pet has changed since the ETag in `If-Match` was read; nothing was changed. " +
    "Read the pet again (its current values and ETag), then decide whether to apply the change again.",
});
const petPath = { petId: petIdSchema };
const orderPath = { orderId: orderIdSchema };
const idempotencyKeyHeader = {
  name: "Idempotency-Key",
  description:
    "1 to 255 visible ASCII characters (a UUID, say), scoped to the API key and kept 24 hours; quoted or not.",
  schema: { type: "string", minLength: 1, maxLength: 255 },
};
const idempotentReplayedHeader = {
  description: "`true` when this is the stored answer to an earlier request with the same Idempotency-Key.",
  schema: { type: "string" },
};
const orderEtagHeader = {
  description:
    'The order\'s strong entity-tag (`"<id>.<version>"`, to be treated as opaque): it changes whenever the order ' +
    "changes. Send it back as `If-Match` to change the order only if nobody changed it meanwhile.",
  schema: { type: "string" },
};
const orderIfMatchHeader = {
  name: "If-Match",
  description:
    "Optional. Apply the change only while the order's ETag is one of these (or `*`); otherwise 412 " +
    "`precondition_failed` and nothing changes.",
  schema: { type: "string" },
};

export const v1Operations: readonly V1Operation[] = [
  {
    method: "GET",
    path: "/v1/pets",
    operationId: "listPets",
    handler: listPetsHandler,
    openapi: {
      summary: "List pets",
      description:
        "A page of pets, in ascending id order (oldest first) unless `sort` asks for another, optionally only " +
        "those with one status (or none: `status=none`), of some categories (`categoryId`) and whose name " +
        'contains `q`. Follow the `Link` rel="next" header for the next page: it keeps the same filters and ' +
        "order. Every order is answered from an index, however deep the page.",
      query: listPetsQuerySchema,
      responses: {
        "200": {
          description: "A page of pets (a bare array; `[]` when none).",
          headers: {
            Link: {
              description:
                "Present when more pets follow: " +
                '`</v1/pets?limit=…&status=…&categoryId=…&q=…&sort=…&cursor=…>; rel="next"`.',
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
    method: "GET",
    path: "/v1/pets/counts",
    operationId: "countPets",
    handler: countPetsHandler,
    openapi: {
      summary: "Count pets",
      description:
        "How many pets there are, in all and by status (`none`: without one), optionally only those of some " +
        "categories (`categoryId`) and whose name contains `q`. Without either the counts are exact and cost one " +
        "read of four rows, however many pets there are; with them the matches are counted, up to a bound " +
        "(see `exact`).",
      query: countPetsQuerySchema,
      responses: {
        "200": {
          description: "The counts.",
          headers: { "X-Request-Id": requestIdHeader, ...rateLimitHeaders },
          content: { "application/json": { schema: ref(petCountsSchema) } },
        },
        "400": errorAnswer(["invalid_query"]),
        ...commonErrors,
      },
    },
  },
  {
    method: "GET",
    path: "/v1/pets/export",
    operationId: "exportPets",
    handler: exportPetsHandler,
    openapi: {
      summary: "Export pets as CSV",
      description:
        "Every pet of a view of the list, as one CSV download (RFC 4180, UTF-8, CRLF line ends, a header row): " +
        "the same `status`, `categoryId`, `q` and `sort` as listPets, in the same order, without paging. The " +
        "columns are " +
        "`id,name,categoryId,status,category` (an empty `status` for a pet without one; `category` is the name " +
        "listCategories gives the categoryId, empty when it has none); ids and categoryIds are " +
        "written digit for digit over the whole int64 range. A name is quoted when it holds a comma, a " +
        "semicolon, a quote or a line break, and one starting with `=`, `+`, `-`, `@` or a tab gets a leading " +
        "`'` so that a spreadsheet never runs it as a formula. The body is streamed as the pets are read, " +
        "page by page: a download of any size starts at once, and a client that disconnects stops the reads. " +
        "One export is one request against the key's rate limit. Errors before the first byte are the usual " +
        "JSON `Error` bodies; a failure mid-download cuts the body short (its last line then lacks its CRLF).",
      query: exportPetsQuerySchema,
      responses: {
        "200": {
          description: "The pets of the view, as CSV.",
          headers: {
            "Content-Disposition": {
              description: 'Always `attachment; filename="pets-….csv"`, naming the view and the day.',
              schema: { type: "string" },
            },
            "X-Request-Id": requestIdHeader,
            ...rateLimitHeaders,
          },
          content: {
            "text/csv": {
              schema: { type: "string" },
              example: 'id,name,categoryId,status,category\r\n1,Rex,1,available,Dogs\r\n2,"Tom, the cat",17,,\r\n',
            },
          },
        },
        "400": errorAnswer(["invalid_query"]),
        ...commonErrors,
      },
    },
  },
  {
    method: "POST",
    path: "/v1/pets",
    operationId: "createPet",
    handler: createPetHandler,
    openapi: {
      summary: "Add a pet",
      description:
        "Send an `Idempotency-Key` to retry safely: the same key with the same body within 24 hours replays " +
        "the first answer (with `Idempotent-Replayed: true`) instead of adding a second pet.",
      headers: [idempotencyKeyHeader],
      body: newPetSchema,
      responses: {
        "201": {
          description: "The pet as stored, with its id.",
          headers: {
            Location: { description: "/v1/pets/{id} of the new pet.", schema: { type: "string" } },
            ETag: etagHeader,
            "Idempotent-Replayed": idempotentReplayedHeader,
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
    method: "POST",
    path: "/v1/pets/batch",
    operationId: "batchPets",
    handler: batchPetsHandler,
    openapi: {
      summary: "Change or delete many pets at once",
      description:
        `One change to up to ${BATCH_MAX_PETS} pets, atomic: \`{"action": "update", "ids": [...], "set": ` +
        '{"status": "sold"}}` sets a status (`null` removes it), a `categoryId`, or both; `{"action": "delete", ' +
        '"ids": [...]}` deletes. Every pet named is changed, or none is: a pet that does not exist, or one an open ' +
        "order holds whose status would change or that would be deleted, refuses the whole batch with 409 " +
        "`batch_refused`, whose `errors[]` names each such pet by its place in `ids` (`ids.3`), so that the rest " +
        "can be sent again without them. A pet that already has what `set` gives is left as it is (`changed: " +
        "false`). Each pet changed gets its own audit record and event, as its own PATCH or DELETE would. The body " +
        `may be up to ${BATCH_BODY_LIMIT_BYTES / 1024} KiB. \`Idempotency-Key\` works as on createPet.`,
      headers: [idempotencyKeyHeader],
      body: petBatchSchema,
      responses: {
        "200": {
          description: "What the batch did to each pet, in the order of `ids`.",
          headers: {
            "Idempotent-Replayed": idempotentReplayedHeader,
            "X-Request-Id": requestIdHeader,
            ...rateLimitHeaders,
          },
          content: { "application/json": { schema: ref(petBatchResultSchema) } },
        },
        "400": errorAnswer(["invalid_body", "invalid_json", "invalid_header"]),
        "409": errorAnswer(["batch_refused", "idempotency_key_in_progress"]),
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
    operationId: "getPet",
    handler: getPetHandler,
    deprecation: getPetDeprecation,
    openapi: {
      summary: "Get a pet (deprecated; 410 Gone from 2030-12-05)",
      description:
        "Use `GET /pets` instead, with the `status` filter (and `q`) to narrow it. From its sunset " +
        "(the `Sunset` header: 2030-12-05T00:00:00Z) on, every call is answered 410 `gone`, with the successor in " +
        '`Link: </v1/pets>; rel="successor-version"`. Until then it answers with the pet\'s `ETag`; ' +
        "with `If-None-Match` naming it, 304 without a body; with an `If-Match` that does not, 412. Malformed " +
        "conditional headers are ignored here, as they were before the pet had an ETag.",
      path: petPath,
      headers: [
        {
          name: "If-None-Match",
          description: "Optional: ETags the client already holds; when one is current, 304 Not Modified.",
          schema: { type: "string" },
        },
        {
          name: "If-Match",
          description: "Optional: answer only if the pet's current ETag is among these (or `*`), else 412.",
          schema: { type: "string" },
        },
      ],
      responses: {
        "200": {
          description: "The pet.",
          headers: { ETag: etagHeader, "X-Request-Id": requestIdHeader },
          content: { "application/json": { schema: ref(petSchema) } },
        },
        "304": { description: "The pet is unchanged since the ETag in If-None-Match.", headers: { ETag: etagHeader } },
        "400": errorAnswer(["invalid_path"]),
        "404": errorAnswer(["not_found"]),
        "410": errorAnswer(["gone"], {
          description:
            "`gone`: getPet's sunset has passed and it is removed; list pets with `GET /v1/pets` (the successor " +
            "in `Link`). Nothing was read.",
        }),
        "412": preconditionFailed,
        ...commonErrors,
      },
    },
  },
  {
    method: "PATCH",
    path: "/v1/pets/{petId}",
    operationId: "updatePet",
    handler: updatePetHandler,
    openapi: {
      summary: "Change a pet",
      description:
        "A JSON Merge Patch (RFC 7396): the members sent are set, each validated as in createPet; " +
        '`"status": null` removes the status; `{}` changes nothing. Any status may follow any other, except ' +
        "while an open order holds the pet: then its status is the order's to move (409 `pet_on_hold`). " +
        "Answers with the whole pet and its new `ETag`. Send `If-Match` with the ETag you read so that a " +
        "colleague's change made meanwhile is never overwritten (412 instead).",
      path: petPath,
      headers: [ifMatchHeader, ifNoneMatchOnChange],
      body: petPatchSchema,
      bodyMediaTypes: MERGE_PATCH_TYPES,
      responses: {
        "200": {
          description: "The pet as it is now.",
          headers: { ETag: etagHeader, "X-Request-Id": requestIdHeader, ...rateLimitHeaders },
          content: { "application/json": { schema: ref(petSchema) } },
        },
        "400": errorAnswer(["invalid_body", "invalid_json", "invalid_path", "invalid_header"]),
        "404": errorAnswer(["not_found"]),
        "409": errorAnswer(["pet_on_hold"]),
        "412": preconditionFailed,
        "413": errorAnswer(["payload_too_large"]),
        "415": errorAnswer(["unsupported_media_type"], {
          headers: {
            "Accept-Patch": { description: "The body types PATCH takes.", schema: { type: "string" } },
          },
        }),
        ...commonErrors,
      },
    },
  },
  {
    method: "DELETE",
    path: "/v1/pets/{petId}",
    operationId: "deletePet",
    handler: deletePetHandler,
    openapi: {
      summary: "Remove a pet",
      description:
        "The pet leaves every list at once; its id is never given to another pet. A second delete is a 404. " +
        "A pet held by an open order cannot be deleted (409 `pet_on_hold`). " +
        "`If-Match` makes it conditional, as for updatePet.",
      path: petPath,
      headers: [ifMatchHeader, ifNoneMatchOnChange],
      responses: {
        "204": { description: "Deleted.", headers: { "X-Request-Id": requestIdHeader, ...rateLimitHeaders } },
        "400": errorAnswer(["invalid_path", "invalid_header"]),
        "404": errorAnswer(["not_found"]),
        "409": errorAnswer(["pet_on_hold"]),
        "412": preconditionFailed,
        ...commonErrors,
      },
    },
  },
  {
    method: "GET",
    path: "/v1/pets/{petId}/photos",
    operationId: "listPetPhotos",
    handler: listPetPhotosHandler,
    openapi: {
      summary: "List a pet's photos",
      description:
        "Every photo of the pet, in order: the first is its cover. Each names the URLs of its three sizes. No " +
        "parameters; any is refused.",
      path: petPath,
      responses: {
        "200": {
          description: "The pet's photos (a bare array; `[]` when none).",
          headers: { "X-Request-Id": requestIdHeader, ...rateLimitHeaders },
          content: { "application/json": { schema: { type: "array", items: ref(photoSchema) } } },
        },
        "400": errorAnswer(["invalid_path", "invalid_query"]),
        "404": errorAnswer(["not_found"]),
        ...commonErrors,
      },
    },
  },
  {
    method: "POST",
    path: "/v1/pets/{petId}/photos",
    operationId: "uploadPetPhoto",
    handler: uploadPetPhotoHandler,
    openapi: {
      summary: "Add a photo of a pet",
      description:
        "One image as the body (`image/jpeg`, `image/png` or `image/webp`, at most " +
        `${MAX_PHOTO_BYTES / 1024 / 1024} ` +
        `MiB and ${MAX_PHOTO_PIXELS / 1_000_000} megapixels), added after the pet's other photos (at most ` +
        `${MAX_PHOTOS_PER_PET}). Nothing is kept as sent: the image is decoded and encoded again, so its metadata ` +
        "(a camera's GPS position among it) is dropped and its EXIF orientation applied; an animated image keeps " +
        "its first frame only. The thumbnail and medium sizes are made now, so that reading them costs a lookup. " +
        "A body that is another type than its `Content-Type` says (a PNG sent as `image/jpeg`) is refused.",
      path: petPath,
      binaryBody: { mediaTypes: PHOTO_TYPES, description: "The image's bytes." },
      responses: {
        "201": {
          description: "The photo as stored.",
          headers: {
            Location: { description: "/v1/pets/{petId}/photos/{photoId}: the full size.", schema: { type: "string" } },
            "X-Request-Id": requestIdHeader,
            ...rateLimitHeaders,
          },
          content: { "application/json": { schema: ref(photoSchema) } },
        },
        "400": errorAnswer(["invalid_image", "invalid_path"]),
        "404": errorAnswer(["not_found"]),
        "409": errorAnswer(["too_many_photos"]),
        "413": errorAnswer(["payload_too_large", "image_too_large"]),
        "415": errorAnswer(["unsupported_media_type"]),
        ...commonErrors,
      },
    },
  },
  {
    method: "PATCH",
    path: "/v1/pets/{petId}/photos",
    operationId: "orderPetPhotos",
    handler: orderPetPhotosHandler,
    openapi: {
      summary: "Reorder a pet's photos, or set its cover",
      description:
        '`{"order": [ids…]}` names every photo of the pet once, in the order to show them; `{"cover": id}` moves ' +
        "one to the front and leaves the others in their order. Answers with the photos in their new order.",
      path: petPath,
      body: photoOrderSchema,
      responses: {
        "200": {
          description: "The pet's photos, in their new order.",
          headers: { "X-Request-Id": requestIdHeader, ...rateLimitHeaders },
          content: { "application/json": { schema: { type: "array", items: ref(photoSchema) } } },
        },
        "400": errorAnswer(["invalid_body", "invalid_json", "invalid_path"]),
        "404": errorAnswer(["not_found"]),
        "413": errorAnswer(["payload_too_large"]),
        "415": errorAnswer(["unsupported_media_type"]),
        ...commonErrors,
      },
    },
  },
  {
    method: "GET",
    path: "/v1/pets/{petId}/photos/{photoId}",
    operationId: "getPetPhoto",
    handler: getPetPhotoHandler,
    openapi: {
      summary: "Read a photo's image",
      description:
        "The image itself, in the size `size` asks for. A photo's bytes never change, so the answer has a strong " +
        "`ETag` and `Cache-Control: public, max-age=31536000, immutable`; with `If-None-Match` naming the ETag, " +
        "304 without a body.",
      path: { ...petPath, photoId: photoIdSchema },
      query: photoSizeQuerySchema,
      headers: [
        {
          name: "If-None-Match",
          description: "Optional: the ETag already held; when it is this image's, 304 Not Modified.",
          schema: { type: "string" },
        },
      ],
      responses: {
        "200": {
          description: "The image.",
          headers: {
            ETag: { description: "The image's strong entity-tag.", schema: { type: "string" } },
            "Cache-Control": { description: "`public, max-age=31536000, immutable`.", schema: { type: "string" } },
            "X-Request-Id": requestIdHeader,
            ...rateLimitHeaders,
          },
          content: Object.fromEntries(
            PHOTO_TYPES.map((type) => [type, { schema: { type: "string", format: "binary" } }]),
          ),
        },
        "304": { description: "The image is the one in If-None-Match." },
        "400": errorAnswer(["invalid_path", "invalid_query"]),
        "404": errorAnswer(["not_found"]),
        ...commonErrors,
      },
    },
  },
  {
    method: "PATCH",
    path: "/v1/pets/{petId}/photos/{photoId}",
    operationId: "updatePetPhoto",
    handler: updatePetPhotoHandler,
    openapi: {
      summary: "Change a photo's text alternative",
      description: '`{"alt": "…"}` sets the words read in the photo\'s place; `{"alt": null}` uses the pet\'s name.',
      path: { ...petPath, photoId: photoIdSchema },
      body: photoPatchSchema,
      responses: {
        "200": {
          description: "The photo as it is now.",
          headers: { "X-Request-Id": requestIdHeader, ...rateLimitHeaders },
          content: { "application/json": { schema: ref(photoSchema) } },
        },
        "400": errorAnswer(["invalid_body", "invalid_json", "invalid_path"]),
        "404": errorAnswer(["not_found"]),
        "413": errorAnswer(["payload_too_large"]),
        "415": errorAnswer(["unsupported_media_type"]),
        ...commonErrors,
      },
    },
  },
  {
    method: "DELETE",
    path: "/v1/pets/{petId}/photos/{photoId}",
    operationId: "deletePetPhoto",
    handler: deletePetPhotoHandler,
    openapi: {
      summary: "Delete a photo",
      description: "The photo and its sizes are removed; the photos after it move up (the next becomes the cover).",
      path: { ...petPath, photoId: photoIdSchema },
      responses: {
        "204": { description: "Deleted.", headers: { "X-Request-Id": requestIdHeader, ...rateLimitHeaders } },
        "400": errorAnswer(["invalid_path"]),
        "404": errorAnswer(["not_found"]),
        ...commonErrors,
      },
    },
  },
  {
    method: "GET",
    path: "/v1/categories",
    operationId: "listCategories",
    handler: listCategoriesHandler,
    openapi: {
      tag: "categories",
      summary: "List category names",
      description:
        "Every named category, sorted by name (ignoring case; names that compare equal by id), in one answer: " +
        "categories are named by hand in the admin app, so there are few. A pet's `categoryId` need not be " +
        "among them: createPet and updatePet accept any int64 `categoryId`, and an id without a name is simply " +
        "absent here. No parameters; any is refused.",
      responses: {
        "200": {
          description: "The named categories (a bare array; `[]` when none).",
          headers: { "X-Request-Id": requestIdHeader, ...rateLimitHeaders },
          content: { "application/json": { schema: { type: "array", items: ref(categorySchema) } } },
        },
        "400": errorAnswer(["invalid_query"]),
        ...commonErrors,
      },
    },
  },
  {
    method: "POST",
    path: "/v1/store/orders",
    operationId: "placeOrder",
    handler: placeOrderHandler,
    openapi: {
      tag: "store",
      summary: "Place an order",
      description:
        "Sells an `available` pet to a customer: in one transaction the order is placed and the pet becomes " +
        "`pending`, held for the customer until the order's `expiresAt` (`ORDER_HOLD_SECONDS` after placing, two " +
        "days by default), when a placed order expires and its pet is `available` again. Of any number of " +
        "concurrent orders for one pet exactly one is placed; the others are 409 `pet_not_available`. While the " +
        "order is open (placed or approved) the pet's status cannot be changed and the pet cannot be deleted " +
        "(409 `pet_on_hold`). `Idempotency-Key` works as on createPet.",
      headers: [idempotencyKeyHeader],
      body: newOrderSchema,
      responses: {
        "201": {
          description: "The order as placed.",
          headers: {
            Location: { description: "/v1/store/orders/{id} of the new order.", schema: { type: "string" } },
            ETag: orderEtagHeader,
            "Idempotent-Replayed": idempotentReplayedHeader,
            "X-Request-Id": requestIdHeader,
            ...rateLimitHeaders,
          },
          content: { "application/json": { schema: ref(orderSchema) } },
        },
        "400": errorAnswer(["invalid_body", "invalid_json", "invalid_header", "unknown_pet"]),
        "409": errorAnswer(["pet_not_available", "idempotency_key_in_progress"]),
        "413": errorAnswer(["payload_too_large"]),
        "415": errorAnswer(["unsupported_media_type"]),
        "422": errorAnswer(["idempotency_key_reused"]),
        ...commonErrors,
      },
    },
  },
  {
    method: "GET",
    path: "/v1/store/orders",
    operationId: "listOrders",
    handler: listOrdersHandler,
    openapi: {
      tag: "store",
      summary: "List orders",
      description:
        "A page of orders, in ascending id order (oldest first) unless `sort=-id` asks for newest first, " +
        "optionally only those of one status, of one pet, and whose customer name contains `q`. Follow the " +
        '`Link` rel="next" header for the next page, exactly as for listPets.',
      query: listOrdersQuerySchema,
      responses: {
        "200": {
          description: "A page of orders (a bare array; `[]` when none).",
          headers: {
            Link: {
              description: 'Present when more orders follow: `</v1/store/orders?limit=…&cursor=…>; rel="next"`.',
              schema: { type: "string" },
            },
            "X-Request-Id": requestIdHeader,
            ...rateLimitHeaders,
          },
          content: { "application/json": { schema: { type: "array", items: ref(orderSchema) } } },
        },
        "400": errorAnswer(["invalid_query"]),
        ...commonErrors,
      },
    },
  },
  {
    method: "GET",
    path: "/v1/store/orders/counts",
    operationId: "countOrders",
    handler: countOrdersHandler,
    openapi: {
      tag: "store",
      summary: "Count orders",
      description: "How many orders there are, in all and by status. No parameters; any is refused.",
      responses: {
        "200": {
          description: "The counts.",
          headers: { "X-Request-Id": requestIdHeader, ...rateLimitHeaders },
          content: { "application/json": { schema: ref(orderCountsSchema) } },
        },
        "400": errorAnswer(["invalid_query"]),
        ...commonErrors,
      },
    },
  },
  {
    method: "GET",
    path: "/v1/store/orders/{orderId}",
    operationId: "getOrder",
    handler: getOrderHandler,
    openapi: {
      tag: "store",
      summary: "Get an order",
      description:
        "The order with its `ETag`; with `If-None-Match` naming the current one, 304 without a body. A placed " +
        "order is never shown past its `expiresAt`: it is expired first.",
      path: orderPath,
      headers: [
        {
          name: "If-None-Match",
          description: "Optional: ETags the client already holds; when one is current, 304 Not Modified.",
          schema: { type: "string" },
        },
      ],
      responses: {
        "200": {
          description: "The order.",
          headers: { ETag: orderEtagHeader, "X-Request-Id": requestIdHeader, ...rateLimitHeaders },
          content: { "application/json": { schema: ref(orderSchema) } },
        },
        "304": { description: "The order is unchanged.", headers: { ETag: orderEtagHeader } },
        "400": errorAnswer(["invalid_path"]),
        "404": errorAnswer(["not_found"]),
        ...commonErrors,
      },
    },
  },
  ...(
    [
      [
        "approve",
        "approveOrder",
        approveOrderHandler,
        "Approve an order",
        "placed → approved. An approved order no longer expires.",
      ],
      [
        "deliver",
        "deliverOrder",
        deliverOrderHandler,
        "Deliver an order",
        "placed or approved → delivered, and the pet becomes `sold`.",
      ],
      [
        "cancel",
        "cancelOrder",
        cancelOrderHandler,
        "Cancel an order",
        "placed or approved → cancelled, and the pet becomes `available` again, orderable at once.",
      ],
    ] as const
  ).map(([verb, operationId, handler, summary, move]): V1Operation => ({
    method: "POST",
    path: `/v1/store/orders/{orderId}/${verb}`,
    operationId,
    handler,
    openapi: {
      tag: "store",
      summary,
      description:
        `${move} No body. Any other move (approving twice, delivering a cancelled order, cancelling a ` +
        "delivered one, touching an expired one) is 409 `order_status_conflict`, naming the order's status, and " +
        "nothing changes. Send `If-Match` with the order's ETag so that a colleague's change made meanwhile is " +
        "never overtaken (412 instead). Of two concurrent changes of one order exactly one applies.",
      path: orderPath,
      headers: [orderIfMatchHeader],
      responses: {
        "200": {
          description: "The order as it is now.",
          headers: { ETag: orderEtagHeader, "X-Request-Id": requestIdHeader, ...rateLimitHeaders },
          content: { "application/json": { schema: ref(orderSchema) } },
        },
        "400": errorAnswer(["invalid_path", "invalid_header"]),
        "404": errorAnswer(["not_found"]),
        "409": errorAnswer(["order_status_conflict"]),
        "412": errorAnswer(["precondition_failed"], {
          description:
            "`precondition_failed`: the order changed since the ETag in `If-Match` was read; nothing changed.",
        }),
        ...commonErrors,
      },
    },
  })),
  {
    method: "GET",
    path: "/v1/store/inventory",
    operationId: "getInventory",
    handler: getInventoryHandler,
    openapi: {
      tag: "store",
      summary: "Count pets by status",
      description:
        "How many pets are available, pending and sold: exact, from the counts the catalogue keeps in every " +
        "change's transaction (one read, however many pets). Pets without a status are not counted here (see " +
        "countPets). No parameters; any is refused.",
      responses: {
        "200": {
          description: "The counts.",
          headers: { "X-Request-Id": requestIdHeader, ...rateLimitHeaders },
          content: { "application/json": { schema: ref(inventorySchema) } },
        },
        "400": errorAnswer(["invalid_query"]),
        ...commonErrors,
      },
    },
  },
  {
    method: "GET",
    path: "/v1/events",
    operationId: "listEvents",
    handler: listEventsHandler,
    openapi: {
      tag: "events",
      summary: "Follow every change",
      description:
        "The events feed: one event per committed change to a pet, an order or a category, in ascending id " +
        "order, written in the change's own transaction (a refused or rolled-back change has none). To follow " +
        'it, keep asking for `after=<the last id seen>`, or follow the `Link` rel="next" header, which is always ' +
        "there: every committed event is seen exactly once, in id order, also while many clients write at once " +
        "(an event never becomes visible below an id already served). Events are kept `EVENT_RETENTION_DAYS` " +
        "(30 by default); without `after` the feed starts at the oldest kept.",
      query: listEventsQuerySchema,
      responses: {
        "200": {
          description: "A page of events (a bare array; `[]` when none is newer).",
          headers: {
            Link: {
              description:
                'Always: `</v1/events?after=<last id>&limit=…>; rel="next"`, the position after this page (the ' +
                "same `after` when the page is empty).",
              schema: { type: "string" },
            },
            "X-Request-Id": requestIdHeader,
            ...rateLimitHeaders,
          },
          content: { "application/json": { schema: { type: "array", items: ref(eventSchema) } } },
        },
        "400": errorAnswer(["invalid_query"]),
        ...commonErrors,
      },
    },
  },
  {
    method: "GET",
    path: "/v1/openapi.json",
    operationId: "getOpenApiDocument",
    handler: openApiHandler,
    anonymous: true,
  },
];
