import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { THIS_SERVER_DESCRIPTION, withThisServer } from "@/lib/client/api-servers";
import { generatedDocs } from "@/scripts/generate-docs";

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

// Every relative link in the docs resolves: the README and docs/ (its decisions included). A link to a heading of
// a Markdown file must name one of its headings, as GitHub makes their anchors.

const ROOT = path.join(import.meta.dirname, "..");

function markdownFiles(): string[] {
  const inRoot = fs.readdirSync(ROOT).filter((name) => name.endsWith(".md"));
  const inDocs = fs.readdirSync(path.join(ROOT, "docs"), { recursive: true, encoding: "utf8" });
  return [...inRoot, ...inDocs.filter((name) => name.endsWith(".md")).map((name) => path.join("docs", name))];
}

/** The text outside fenced code blocks. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, "");
}

/** GitHub's anchors for a file's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, heading] of prose(fs.readFileSync(file, "utf8")).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}_\- ]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(slug);
    seen.set(slug, (count ?? -1) + 1);
    found.add(count === undefined ? slug : `${slug}-${count + 1}`);
  }
  return found;
}

describe("the docs' links", () => {
  const files = markdownFiles();

  test("the README and the guides are found", () => {
    for (const file of ["README.md", "docs/README.md", "docs/api.md", "docs/operators.md", "docs/contributors.md"]) {
      assert.ok(files.includes(path.normalize(file)), file);
    }
  });

  for (const file of files) {
    test(`${file}: every relative link names a file that exists, and a heading it has`, () => {
      const text = prose(fs.readFileSync(path.join(ROOT, file), "utf8"));
      const targets = [
        ...[...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]),
        ...[...text.matchAll(/<img [^>]*src="([^"]+)"/g)].map((match) => match[1]),
      ].filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
      const broken: string[] = [];
      for (const target of targets) {
        const [relative, anchor] = target.split("#");
        const resolved = relative === "" ? path.join(ROOT, file) : path.resolve(ROOT, path.dirname(file), relative);
        if (!fs.existsSync(resolved)) broken.push(`${target}: no such file`);
        else if (anchor && resolved.endsWith(".md") && !anchors(resolved).has(anchor)) {
          broken.push(`${target}: no such heading`);
        }
      }
      assert.deepEqual(broken, []);
    });
  }
});

describe("the generated reference", () => {
  test("the configuration table and the error codes are as the schema and the catalogue say", async () => {
    for (const [file, expected] of await generatedDocs()) {
      const actual = fs.readFileSync(path.join(ROOT, file), "utf8");
      assert.ok(
        actual === expected,
        `${file} is stale: run npx tsx --conditions=react-server scripts/generate-docs.ts and commit the result`,
      );
    }
  });
});
