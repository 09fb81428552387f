import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { z } from "zod";
import { ACTION_LABELS, AUDIT_ACTIONS } from "@/lib/audit/actions";
import { activityPetFilterSchema } from "@/lib/audit/activity-schema";
import { newKeySchema } from "@/lib/auth/api-key-schema";
import { safeReturnPath } from "@/lib/auth/return-path";
import { newStaffSchema, staffPasswordBodySchema } from "@/lib/auth/staff-schema";
import { categoryRenameSchema, newCategorySchema } from "@/lib/categories/schema";
import { INT64_MAX, INT64_MIN } from "@/lib/http/int64";
import { fieldErrors } from "@/lib/http/validation";
import { newOrderSchema } from "@/lib/orders/schema";
import { newPetSchema, petPatchSchema, petSchema } from "@/lib/pets/schema";
import {
  activityFilterMessages,
  categoryMessages,
  keyMessages,
  orderMessages,
  PAGE_LINK_EXPIRED,
  schemaRules,
  SESSION_ENDED,
  staffAccountMessages,
  staffErrorMessage,
  staffIssueMessages,
  staffMessage,
  UNNAMED_REFINEMENT,
  webhookMessages,
  type FailedRequest,
  type StaffMessages,
} from "@/lib/pets/staff-messages";
import { newEndpointSchema } from "@/lib/webhooks/schema";

// The admin app's staff-language messages (lib/pets/staff-messages.ts): every rule of the pet schemas and of the
// other admin forms has one, each bad input gets the expected one, and /v1 and the endpoints keep their developer
// messages for the very same inputs; every action of the audit trail has words on the Activity page.

describe("staff messages: every rule has one", () => {
  for (const [name, schema] of [
    ["petSchema", petSchema],
    ["newPetSchema", newPetSchema],
    ["petPatchSchema", petPatchSchema],
  ] as const) {
    test(`${name}: each (field, rule) the schema can refuse with has a staff message`, () => {
      const rules = schemaRules(schema);
      assert.ok(rules.length >= 15, `found only ${rules.length} rules`);
      const missing = rules.filter(({ field, rule }) => !staffMessage(field, rule));
      assert.deepEqual(missing, []);
    });
  }

  test("the walk finds every refinement of the name by its rule name", () => {
    const nameRules = schemaRules(newPetSchema)
      .filter((entry) => entry.field === "name")
      .map((entry) => entry.rule);
    assert.deepEqual(nameRules, ["required", "invalid_type", "not_blank", "visible", "max_characters", "plain_text"]);
  });

  test("a rule added without a name or a message is caught, not skipped", () => {
    const grown = newPetSchema.extend({
      name: newPetSchema.shape.name.refine((name) => name !== "Nobody", "name must not be Nobody"),
      nickname: z.string().max(5),
      tags: z.array(z.string()),
    });
    const missing = schemaRules(grown).filter(({ field, rule }) => !staffMessage(field, rule));
    assert.deepEqual(missing, [
      { field: "name", rule: UNNAMED_REFINEMENT },
      { field: "nickname", rule: "required" },
      { field: "nickname", rule: "invalid_type" },
      { field: "nickname", rule: "too_big" },
      { field: "tags", rule: "unknown:array" },
    ]);
  });
});

