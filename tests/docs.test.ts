import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { THIS_SERVER_DESCRIPTION, withThisServer } from "@/lib/client/api-servers";

// The servers /docs offers for "Try it out". The browser side (that it works from the page) is in e2e/docs.spec.ts.

describe("the /docs page's servers", () => {
  const document = {
    openapi: "3.1.0",
    servers: [
      { url: "https://api.animal-store.example/v1", description: "Production" },
      { url: "https://staging-api.animal-store.example/v1", description: "Staging" },
    ],
  };

  test("this server comes first, then the configured ones in their order", () => {
    const shown = withThisServer(document, "http://127.0.0.1:3000");
    assert.deepEqual(shown.servers, [
      { url: "http://127.0.0.1:3000/v1", description: THIS_SERVER_DESCRIPTION },
      ...document.servers,
    ]);
    assert.equal(shown.openapi, "3.1.0");
  });

  test("the document it was given is not changed", () => {
    withThisServer(document, "http://127.0.0.1:3000");
    assert.equal(document.servers.length, 2);
  });

  test("when the page is served from a configured server, that server is listed once, as this server", () => {
    const shown = withThisServer(document, "https://api.animal-store.example");
    assert.deepEqual(
      shown.servers.map((server) => server.url),
      ["https://api.animal-store.example/v1", "https://staging-api.animal-store.example/v1"],
    );
    assert.equal(shown.servers[0].description, THIS_SERVER_DESCRIPTION);
  });

  test("a document without servers gets this server alone", () => {
    const bare: { servers?: { url: string }[] } = {};
    assert.deepEqual(withThisServer(bare, "http://localhost:3000").servers, [
      { url: "http://localhost:3000/v1", description: THIS_SERVER_DESCRIPTION },
    ]);
  });
});
