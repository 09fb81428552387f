// npm test — the static checks (Prettier's format check, ESLint), one production build shared by every suite, then
// the unit and API tests (node:test, real HTTP against real SQLite and PostgreSQL), then the browser tests
// (Playwright in Chromium). A failed check counts as a failure; the tests still run.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const node = process.execPath;

function run(title: string, args: string[], extraEnv: Record<string, string> = {}): number {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(node, args, { stdio: "inherit", env: { ...env, ...extraEnv } });
  return result.status ?? 1;
}

const checks = [
  run("format check (prettier --check .)", ["node_modules/prettier/bin/prettier.cjs", "--check", "."]),
  run("lint (eslint --max-warnings=0 .)", ["node_modules/eslint/bin/eslint.js", "--max-warnings=0", "."]),
];
const failedChecks = checks.filter((status) => status !== 0).length;

if (run("next build", ["node_modules/next/dist/bin/next", "build"]) !== 0) process.exit(1);
if (run("compile the server and the tools (dist/)", ["scripts/build-server.mjs"]) !== 0) process.exit(1);

// node:test: a readable report on the terminal and TAP in a file, read back for the totals.
const tap = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "animal-store-tap-")), "report.tap");
const files = fs
  .readdirSync("tests")
  .filter((name) => name.endsWith(".test.ts"))
  .map((name) => path.join("tests", name));
const apiStatus = run("unit and API tests", [
  "--import",
  "tsx",
  "--conditions=react-server",
  "--test",
  "--test-concurrency=1",
  "--test-reporter=spec",
  "--test-reporter-destination=stdout",
  "--test-reporter=tap",
  `--test-reporter-destination=${tap}`,
  ...files,
]);
const report = fs.existsSync(tap) ? fs.readFileSync(tap, "utf8") : "";
const count = (what: string) => Number(new RegExp(`^# ${what} (\\d+)$`, "m").exec(report)?.[1] ?? 0);
let passed = count("pass");
let failed = failedChecks + count("fail") + (apiStatus !== 0 && count("fail") === 0 ? 1 : 0);
let skipped = count("skipped");

// Playwright writes its totals as JSON beside its usual report.
const e2e = fs.existsSync("e2e") && fs.readdirSync("e2e").some((name) => name.endsWith(".spec.ts"));
if (e2e) {
  const results = path.join(path.dirname(tap), "playwright.json");
  const status = run("browser tests (Playwright, Chromium)", ["node_modules/@playwright/test/cli.js", "test"], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: results,
  });
  type Stats = { expected: number; unexpected: number; flaky: number; skipped: number };
  const stats = fs.existsSync(results)
    ? (JSON.parse(fs.readFileSync(results, "utf8")) as { stats: Stats }).stats
    : undefined;
  passed += (stats?.expected ?? 0) + (stats?.flaky ?? 0);
  failed += stats?.unexpected ?? (status === 0 ? 0 : 1);
  skipped += stats?.skipped ?? 0;
  if (status !== 0 && !stats?.unexpected) failed += 1;
}

fs.rmSync(path.dirname(tap), { recursive: true, force: true });
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : 0);
