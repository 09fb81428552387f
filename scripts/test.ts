// npm test — the static checks (Prettier's format check, ESLint), one production build shared by every suite, then
// the unit and API tests (node:test, real HTTP against real SQLite and PostgreSQL), then the browser tests
// (Playwright in Chromium). A failed check counts as a failure; the tests still run. All of it twice: on the Node
// that runs this script, then under Node 26 in a copy of the working tree (scripts/harness/second-node.ts).
// TEST_SECOND_NODE=off runs the first pass alone, TEST_SECOND_NODE=only the second alone (TEST_NODE24, its old
// name, still works).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runJobs, tapCounts, testFiles, timingTable, type Job } from "./harness/jobs.ts";
import {
  copyWorkingTree,
  installSecondNode,
  npmUnder,
  SECOND_NODE_VERSION,
  type Counts,
} from "./harness/second-node.ts";

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const node = process.execPath;
const started = performance.now();
/** Test jobs at a time (TEST_JOBS overrides): measured on 2 cores, see docs/performance.md. */
const DEFAULT_JOBS = 2;

function seconds(since: number): string {
  const total = Math.round((performance.now() - since) / 1000);
  return total < 60 ? `${total} s` : `${Math.floor(total / 60)} min ${total % 60} s`;
}

function run(title: string, args: string[], extraEnv: Record<string, string> = {}): number {
  console.log(`\n▶ ${title}`);
  const since = performance.now();
  const result = spawnSync(node, args, { stdio: "inherit", env: { ...env, ...extraEnv } });
  console.log(`◀ ${title}: ${result.status === 0 ? "ok" : "FAILED"} in ${seconds(since)}`);
  return result.status ?? 1;
}

/** The whole suite on this Node, in the current folder. */
async function suite(): Promise<Counts> {
  console.log(`\n■ Node ${process.version} (${node}): checks, build, tests`);
  // The static checks do not depend on the Node that runs them: the second pass skips them (TEST_CHECKS=off).
  const checks =
    process.env.TEST_CHECKS === "off"
      ? []
      : [
          run("format check (prettier --check .)", ["node_modules/prettier/bin/prettier.cjs", "--check", "."]),
          run("lint (eslint --max-warnings=0 .)", ["node_modules/eslint/bin/eslint.js", "--max-warnings=0", "."]),
        ];
  const failedChecks = checks.filter((status) => status !== 0).length;
  const buildFailed = { node: process.version, passed: 0, failed: failedChecks + 1, skipped: 0 };

  if (run("next build", ["node_modules/next/dist/bin/next", "build"]) !== 0) return buildFailed;
  if (run("compile the server and the tools (dist/)", ["scripts/build-server.mjs"]) !== 0) return buildFailed;

  // The node:test files as jobs, TEST_JOBS at a time (scripts/harness/jobs.ts), each with its own databases, ports
  // and folders, then Playwright. Two by default: the suite is CPU-bound on two cores, and at three the
  // timing-bound tests (SIGKILL among writers, reset-demo's one-minute window) failed (docs/performance.md).
  const reports = fs.mkdtempSync(path.join(os.tmpdir(), "animal-store-reports-"));
  const jobs: Job[] = testFiles("tests").map((file) => {
    const tap = path.join(reports, `${path.basename(file)}.tap`);
    return {
      title: file,
      args: [
        "--import",
        "tsx",
        "--conditions=react-server",
        "--test",
        "--test-reporter=spec",
        "--test-reporter-destination=stdout",
        "--test-reporter=tap",
        `--test-reporter-destination=${tap}`,
        file,
      ],
      counts: (status) => tapCounts(tap, status),
    };
  });
  const browser: Job[] = [];
  if (fs.existsSync("e2e") && fs.readdirSync("e2e").some((name) => name.endsWith(".spec.ts"))) {
    // Playwright writes its totals as JSON beside its usual report. It runs alone, after the node:test files: its
    // sign-ins and page loads time out when two node:test files load the two cores beside it (docs/performance.md).
    const results = path.join(reports, "playwright.json");
    browser.push({
      title: "browser tests (Playwright, Chromium)",
      args: ["node_modules/@playwright/test/cli.js", "test"],
      env: { PLAYWRIGHT_JSON_OUTPUT_NAME: results },
      counts: (status) => {
        type Stats = { expected: number; unexpected: number; flaky: number; skipped: number };
        const stats = fs.existsSync(results)
          ? (JSON.parse(fs.readFileSync(results, "utf8")) as { stats: Stats }).stats
          : undefined;
        const failed = (stats?.unexpected ?? 0) + (status !== 0 && !stats?.unexpected ? 1 : 0);
        return { passed: (stats?.expected ?? 0) + (stats?.flaky ?? 0), failed, skipped: stats?.skipped ?? 0 };
      },
    });
  }
  const slots = Number(process.env.TEST_JOBS) || DEFAULT_JOBS;
  console.log(`\n▶ tests: ${jobs.length} node:test files, ${slots} at a time, then the browser tests`);
  const since = performance.now();
  const results = [...(await runJobs(jobs, slots, env)), ...(await runJobs(browser, 1, env))];
  console.log(`\n◀ tests in ${seconds(since)}, each job's time:\n${timingTable(results)}`);
  const passed = results.reduce((sum, result) => sum + result.passed, 0);
  const failed = failedChecks + results.reduce((sum, result) => sum + result.failed, 0);
  const skipped = results.reduce((sum, result) => sum + result.skipped, 0);

  fs.rmSync(reports, { recursive: true, force: true });
  return { node: process.version, passed, failed, skipped };
}

