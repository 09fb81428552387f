import fc from "fast-check";
import { Ajv2020 } from "ajv/dist/2020.js";
import { stringifyJson } from "@/lib/http/json";

// Property-based fuzzing of the /v1 API over real HTTP: generated bodies, query strings, path ids and
// headers. Every answer must be a documented success or a documented Error body — never a 5xx — and the
// server must stay up. Shared by tests/fuzz.test.ts (a bounded run) and scripts/fuzz.ts (a larger one).

type Operation =
  | "listPets"
  | "createPet"
  | "getPet"
  | "updatePet"
  | "deletePet"
  | "placeOrder"
  | "listOrders"
  | "getOrder"
  | "approveOrder"
  | "deliverOrder"
  | "cancelOrder"
  | "getInventory"
  | "listEvents";
export type FuzzRequest = {
  operation: Operation;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
};
export type FuzzStats = { requests: number; byStatus: Record<number, number> };

const INT64_EDGES = [
  "9223372036854775807",
  "9223372036854775808",
  "-9223372036854775808",
  "-9223372036854775809",
  "0",
  "-0",
  "1e3",
  "1.0",
  "1e400",
  "18446744073709551616",
  "9007199254740993",
];
const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
  maxLength: 40,
});
const oddUnicode = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 30 }),
  fc.string({ unit: "binary", maxLength: 30 }), // lone surrogates included
  fc.constantFrom(
    "\u0000",
    "\u202e",
    "\ufeff",
    "🐕‍🦺",
    "a\u0301",
    "\ud800",
    "\udfff",
    "<img src=x onerror=alert(1)>",
    "'; DROP TABLE pets; --",
  ),
);

/** A NewPet every operation accepts, so creates succeed and updates and deletes find pets to work on. */
const validPet = fc
  .record(
    {
      name: fc.oneof(
        printable.filter((text) => text.trim() !== ""),
        oddUnicode.filter((text) => text.trim() !== ""),
      ),
      categoryId: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      status: fc.constantFrom("available", "pending", "sold"),
    },
    { requiredKeys: ["name", "categoryId"] },
  )
  .map((value) => stringifyJson(value));

/**
 * JSON text that may be valid or not, deep, huge-numbered, duplicated or plain garbage. Valid pets carry
 * enough weight that a run always reaches the success paths: with 600 requests and five operations, a
 * run of only malformed bodies once created no pet at all, and the test then (rightly) failed.
 */
const bodyText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: validPet },
  // NewPet-shaped objects with wrong, edge and right values
  fc
    .record(
      {
        name: fc.oneof(
          oddUnicode,
          printable,
          fc.constant(""),
          fc.string({ minLength: 190, maxLength: 210 }),
          fc.integer(),
          fc.constant(null),
          fc.array(fc.string(), { maxLength: 2 }),
        ),
        categoryId: fc.oneof(
          fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }),
          fc.double(),
          fc.integer(),
          fc.string({ maxLength: 5 }),
          fc.constant(null),
          fc.boolean(),
        ),
        status: fc.oneof(
          fc.constantFrom("available", "pending", "sold", "AVAILABLE", "", "lost"),
          fc.constant(null),
          fc.integer(),
        ),
        id: fc.bigInt({ min: 1n, max: 2n ** 63n }),
        categoryID: fc.integer(),
        colour: fc.string({ maxLength: 5 }),
      },
      { requiredKeys: [] },
    )
    .map((value) => stringifyJson(value)),
  // numbers written at and past every int64 edge, as literals
  fc
    .tuple(oddUnicode, fc.constantFrom(...INT64_EDGES))
    .map(([name, number]) => `{"name":${JSON.stringify(name)},"categoryId":${number}}`),
  // any JSON at all
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value) ?? "null"),
  // deep nesting and duplicate keys
  fc.integer({ min: 1, max: 8000 }).map((depth) => "[".repeat(depth) + "]".repeat(depth)),
  fc.integer({ min: 1, max: 3000 }).map((depth) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth)),
  fc
    .tuple(printable, printable)
    .map(([a, b]) => `{"name":${JSON.stringify(a)},"name":${JSON.stringify(b)},"categoryId":1}`),
  // garbage and truncated JSON
  fc.string({ maxLength: 60 }),
  fc.jsonValue().map((value) => (JSON.stringify(value) ?? "").slice(0, -1)),
  // big bodies around the 16 KiB limit
  fc.integer({ min: 16_000, max: 17_000 }).map((size) => JSON.stringify({ name: "x".repeat(size), categoryId: 1 })),
);

