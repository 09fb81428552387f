// The catalogue of error codes: code → HTTP status → default message (and, for /v1, when it is answered: the
// table in docs/api.md is generated from it by scripts/generate-docs.ts). Every error the service answers,
// on /v1 and on the admin app's endpoints, comes from here; nothing else invents a code. `adminOnly`
// codes are answered by the admin endpoints alone, so the /v1 contract and its OpenAPI document list
// exactly what /v1 answers.

export const errorCodes = {
  invalid_body: {
    status: 400,
    message: "The request body is invalid.",
    when: "the body is JSON but not a valid NewPet, PetPatch or NewOrder (missing, wrong or unknown members)",
  },
  invalid_json: {
    status: 400,
    message: "The request body is not valid JSON.",
    when:
      "the body is empty, not UTF-8, not JSON, has differing duplicate members, or nests arrays " +
      "and objects over 64 deep",
  },
  invalid_query: {
    status: 400,
    message: "The query string is invalid.",
    when:
      "a bad `limit`, `status`, `categoryId`, `q`, `sort` or `cursor` (or one from another `sort`), an unknown " +
      "parameter, or one given twice",
  },
  invalid_path: {
    status: 400,
    message: "The path is invalid.",
    when: "`petId` or `orderId` is not a positive decimal int64; a malformed request target",
  },
  invalid_header: {
    status: 400,
    message: "A request header is invalid.",
    when: "an `Idempotency-Key` that is not 1–255 visible ASCII characters; a malformed `If-Match`/`If-None-Match`",
  },
  unauthorized: {
    status: 401,
    message: "A valid API key is required: send Authorization: Bearer <key>.",
    when: 'the key is missing, malformed, unknown or revoked; with `WWW-Authenticate: Bearer realm="animal-store"`',
  },
  not_found: {
    status: 404,
    message: "Nothing exists at this path.",
    when: "no pet or order has that id; nothing exists at that path under `/v1`",
  },
  method_not_allowed: {
    status: 405,
    message: "This method is not supported on this path.",
    when: "with an `Allow` header naming the supported methods",
  },
  idempotency_key_in_progress: {
    status: 409,
    message: "A request with this Idempotency-Key is still being processed; retry shortly.",
    when: "a request with the same `Idempotency-Key` is still running; with `Retry-After`",
  },
  precondition_failed: {
    status: 412,
    message:
      "The pet has changed since it was read: If-Match does not match its current ETag. Read it again, then retry.",
    when: "`If-Match` does not name the pet's or order's current `ETag`: it changed meanwhile, and nothing was changed",
  },
  unknown_pet: {
    status: 400,
    message: "The petId names no pet of the catalogue: an order is for a pet that exists.",
    when: "placeOrder: `petId` names no pet, or a deleted one (with `errors[]` naming `petId`)",
  },
  pet_not_available: {
    status: 409,
    message: "This pet is not available: only an available pet can be ordered.",
    when: "placeOrder: the pet is pending, sold or without a status (the message says which); nothing changed",
  },
  order_status_conflict: {
    status: 409,
    message: "The order's status does not allow this change.",
    when:
      "approve, deliver or cancel of an order whose status does not allow it (approved twice, delivered or " +
      "cancelled already, expired); the message names its current status, and nothing changed",
  },
  pet_on_hold: {
    status: 409,
    message: "An open order holds this pet: its status cannot change, nor can it be deleted, until the order ends.",
    when:
      "updatePet changing `status`, or deletePet, while a placed or approved order holds the pet (the message names " +
      "the order); deliver, cancel or let the order expire first",
  },
  invalid_image: {
    status: 400,
    message: "The request body is not an image this API takes.",
    when:
      "uploadPetPhoto: the bytes cannot be decoded as an image, or are another type than their `Content-Type` says " +
      "(a PNG sent as `image/jpeg`); the message says which",
  },
  image_too_large: {
    status: 413,
    message: "The image has too many pixels: at most 40 megapixels are accepted.",
    when: "uploadPetPhoto: the image's width × height is over 40,000,000, judged from its header before decoding",
  },
  too_many_photos: {
    status: 409,
    message: "This pet has as many photos as it may have: delete one first.",
    when: "uploadPetPhoto: the pet has 20 photos already",
  },
  batch_refused: {
    status: 409,
    message: "Nothing was changed: some of the pets named stand in the way. Leave them out and send the batch again.",
    when:
      "batchPets: a pet named does not exist (or was deleted), or an open order holds a pet whose status would " +
      "change or that would be deleted; `errors[]` names each by its place in `ids` (`ids.3`), and nothing changed",
  },
  payload_too_large: {
    status: 413,
    message: "The request body is larger than 16 KiB.",
    when:
      "the body is over 16 KiB (batchPets: 32 KiB; uploadPetPhoto: 10 MiB), refused from `Content-Length` before " +
      "reading, or as soon as it passes",
  },
  unsupported_media_type: {
    status: 415,
    message: "The request body must be sent as Content-Type: application/json.",
    when:
      "createPet and placeOrder: not `application/json` (or `application/*+json`); updatePet: not " +
      "`application/merge-patch+json` or `application/json` (with `Accept-Patch`); uploadPetPhoto: not " +
      "`image/jpeg`, `image/png` or `image/webp`",
  },
  idempotency_key_reused: {
    status: 422,
    message: "This Idempotency-Key was already used with a different request body.",
    when: "the `Idempotency-Key` was used before with a different body",
  },
  rate_limited: {
    status: 429,
    message: "Too many requests for this API key; retry after the time in Retry-After.",
    when: "the key used up its quota; with `Retry-After` in seconds",
  },
  gone: {
    status: 410,
    message: "This operation was removed on its sunset date; use the successor-version in the Link header.",
    when:
      "getPet from its sunset, 2030-12-05T00:00:00Z, on: every call with a valid key; with " +
      '`Deprecation`, `Sunset` and `Link: </v1/pets>; rel="successor-version"`',
  },
  internal: {
    status: 500,
    message: "Something went wrong on our side; the request id identifies it.",
    when: "a bug; the log line names the request id",
  },
  service_unavailable: {
    status: 503,
    message: "The service cannot reach its database right now; retry shortly.",
    when: "the database cannot be reached; with `Retry-After`",
  },

  session_required: { status: 401, message: "Sign in first: this needs a staff session.", adminOnly: true },
  invalid_credentials: {
    status: 401,
    message: "Wrong email or password. Repeated failures lock an account for a while.",
    adminOnly: true,
  },
  sign_in_throttled: {
    status: 429,
    message: "Too many sign-in attempts. Try again after the time in Retry-After.",
    adminOnly: true,
  },
  cross_origin: {
    status: 403,
    message: "Refused: changes must come from the admin app's own pages (the Origin header does not match).",
    adminOnly: true,
  },
  admin_role_required: {
    status: 403,
    message: "Only an admin can do this: ask an admin of this store to do it, or to make you one.",
    adminOnly: true,
  },
  admin_app_key: {
    status: 409,
    message:
      "This is the admin app's own key: the keys page does not revoke it (no one holds its secret, and the app " +
      "needs it). If it must go, revoke it with npm run key -- revoke on the server; the app then makes a new one.",
    adminOnly: true,
  },
  staff_exists: {
    status: 409,
    message: "A staff account with this email already exists.",
    adminOnly: true,
  },
  last_admin: {
    status: 409,
    message: "Refused: the store must keep at least one enabled admin. Make another account an admin first.",
    adminOnly: true,
  },
  staff_unchanged: {
    status: 409,
    message: "Nothing changed: the account is already in that state.",
    adminOnly: true,
  },
  invalid_csv: {
    status: 400,
    message: "The file cannot be read as a CSV of pets: it needs a header row naming its columns, in UTF-8.",
    adminOnly: true,
  },
  import_file_changed: {
    status: 409,
    message:
      "This import was checked with another file: the file differs from the one its dry run read. Run the dry " +
      "run again with the file you mean to import.",
    adminOnly: true,
  },
  pet_exists: {
    status: 409,
    message: "This pet is in the catalogue: only a deleted pet can be restored.",
    adminOnly: true,
  },
  restore_not_yours: {
    status: 403,
    message:
      "Only the staff member who deleted this pet can undo the deletion, from the admin app. Add it again instead.",
    adminOnly: true,
  },
  restore_too_late: {
    status: 409,
    message: "Too late to undo: a deleted pet can be restored within a minute of its deletion. Add it again instead.",
    adminOnly: true,
  },
  category_name_taken: {
    status: 409,
    message: "Another category already has this name (names are compared ignoring case). Choose another name.",
    adminOnly: true,
  },
  category_named: {
    status: 409,
    message: "This category id already has a name: rename that category instead.",
    adminOnly: true,
  },
  webhook_url_refused: {
    status: 400,
    message:
      "This URL cannot be a webhook endpoint: it must be http or https, without a user name or password, and " +
      "reach a public address.",
    adminOnly: true,
  },
  webhook_endpoints_full: {
    status: 409,
    message: "A store has at most 50 webhook endpoints: delete one before adding another.",
    adminOnly: true,
  },
  admin_key_refused: {
    status: 503,
    message: "The admin app's API key was refused; retry in a moment.",
    adminOnly: true,
  },
} as const satisfies Record<string, { status: number; message: string; when?: string; adminOnly?: true }>;

export type ErrorCode = keyof typeof errorCodes;

/** The codes /v1 answers: what its OpenAPI document lists. */
export const v1ErrorCodes = (Object.keys(errorCodes) as ErrorCode[]).filter(
  (code) => !("adminOnly" in errorCodes[code]),
);