/**
 * The whole suite again under the second Node, as CI would run it: a copy of the working tree, `npm install` there
 * (which builds better-sqlite3 for that Node), then `npm test` with the second pass off. Its totals come back in a
 * file. Required where CI is set or TEST_SECOND_NODE=only asks for it: there, a Node that cannot be had is a failure.
 */
async function secondNodePass(): Promise<Counts & { note: string }> {
  const required = Boolean(process.env.CI) || mode === "only";
  const failure = (note: string) => ({ node: `v${SECOND_NODE_VERSION}`, passed: 0, failed: 1, skipped: 0, note });
  console.log(`\n■ Node ${SECOND_NODE_VERSION}: the same suite in a copy of the working tree`);
  let packageDir: string;
  try {
    packageDir = installSecondNode();
  } catch (error) {
    console.error(error);
    if (required) return failure(`Node ${SECOND_NODE_VERSION} could not be installed`);
    console.warn(
      `\n*** Node ${SECOND_NODE_VERSION} could not be installed from the npm registry: the second pass is SKIPPED ` +
        "(CI requires it). ***\n",
    );
    return { node: `v${SECOND_NODE_VERSION}`, passed: 0, failed: 0, skipped: 0, note: "SKIPPED: not installed" };
  }

  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "animal-store-second-node-"));
  const copy = path.join(scratch, "project");
  const counts = path.join(scratch, "counts.json");
  try {
    copyWorkingTree(process.cwd(), copy);
    console.log(`\n▶ npm install under Node ${SECOND_NODE_VERSION}, in ${copy}`);
    let since = performance.now();
    const installed = await npmUnder(packageDir, copy, ["install"], env);
    const install = seconds(since);
    console.log(`◀ npm install under Node ${SECOND_NODE_VERSION}: ${installed === 0 ? "ok" : "FAILED"} in ${install}`);
    if (installed !== 0) return failure(`npm install failed after ${install}`);

    console.log(`\n▶ npm test under Node ${SECOND_NODE_VERSION}, in ${copy}`);
    since = performance.now();
    const status = await npmUnder(packageDir, copy, ["test"], {
      ...env,
      TEST_SECOND_NODE: "off",
      TEST_CHECKS: "off",
      TEST_COUNTS_FILE: counts,
    });
    const tests = seconds(since);
    console.log(`◀ npm test under Node ${SECOND_NODE_VERSION}: ${status === 0 ? "ok" : "FAILED"} in ${tests}`);
    const note = `npm install ${install}, npm test ${tests}`;
    if (!fs.existsSync(counts)) return failure(`no totals (exit status ${status}); ${note}`);
    const result = JSON.parse(fs.readFileSync(counts, "utf8")) as Counts;
    if (status !== 0 && result.failed === 0) result.failed = 1;
    return { ...result, note };
  } catch (error) {
    console.error(error);
    return failure(String(error));
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

const mode = process.env.TEST_SECOND_NODE || process.env.TEST_NODE24 || "on";
if (!["on", "off", "only"].includes(mode)) {
  console.error(`TEST_SECOND_NODE (or TEST_NODE24) is on (the default), off or only, not "${mode}"`);
  process.exit(2);
}

const passes: (Counts & { note: string })[] = [];
if (mode !== "only") passes.push({ ...(await suite()), note: seconds(started) });
if (process.env.TEST_COUNTS_FILE && passes[0])
  fs.writeFileSync(process.env.TEST_COUNTS_FILE, JSON.stringify(passes[0]));
if (mode !== "off") {
  const since = performance.now();
  const pass = await secondNodePass();
  passes.push({ ...pass, note: `${seconds(since)} (${pass.note})` });
}

// One line per Node, then the totals: the last line, alone, is what CI reads.
const line = ({ passed, failed, skipped }: Counts) =>
  `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`;
const total = passes.reduce(
  (sum, pass) => ({
    ...sum,
    passed: sum.passed + pass.passed,
    failed: sum.failed + pass.failed,
    skipped: sum.skipped + pass.skipped,
  }),
  { node: "", passed: 0, failed: 0, skipped: 0 },
);
console.log(`\nSummary (${seconds(started)} in all):`);
for (const pass of passes) console.log(`  Node ${pass.node}: ${line(pass)} — ${pass.note}`);
console.log(`\n${line(total)}`);
process.exit(total.failed > 0 ? 1 : 0);