// input, the /v1 message (fieldErrors, unchanged), the staff message; one field refused per row.
const badInputs: [string, Record<string, unknown>, string, string, string][] = [
  ["no name", { categoryId: 1n }, "name", "name is required", "Enter a name"],
  ["a name of another type", { name: 5, categoryId: 1n }, "name", "name must be a string", "Enter a name"],
  ["an empty name", { name: "", categoryId: 1n }, "name", "name must not be empty", "Enter a name"],
  ["a blank name", { name: "   ", categoryId: 1n }, "name", "name must not be empty", "Enter a name"],
  ...(
    [
      ["a zero-width space", "\u200B"],
      ["a right-to-left override", "\u202E"],
      ["a soft hyphen", "\u00AD"],
      ["a word joiner and spaces", " \u2060 "],
      ["a variation selector", "\uFE0F"],
    ] as const
  ).map(([what, name]): [string, Record<string, unknown>, string, string, string] => [
    `a name of only ${what}`,
    { name, categoryId: 1n },
    "name",
    "name must have a visible character, not only invisible or format characters",
    "Enter a name that can be seen: this one has only invisible characters",
  ]),
  [
    "a name of 201 characters",
    { name: "x".repeat(201), categoryId: 1n },
    "name",
    "name must be at most 200 characters",
    "Use 200 characters or fewer",
  ],
  [
    "a name with a control character",
    { name: "Rex\u0007", categoryId: 1n },
    "name",
    "name must be text without control characters",
    "Remove control characters from the name",
  ],
  [
    "a name with a lone surrogate",
    { name: "Rex\ud800", categoryId: 1n },
    "name",
    "name must be text without control characters",
    "Remove control characters from the name",
  ],
  ["no category", { name: "Rex" }, "categoryId", "categoryId is required", "Choose a category"],
  [
    "a category that is text",
    { name: "Rex", categoryId: "three" },
    "categoryId",
    "categoryId must be an integer",
    "Choose a category: a category is a whole number, such as 1",
  ],
  [
    "a category that is a fraction",
    { name: "Rex", categoryId: 1.5 },
    "categoryId",
    "categoryId must be an integer",
    "Choose a category: a category is a whole number, such as 1",
  ],
  [
    "a category beyond int64",
    { name: "Rex", categoryId: INT64_MAX + 1n },
    "categoryId",
    "categoryId must be at most 9223372036854775807",
    "Choose a category: this number is too large to be one",
  ],
  [
    "a category below int64",
    { name: "Rex", categoryId: INT64_MIN - 1n },
    "categoryId",
    "categoryId must be at least -9223372036854775808",
    "Choose a category: this number is too small to be one",
  ],
  [
    "an unknown status",
    { name: "Rex", categoryId: 1n, status: "lost" },
    "status",
    "must be one of available, pending, sold",
    "Choose a status: available, pending, sold, or none",
  ],
  [
    "an unknown member",
    { name: "Rex", categoryId: 1n, colour: "brown" },
    "colour",
    "colour is not a known member",
    "This is not something a pet has",
  ],
];

describe("staff messages: bad inputs", () => {
  for (const [what, input, field, developer, staff] of badInputs) {
    test(`${what}: /v1 says "${developer}", the admin "${staff}"`, () => {
      const result = newPetSchema.safeParse(input);
      assert.equal(result.success, false);
      assert.deepEqual(fieldErrors(result.error), [{ path: field, message: developer }]);
      assert.deepEqual(staffIssueMessages(result.error.issues, input), [{ field, message: staff }]);
    });
  }

  test("the patch schema gets the same messages, and a null name is told as a missing one", () => {
    const input = { name: null, categoryId: "x", status: "lost" };
    const result = petPatchSchema.safeParse(input);
    assert.deepEqual(staffIssueMessages(result.error!.issues, input), [
      { field: "name", message: "Enter a name" },
      { field: "categoryId", message: "Choose a category: a category is a whole number, such as 1" },
      { field: "status", message: "Choose a status: available, pending, sold, or none" },
    ]);
  });

  test("several problems of one row come back as (column, message) pairs, once each", () => {
    const input = { name: "   ", status: "lost", colour: "brown", size: 3 };
    const result = newPetSchema.safeParse(input);
    assert.deepEqual(staffIssueMessages(result.error!.issues, input), [
      { field: "name", message: "Enter a name" },
      { field: "categoryId", message: "Choose a category" },
      { field: "status", message: "Choose a status: available, pending, sold, or none" },
      { field: "colour", message: "This is not something a pet has" },
      { field: "size", message: "This is not something a pet has" },
    ]);
  });

  test("a body that is not an object is one message for the whole pet", () => {
    for (const input of [null, [], "Rex", 5]) {
      const result = newPetSchema.safeParse(input);
      assert.deepEqual(staffIssueMessages(result.error!.issues, input), [
        { field: "", message: "Fill in the pet's details" },
      ]);
    }
  });
});

const failure = (status: number, code?: string, extra: Partial<FailedRequest> = {}): FailedRequest => ({
  status,
  code,
  requestId: "admin-0123",
  ...extra,
});