const contentType = fc.oneof(
  fc.constant("application/json"),
  fc.constantFrom(
    "application/json; charset=utf-8",
    "APPLICATION/JSON",
    "application/merge-patch+json",
    "application/merge-patch+json; charset=utf-8",
    "application/json-patch+json",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "",
  ),
  printable,
);

const queryValue = fc.oneof(
  printable,
  fc.constantFrom(
    "0",
    "1",
    "20",
    "100",
    "101",
    "-1",
    "1.5",
    "abc",
    "",
    "available",
    "sold",
    "cDE6MQ",
    "cDE6OTk5OTk5OTk5OTk5OTk5OTk5OQ",
  ),
  oddUnicode,
);
const queryString = fc.oneof(
  fc
    .array(fc.tuple(fc.constantFrom("limit", "status", "cursor", "q", "Limit", "page", "", "limit[]"), queryValue), {
      maxLength: 4,
    })
    .map((pairs) => new URLSearchParams(pairs).toString()),
  fc.constantFrom("limit=%zz", "limit=%", "%ff=1", "status=%00", "limit=1&&&", "=&=", "cursor=%2F%2F"),
  // searches: wildcards, quotes and FTS5 syntax are plain text; short, long, control characters
  fc
    .tuple(
      fc.oneof(
        printable,
        oddUnicode,
        fc.constantFrom('"', '""', "%", "_", "\\", "*", "a OR b", "NEAR(a b)", "x".repeat(100), "x".repeat(101)),
      ),
      fc.option(fc.constantFrom("available", "sold", "lost"), { nil: undefined }),
      fc.option(fc.constantFrom("1", "100", "cDE6MQ"), { nil: undefined }),
    )
    .map(([q, status, cursor]) => {
      const query = new URLSearchParams({ q });
      if (status) query.set("status", status);
      if (cursor) query.set(cursor.length > 3 ? "cursor" : "limit", cursor);
      return query.toString();
    }),
);

/** If-Match / If-None-Match values: well-formed tags of likely pets, `*`, weak tags, lists, garbage. */
const entityTags = fc.option(
  fc.oneof(
    fc
      .tuple(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 4 }))
      .map(([id, version]) => `"${id}.${version}"`),
    fc.constantFrom("*", 'W/"1.1"', '"1.1", "2.1"', '"a" "b"', ",", '"', "", "W/", '"a b"', 'W/"x", *'),
    printable,
  ),
  { nil: undefined },
);

const pathId = fc.oneof(
  fc.constantFrom(...INT64_EDGES, "1", "2", "abc", "%zz", "%00", "1%2F2", "..", "%2e%2e", "1;2", "+1", " 1", "١"),
  fc.bigInt({ min: -(2n ** 65n), max: 2n ** 65n }).map(String),
  printable.map((text) => encodeURIComponent(text)),
  // a lone surrogate cannot be percent-encoded as UTF-8: send the bytes of one anyway
  oddUnicode.map((text) =>
    [...text].map((char) => (char.isWellFormed() ? encodeURIComponent(char) : "%ED%A0%80")).join(""),
  ),
);

/** Ids the run's own creates are likely to have made. */
const existingId = fc.integer({ min: 1, max: 60 }).map(String);

const requestId = fc.option(fc.oneof(printable, fc.constantFrom("x".repeat(129), "ok-id.1:2_3")), { nil: undefined });

/** Authorization values: mostly the valid key, often broken ones. */
function authorization(key: string) {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(`Bearer ${key}`, `bearer ${key}`) },
    {
      weight: 1,
      arbitrary: fc.option(
        fc.oneof(
          printable,
          printable.map((text) => `Bearer ${text}`),
          fc.constant(`Bearer ${key}x`),
          fc.constant(`Basic ${key}`),
        ),
        { nil: undefined },
      ),
    },
  );
}

/** A placeOrder body: mostly order-shaped (for pets the run likely made, or any id), sometimes any JSON text. */
const orderBody = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .record(
        {
          petId: fc.oneof(
            fc.integer({ min: 1, max: 60 }).map(BigInt),
            fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }),
          ),
          customerName: fc.oneof(printable, oddUnicode, fc.constant("x".repeat(101))),
          customerEmail: fc.oneof(printable, fc.constantFrom("ada@example.com", "a@b", "@", "x".repeat(300))),
        },
        { requiredKeys: ["petId", "customerName"] },
      )
      .map((value) => stringifyJson(value)),
  },
  { weight: 1, arbitrary: bodyText },
);

