// npx tsx --conditions=react-server scripts/generate-docs.ts — writes the parts of the docs that the code already
// says: the configuration reference in docs/operators.md (from the zod schema in lib/config.ts) and the error-code
// tables in docs/api.md (from the catalogue in lib/http/error-codes.ts) and the admin app's keyboard shortcuts in
// docs/staff.md (from the table in lib/client/shortcuts.ts), each between its two marker comments.
// tests/docs.test.ts regenerates them and fails when a file differs, so a new variable or code cannot go
// undocumented.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as prettier from "prettier";
import { envSchema } from "@/lib/config";
import { SHORTCUTS } from "@/lib/client/shortcuts";
import { errorCodes, type ErrorCode } from "@/lib/http/error-codes";

const ROOT = path.join(import.meta.dirname, "..");

/** Variables read outside the schema: ADMIN_API_KEY is checked against the database at start-up (admin-key.ts). */
const OTHER_VARIABLES = [
  {
    name: "ADMIN_API_KEY",
    shown: "made once",
    meaning:
      "the key the admin app uses; unset, its one key marked in the database " +
      "(see [The admin app's key](#the-admin-apps-key-and-its-security))",
  },
];

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

function shownDefault(value: unknown): string {
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return "none";
  // A list is shown as it is written in the variable: comma-separated.
  const text = typeof value === "string" ? value : Array.isArray(value) ? value.join(",") : JSON.stringify(value);
  return `\`${text}\``;
}

function configurationTable(): string {
  const rows = Object.entries(envSchema.shape).map(([name, field]) => {
    const parsed = field.safeParse(undefined);
    return [`\`${name}\``, parsed.success ? shownDefault(parsed.data) : "none", field.description ?? ""];
  });
  for (const other of OTHER_VARIABLES) rows.push([`\`${other.name}\``, other.shown, other.meaning]);
  return table(["variable", "default", "meaning"], rows);
}

function errorTables(): string {
  const codes = Object.keys(errorCodes) as ErrorCode[];
  const entry = (code: ErrorCode) =>
    errorCodes[code] as { status: number; message: string; when?: string; adminOnly?: true };
  const byStatus = (a: ErrorCode, b: ErrorCode) => entry(a).status - entry(b).status;
  const v1 = codes.filter((code) => !entry(code).adminOnly).sort(byStatus);
  const admin = codes.filter((code) => entry(code).adminOnly).sort(byStatus);
  return [
    table(
      ["code", "status", "when"],
      v1.map((code) => [`\`${code}\``, String(entry(code).status), entry(code).when ?? entry(code).message]),
    ),
    "The admin app's endpoints (`/admin/api/…`) answer these too, and the codes only they answer, each with\n" +
      "its default message:",
    table(
      ["code", "status", "message"],
      admin.map((code) => [`\`${code}\``, String(entry(code).status), entry(code).message]),
    ),
  ].join("\n\n");
}

function shortcutTable(): string {
  const where = { everywhere: "every admin page", catalogue: "the catalogue" } as const;
  return table(
    ["keys", "what it does", "where", "single key"],
    SHORTCUTS.map((shortcut) => [
      shortcut.keys.map((key) => `\`${key}\``).join(" + "),
      shortcut.does + (shortcut.needsSelection ? " (where the rows have selection checkboxes)" : ""),
      where[shortcut.where],
      shortcut.kind === "single" ? "yes: can be turned off" : "no",
    ]),
  );
}

/** The text between `<!-- generated:<name> -->` and `<!-- end generated:<name> -->` replaced by `content`. */
function replaceRegion(text: string, name: string, content: string, file: string): string {
  const start = `<!-- generated:${name} (scripts/generate-docs.ts) -->`;
  const end = `<!-- end generated:${name} -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file} lacks the markers of the generated ${name}`);
  return `${text.slice(0, from + start.length)}\n\n${content}\n\n${text.slice(to)}`;
}

/** Each generated file's path and the text it should have, formatted as Prettier formats it. */
export async function generatedDocs(): Promise<Map<string, string>> {
  const regions: [string, string, string][] = [
    ["docs/operators.md", "configuration", configurationTable()],
    ["docs/api.md", "error-codes", errorTables()],
    ["docs/staff.md", "shortcuts", shortcutTable()],
  ];
  const files = new Map<string, string>();
  for (const [file, name, content] of regions) {
    const absolute = path.join(ROOT, file);
    const text = replaceRegion(files.get(file) ?? fs.readFileSync(absolute, "utf8"), name, content, file);
    const options = await prettier.resolveConfig(absolute);
    files.set(file, await prettier.format(text, { ...options, filepath: absolute }));
  }
  return files;
}

if (process.argv[1] && fs.realpathSync(process.argv[1]) === fs.realpathSync(fileURLToPath(import.meta.url))) {
  for (const [file, text] of await generatedDocs()) {
    const absolute = path.join(ROOT, file);
    if (fs.readFileSync(absolute, "utf8") === text) continue;
    fs.writeFileSync(absolute, text);
    console.log(`wrote ${file}`);
  }
}