describe("staff messages: the admin's API errors", () => {
  const rows: [string, FailedRequest, string | RegExp][] = [
    ["the session ended", failure(401, "session_required"), SESSION_ENDED],
    [
      "rate limited, with Retry-After",
      failure(429, "rate_limited", { retryAfterSeconds: 7 }),
      /Try again in 7 seconds/,
    ],
    ["rate limited, without", failure(429, "rate_limited"), /Too many changes in a short time\. Wait a moment/],
    ["changed meanwhile", failure(412, "precondition_failed"), "Someone else changed this pet; review and save again."],
    ["not found", failure(404, "not_found"), /no longer in the catalogue/],
    [
      "a refused cursor",
      failure(400, "invalid_query", { errors: [{ path: "cursor", message: "cursor is not one this API issued" }] }),
      PAGE_LINK_EXPIRED,
    ],
    ["a server error", failure(500, "internal"), /Something went wrong on our side.*request id admin-0123/],
    ["the database away", failure(503, "service_unavailable"), /not answering right now/],
    ["the admin key refused", failure(503, "admin_key_refused"), /not answering right now/],
    ["no answer at all", failure(0), /could not be reached/],
    ["another origin", failure(403, "cross_origin"), /Reload it/],
  ];
  for (const [what, given, expected] of rows) {
    test(what, () => {
      const message = staffErrorMessage(given);
      if (typeof expected === "string") assert.equal(message, expected);
      else assert.match(message, expected);
    });
  }

  test("the page link message is about the cursor only, not every invalid query", () => {
    const other = failure(400, "invalid_query", { errors: [{ path: "limit", message: "limit must be…" }] });
    assert.notEqual(staffErrorMessage(other), PAGE_LINK_EXPIRED);
  });
});

describe("sign-in's next: a path of this app only", () => {
  const refused = [
    "//evil.example/admin",
    "https://evil.example/admin",
    "http:/admin",
    "/\\evil.example",
    "/admin\\..\\..\\evil",
    "/admin//evil.example",
    "/admin/\t/evil.example",
    "javascript:alert(1)",
    "evil.example/admin",
    "/sign-in",
    "",
    undefined,
  ];
  for (const next of refused) {
    test(`${JSON.stringify(next)} sends to /admin`, () => assert.equal(safeReturnPath(next), "/admin"));
  }
  for (const next of ["/admin", "/admin?status=sold&pet=12", "/admin/keys", "/admin?q=a%2Fb"]) {
    test(`${next} is kept`, () => assert.equal(safeReturnPath(next), next));
  }
});

// The other admin forms: each page's schema (the endpoint's own) and its table of staff messages.
const forms = [
  ["the API keys page's new key", newKeySchema, keyMessages],
  ["the Categories page's new category", newCategorySchema, categoryMessages],
  ["the Categories page's rename", categoryRenameSchema, categoryMessages],
  ["the Staff page's new account", newStaffSchema, staffAccountMessages],
  ["the Staff page's new password", staffPasswordBodySchema, staffAccountMessages],
  // The event types are checkboxes of the known types: only the address can be typed wrong.
  ["the Webhooks page's new endpoint", newEndpointSchema.pick({ url: true }), webhookMessages],
  ["a pet's order form", newOrderSchema, orderMessages],
] as const;

describe("staff messages: every rule of the other admin forms has one", () => {
  for (const [what, schema, messages] of forms) {
    test(`${what}: each (field, rule) the schema can refuse with has a staff message`, () => {
      const rules = schemaRules(schema);
      const missing = rules.filter(({ field, rule }) => !staffMessage(field, rule, messages, ""));
      assert.deepEqual(missing, []);
    });
  }

  test("the walk finds the refinements of the key and category names by their rule names", () => {
    const rulesOf = (schema: z.core.$ZodType) =>
      schemaRules(schema)
        .filter((entry) => entry.field === "name")
        .map((entry) => entry.rule);
    assert.deepEqual(rulesOf(newKeySchema), ["required", "invalid_type", "too_small", "max_characters", "printable"]);
    assert.deepEqual(rulesOf(categoryRenameSchema), [
      "required",
      "invalid_type",
      "not_blank",
      "visible",
      "max_characters",
      "plain_text",
    ]);
  });

  test("the walk finds the refinements of the customer's name by their rule names", () => {
    const nameRules = schemaRules(newOrderSchema)
      .filter((entry) => entry.field === "customerName")
      .map((entry) => entry.rule);
    assert.deepEqual(nameRules, ["required", "invalid_type", "not_blank", "visible", "max_characters", "plain_text"]);
  });

  test("an email's format is a rule of its own", () => {
    assert.ok(schemaRules(newStaffSchema).some(({ field, rule }) => field === "email" && rule === "invalid_format"));
  });
});