const ordersQuery = fc.oneof(
  fc
    .array(
      fc.tuple(
        fc.constantFrom("limit", "status", "petId", "q", "sort", "cursor", "page"),
        fc.oneof(queryValue, fc.constantFrom("placed", "approved", "expired", "-id", "id", "name")),
      ),
      { maxLength: 4 },
    )
    .map((pairs) => new URLSearchParams(pairs).toString()),
  fc.constantFrom("limit=%zz", "petId=%00", "q=%ff", "sort=-id&cursor=cDE6MQ"),
);

const eventsQuery = fc.oneof(
  fc
    .array(
      fc.tuple(
        fc.constantFrom("after", "limit", "type", "cursor"),
        fc.oneof(queryValue, fc.constantFrom("0", "pet.*", "order.*", "category.renamed", "pet.updated", "*")),
      ),
      { maxLength: 3 },
    )
    .map((pairs) => new URLSearchParams(pairs).toString()),
  fc.constantFrom("after=%zz", "type=%00", "after=9223372036854775807", "type=pet.*&after=1"),
);

export function requestArbitrary(key: string): fc.Arbitrary<FuzzRequest> {
  const headers = (extra: Record<string, string | undefined>) =>
    Object.fromEntries(Object.entries(extra).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return fc.oneof(
    fc.record({ auth: authorization(key), query: queryString, id: requestId }).map(({ auth, query, id }) => ({
      operation: "listPets" as const,
      method: "GET",
      path: `/v1/pets${query ? `?${query}` : ""}`,
      headers: headers({ Authorization: auth, "X-Request-Id": id }),
    })),
    fc
      .record({ auth: authorization(key), body: bodyText, type: contentType, id: requestId })
      .map(({ auth, body, type, id }) => ({
        operation: "createPet" as const,
        method: "POST",
        path: "/v1/pets",
        headers: headers({ Authorization: auth, "Content-Type": type || undefined, "X-Request-Id": id }),
        body,
      })),
    fc
      .record({ auth: authorization(key), petId: pathId, id: requestId, tags: entityTags })
      .map(({ auth, petId, id, tags }) => ({
        operation: "getPet" as const,
        method: "GET",
        path: `/v1/pets/${petId}`,
        headers: headers({ Authorization: auth, "X-Request-Id": id, "If-None-Match": tags }),
      })),
    fc
      .record({
        auth: authorization(key),
        petId: fc.oneof(existingId, pathId),
        body: bodyText,
        type: contentType,
        id: requestId,
        tags: entityTags,
      })
      .map(({ auth, petId, body, type, id, tags }) => ({
        operation: "updatePet" as const,
        method: "PATCH",
        path: `/v1/pets/${petId}`,
        headers: headers({
          Authorization: auth,
          "Content-Type": type || undefined,
          "X-Request-Id": id,
          "If-Match": tags,
        }),
        body,
      })),
    fc
      .record({ auth: authorization(key), petId: fc.oneof(existingId, pathId), id: requestId, tags: entityTags })
      .map(({ auth, petId, id, tags }) => ({
        operation: "deletePet" as const,
        method: "DELETE",
        path: `/v1/pets/${petId}`,
        headers: headers({ Authorization: auth, "X-Request-Id": id, "If-Match": tags }),
      })),
    fc
      .record({ auth: authorization(key), body: orderBody, type: contentType, id: requestId })
      .map(({ auth, body, type, id }) => ({
        operation: "placeOrder" as const,
        method: "POST",
        path: "/v1/store/orders",
        headers: headers({ Authorization: auth, "Content-Type": type || undefined, "X-Request-Id": id }),
        body,
      })),
    fc.record({ auth: authorization(key), query: ordersQuery }).map(({ auth, query }) => ({
      operation: "listOrders" as const,
      method: "GET",
      path: `/v1/store/orders${query ? `?${query}` : ""}`,
      headers: headers({ Authorization: auth }),
    })),
    fc
      .record({ auth: authorization(key), orderId: fc.oneof(existingId, pathId), tags: entityTags })
      .map(({ auth, orderId, tags }) => ({
        operation: "getOrder" as const,
        method: "GET",
        path: `/v1/store/orders/${orderId}`,
        headers: headers({ Authorization: auth, "If-None-Match": tags }),
      })),
    fc
      .record({
        auth: authorization(key),
        orderId: fc.oneof(existingId, pathId),
        verb: fc.constantFrom(...(["approve", "deliver", "cancel"] as const)),
        tags: entityTags,
      })
      .map(({ auth, orderId, verb, tags }) => ({
        operation: `${verb}Order` as const,
        method: "POST",
        path: `/v1/store/orders/${orderId}/${verb}`,
        headers: headers({ Authorization: auth, "If-Match": tags }),
      })),
    fc.record({ auth: authorization(key), query: eventsQuery }).map(({ auth, query }) => ({
      operation: "listEvents" as const,
      method: "GET",
      path: `/v1/events${query ? `?${query}` : ""}`,
      headers: headers({ Authorization: auth }),
    })),
    fc
      .record({ auth: authorization(key), query: fc.constantFrom("", "status=sold", "x=1") })
      .map(({ auth, query }) => ({
        operation: "getInventory" as const,
        method: "GET",
        path: `/v1/store/inventory${query ? `?${query}` : ""}`,
        headers: headers({ Authorization: auth }),
      })),
  );
}

export type OpenApiDocument = {
  paths: Record<
    string,
    Record<string, { operationId: string; responses: Record<string, { content?: Record<string, { schema: object }> }> }>
  >;
  components: { schemas: Record<string, object> };
};

/** Checks replies against the served OpenAPI document: documented status, matching body schema. */
export function openApiChecker(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat("int64", { type: "number", validate: (value: number) => Number.isInteger(value) });
  ajv.addFormat("date-time", (text: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(text));
  ajv.addFormat("email", (text: string) => /^[^\s@]+@[^\s@]+$/.test(text));
  ajv.addSchema({ $id: "openapi", components: document.components });
  const operations = new Map<string, Record<string, { content?: Record<string, { schema: object }> }>>();
  for (const methods of Object.values(document.paths))
    for (const operation of Object.values(methods)) operations.set(operation.operationId, operation.responses);
  const validators = new Map<string, ReturnType<typeof ajv.compile>>();
  const validatorFor = (schema: object) => {
    const key = JSON.stringify(schema);
    if (!validators.has(key))
      validators.set(key, ajv.compile(JSON.parse(key.replaceAll('"#/components/', '"openapi#/components/'))));
    return validators.get(key)!;
  };

  return (request: FuzzRequest, status: number, contentTypeHeader: string | null, text: string): string | undefined => {
    if (status >= 500) return `a ${status}`;
    const response = operations.get(request.operation)?.[String(status)];
    // 404 and 405 come from the HTTP edge and hold for every path; they are documented in docs/api.md.
    const edge = status === 404 || status === 405;
    if (!response && !edge) return `status ${status} is not documented for ${request.operation}`;
    // A documented answer without content (204 No Content, 304 Not Modified) has no body at all.
    if (response && !response.content && status < 400) return text === "" ? undefined : "a body where none belongs";
    if (!(contentTypeHeader ?? "").startsWith("application/json")) return `content-type ${contentTypeHeader}`;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return "the body is not JSON";
    }
    const schema = response?.content?.["application/json"]?.schema ?? { $ref: "#/components/schemas/Error" };
    const validate = validatorFor(schema);
    if (!validate(body)) return `the body does not match the document: ${ajv.errorsText(validate.errors)}`;
    if (status >= 400 && (body as { status: number }).status !== status)
      return "Error.status differs from the HTTP status";
    return undefined;
  };
}

/** Sends one generated request; resolves with a failure description, or undefined when the reply is valid. */
export async function sendAndCheck(
  baseUrl: string,
  request: FuzzRequest,
  check: ReturnType<typeof openApiChecker>,
  stats: FuzzStats,
): Promise<string | undefined> {
  const response = await fetch(baseUrl + request.path, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  stats.requests++;
  stats.byStatus[response.status] = (stats.byStatus[response.status] ?? 0) + 1;
  const problem = check(request, response.status, response.headers.get("content-type"), text);
  return (
    problem &&
    `${problem}\n  request: ${request.method} ${request.path} ${JSON.stringify(request.headers)} ` +
      `${request.body?.slice(0, 200) ?? ""}\n  reply: ${response.status} ${text.slice(0, 300)}`
  );
}