// The form, its schema and table, the input, the endpoint's message (unchanged), the staff message.
const otherBadInputs: [string, z.ZodType, StaffMessages, Record<string, unknown>, string, string, string][] = [
  [
    "a key without a name",
    newKeySchema,
    keyMessages,
    { name: "  " },
    "name",
    "name must not be empty",
    "Give the key a name.",
  ],
  [
    "a key name of 101 characters",
    newKeySchema,
    keyMessages,
    { name: "k".repeat(101) },
    "name",
    "name must be at most 100 characters",
    "Use 100 characters or fewer; this name has 101.",
  ],
  [
    "a key name with a tab",
    newKeySchema,
    keyMessages,
    { name: "shop\twebsite" },
    "name",
    "name must contain printable characters only (no tabs or line breaks)",
    "Use letters, digits and punctuation only: no tabs or line breaks.",
  ],
  [
    "a category without a name",
    categoryRenameSchema,
    categoryMessages,
    { name: "" },
    "name",
    "name must not be empty",
    "Give the category a name.",
  ],
  [
    "a category name of only a zero-width space",
    categoryRenameSchema,
    categoryMessages,
    { name: "\u200B" },
    "name",
    "name must have a visible character, not only invisible or format characters",
    "Enter a name that can be seen: this one has only invisible characters.",
  ],
  [
    "a category name of 101 characters",
    newCategorySchema,
    categoryMessages,
    { name: "c".repeat(101) },
    "name",
    "name must be at most 100 characters",
    "Use 100 characters or fewer; this name has 101.",
  ],
  [
    "a category name with a control character",
    categoryRenameSchema,
    categoryMessages,
    { name: "Dogs\u0007" },
    "name",
    "name must be text without control characters",
    "Remove control characters from the name.",
  ],
  [
    "an account without an email",
    newStaffSchema,
    staffAccountMessages,
    { email: "", role: "staff", password: "correct horse battery" },
    "email",
    "email must be an email address",
    "Enter an email address such as name@example.com.",
  ],
  [
    "an account whose email is not one",
    newStaffSchema,
    staffAccountMessages,
    { email: "bob", role: "staff", password: "correct horse battery" },
    "email",
    "email must be an email address",
    "Enter an email address such as name@example.com.",
  ],
  [
    "an account with a short password",
    newStaffSchema,
    staffAccountMessages,
    { email: "bob@example.com", role: "staff", password: "1234567" },
    "password",
    "password must be at least 12 characters",
    "The password needs at least 12 characters; this one has 7.",
  ],
  [
    "a new password that is too short",
    staffPasswordBodySchema,
    staffAccountMessages,
    { password: "short" },
    "password",
    "password must be at least 12 characters",
    "The password needs at least 12 characters; this one has 5.",
  ],
  [
    "an account of an unknown role",
    newStaffSchema,
    staffAccountMessages,
    { email: "bob@example.com", role: "owner", password: "correct horse battery" },
    "role",
    "role must be staff or admin",
    "Choose a role: staff or admin.",
  ],
  [
    "a webhook without an address",
    newEndpointSchema,
    webhookMessages,
    { url: " ", eventTypes: [] },
    "url",
    "url is required",
    "Enter the receiver's address, such as https://shop.example/webhooks.",
  ],
  [
    "a webhook address of 2049 characters",
    newEndpointSchema,
    webhookMessages,
    { url: `https://a.example/${"x".repeat(2031)}`, eventTypes: [] },
    "url",
    "url must be at most 2048 characters",
    "Use an address of 2048 characters or fewer; this one has 2049.",
  ],
  ...(
    [
      [
        "an order without a customer name",
        { customerName: "  " },
        "customerName must not be empty",
        "Enter the customer's name.",
      ],
      ["an order with no customer name at all", {}, "customerName is required", "Enter the customer's name."],
      [
        "an order whose customer name is only a zero-width space",
        { customerName: "\u200B" },
        "customerName must have a visible character, not only invisible or format characters",
        "Enter a name that can be seen: this one has only invisible characters.",
      ],
      [
        "an order whose customer name has 101 characters",
        { customerName: "a".repeat(101) },
        "customerName must be at most 100 characters",
        "Use 100 characters or fewer; this name has 101.",
      ],
      [
        "an order whose customer name has a tab",
        { customerName: "Ada\tLovelace" },
        "customerName must be text without control characters",
        "Remove control characters from the name: no tabs or line breaks.",
      ],
    ] as const
  ).map(
    ([what, input, developer, staff]): [
      string,
      z.ZodType,
      StaffMessages,
      Record<string, unknown>,
      string,
      string,
      string,
    ] => [what, newOrderSchema, orderMessages, { petId: 1n, ...input }, "customerName", developer, staff],
  ),
  ...(
    [
      [
        "an order whose customer email is not one",
        "ada",
        "customerEmail must be an email address",
        "Enter an email address such as name@example.com.",
      ],
      [
        "an order whose customer email has 255 characters",
        `${"a".repeat(243)}@example.com`,
        "customerEmail must be at most 254 characters",
        "An email address has at most 254 characters; this one has 255.",
      ],
    ] as const
  ).map(
    ([what, customerEmail, developer, staff]): [
      string,
      z.ZodType,
      StaffMessages,
      Record<string, unknown>,
      string,
      string,
      string,
    ] => [
      what,
      newOrderSchema,
      orderMessages,
      { petId: 1n, customerName: "Ada Lovelace", customerEmail },
      "customerEmail",
      developer,
      staff,
    ],
  ),
];

describe("staff messages: bad inputs of the other admin forms", () => {
  for (const [what, schema, messages, input, field, developer, staff] of otherBadInputs) {
    test(`${what}: the endpoint says "${developer}", the page "${staff}"`, () => {
      const result = schema.safeParse(input);
      assert.equal(result.success, false);
      assert.ok(result.error);
      assert.deepEqual(fieldErrors(result.error), [{ path: field, message: developer }]);
      assert.deepEqual(staffIssueMessages(result.error.issues, input, messages), [{ field, message: staff }]);
    });
  }
});

describe("the Activity page's filter", () => {
  const filter = z.object({ pet: activityPetFilterSchema });

  test("each rule of the pet id filter has a staff message", () => {
    const missing = schemaRules(filter).filter(({ field, rule }) => !staffMessage(field, rule, activityFilterMessages));
    assert.deepEqual(missing, []);
    assert.ok(schemaRules(filter).some(({ rule }) => rule === "int64"));
  });

  for (const [pet, staff] of [
    ["Rex", "A pet id is a whole number of 1 or more, such as 12: digits only."],
    ["0", "A pet id is a whole number of 1 or more, such as 12: digits only."],
    ["1.5", "A pet id is a whole number of 1 or more, such as 12: digits only."],
    ["9223372036854775808", "No pet has an id this large."],
  ] as const) {
    test(`the pet id ${pet} is told as "${staff}"`, () => {
      const input = { pet };
      const result = filter.safeParse(input);
      assert.ok(result.error);
      assert.deepEqual(staffIssueMessages(result.error.issues, input, activityFilterMessages), [
        { field: "pet", message: staff },
      ]);
    });
  }

  test("every action the audit trail knows has words of its own, none its code", () => {
    const labels = ACTION_LABELS as Record<string, string | undefined>;
    const unlabelled = AUDIT_ACTIONS.filter((action) => !labels[action]?.trim());
    assert.deepEqual(unlabelled, []);
    assert.deepEqual(Object.keys(ACTION_LABELS).sort(), [...AUDIT_ACTIONS].sort());
    for (const label of Object.values(ACTION_LABELS)) assert.doesNotMatch(label, /[._]/, label);
    assert.equal(new Set(Object.values(ACTION_LABELS)).size, AUDIT_ACTIONS.length, "two actions share words");
  });
});
