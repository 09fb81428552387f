// npm test — the static checks (Prettier's format check, ESLint), one production build shared by every suite, then
// the unit and API tests (node:test, real HTTP against real SQLite and PostgreSQL), then the browser tests
// (Playwright in Chromium). A failed check counts as a failure; the tests still run. Two passes: on the Node that
// runs this script, the node:test files whose outcome depends on the Node (scripts/harness/first-pass.ts,
// docs/decisions/020); then under Node 26, in a copy of the working tree (scripts/harness/second-node.ts) that runs
// the first pass's build, every node:test file and the browser tests (docs/decisions/013). TEST_SECOND_NODE=off runs
// the first pass alone, with every file and the browser tests; TEST_SECOND_NODE=only the second alone (TEST_NODE24,
// its old name, still works); TEST_FIRST_PASS=all runs every file in the first pass too.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { missingFirstPassFiles, runsInFirstPass } from "./harness/first-pass.ts";
import { jobCpuSeconds, runJobs, tapCounts, testFiles, timingTable, whyLine, type Job } from "./harness/jobs.ts";
import {
  npmUnder,
  prepareSecondNode,
  SECOND_NODE_VERSION,
  type Counts,
  type SecondNode,
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

/** Runs a step with its output as it comes (async, so that the second Node's install goes on meanwhile). */
function run(title: string, args: string[]): Promise<number> {
  console.log(`\n▶ ${title}`);
  const since = performance.now();
  const child = spawn(node, args, { stdio: "inherit", env });
  let cpu = 0;
  child.once("exit", () => (cpu = jobCpuSeconds())); // its CPU, so that the next job's reading starts after it
  return new Promise((resolve) => {
    child.on("close", (status) => {
      const verdict = status === 0 ? "ok" : "FAILED";
      console.log(`◀ ${title}: ${verdict} in ${seconds(since)} (CPU ${cpu.toFixed(1)} s)`);
      resolve(status ?? 1);
    });
  });
}

/** A static check as a job: a failure counts one. */
function check(title: string, args: string[]): Job {
  return { title, args, counts: (status) => ({ passed: 0, failed: status === 0 ? 0 : 1, skipped: 0 }) };
}

/** Set once this process's pass has built .next/ and dist/: the second pass then runs that build. */
let builtHere = false;

/**
 * The whole suite on this Node, in the current folder. `secondPass` settles when the second Node's install (which
 * runs beside the checks and the build, but must not load the cores under timing-bound tests) has ended: true when
 * the second pass will run, and with it the browser tests, which run once, in the last pass (docs/decisions/013).
 * TEST_BROWSER=on runs them here as well.
 */

async function suite(secondPass: Promise<boolean> = Promise.resolve(false)): Promise<Counts> {
  console.log(`\n■ Node ${process.version} (${node}): checks, build, tests`);
  // The static checks do not depend on the Node that runs them: the second pass skips them (TEST_CHECKS=off). Each
  // is single-threaded: the two run at once.
  const checks =
    process.env.TEST_CHECKS === "off"
      ? []
      : await runJobs(
          [
            check("format check (prettier --check .)", ["node_modules/prettier/bin/prettier.cjs", "--check", "."]),
            check("lint (eslint --max-warnings=0 .)", ["node_modules/eslint/bin/eslint.js", "--max-warnings=0", "."]),
          ],
          2,
          env,
        );
  const missing = missingFirstPassFiles("tests").map(
    (name) => `scripts/harness/first-pass.ts names tests/${name}, which is gone`,
  );
  for (const problem of missing) console.error(`✖ ${problem}`);
  const failedChecks = checks.filter((result) => result.status !== 0).length + missing.length;
  const buildFailed = (step: string) => ({
    node: process.version,
    passed: 0,
    failed: failedChecks + 1,
    skipped: 0,
    failures: [...checks.flatMap((result) => result.failures), ...missing, step],
  });

  // The build is JavaScript whatever Node makes it: the second pass runs the first pass's (TEST_BUILD=off there).
  if (process.env.TEST_BUILD === "off") console.log("\n▶ the build: the first pass's (.next/ and dist/ copied)");
  else {
    if ((await run("next build", ["node_modules/next/dist/bin/next", "build"])) !== 0) return buildFailed("next build");
    if ((await run("compile the server and the tools (dist/)", ["scripts/build-server.mjs"])) !== 0)
      return buildFailed("scripts/build-server.mjs");
    builtHere = true;
  }
  const lastPass = !(await secondPass);
  const browser = lastPass || process.env.TEST_BROWSER === "on";
  // When a second Node runs everything after this pass, this one runs the files whose outcome depends on the Node
  // (scripts/harness/first-pass.ts, docs/decisions/020); TEST_FIRST_PASS=all runs them all.
  const allFiles = lastPass || process.env.TEST_FIRST_PASS === "all";

  // The node:test files as jobs, TEST_JOBS at a time (scripts/harness/jobs.ts), each with its own databases, ports
  // and folders, then Playwright. Two by default: the suite is CPU-bound on two cores, and at three the
  // timing-bound tests (SIGKILL among writers, reset-demo's one-minute window) failed (docs/performance.md).
  const reports = fs.mkdtempSync(path.join(os.tmpdir(), "animal-store-reports-"));
  const files = testFiles("tests").filter((file) => allFiles || runsInFirstPass(file));
  const jobs: Job[] = files.map((file) => {
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
  const browserJobs: Job[] = [];
  const specs = fs.existsSync("e2e") && fs.readdirSync("e2e").some((name) => name.endsWith(".spec.ts"));
  if (browser && specs) {
    // Playwright writes its totals as JSON beside its usual report. It runs alone, after the node:test files: its
    // sign-ins and page loads time out when two node:test files load the two cores beside it (docs/performance.md).
    const results = path.join(reports, "playwright.json");
    browserJobs.push({
      title: "browser tests (Playwright, Chromium)",
      args: ["node_modules/@playwright/test/cli.js", "test"],
      env: { PLAYWRIGHT_JSON_OUTPUT_NAME: results },
      limitSeconds: 40 * 60,
      counts: (status) => {
        const report = fs.existsSync(results)
          ? (JSON.parse(fs.readFileSync(results, "utf8")) as PlaywrightReport)
          : undefined;
        const stats = report?.stats;
        const failed = (stats?.unexpected ?? 0) + (status !== 0 && !stats?.unexpected ? 1 : 0);
        return {
          passed: (stats?.expected ?? 0) + (stats?.flaky ?? 0),
          failed,
          skipped: stats?.skipped ?? 0,
          failures: report ? unexpectedTests(report.suites) : [],
        };
      },
    });
  }
  const slots = Number(process.env.TEST_JOBS) || DEFAULT_JOBS;
  const then = browserJobs.length ? "then the browser tests" : "the browser tests in the second pass";
  const which = allFiles ? "" : ` (those whose outcome depends on the Node; Node ${SECOND_NODE_VERSION} runs all)`;
  console.log(`\n▶ tests: ${jobs.length} node:test files${which}, ${slots} at a time, ${then}`);
  const since = performance.now();
  const results = [...(await runJobs(jobs, slots, env)), ...(await runJobs(browserJobs, 1, env))];
  console.log(`\n◀ tests in ${seconds(since)}, each job's time:\n${timingTable(results)}`);
  const passed = results.reduce((sum, result) => sum + result.passed, 0);
  const failed = failedChecks + results.reduce((sum, result) => sum + result.failed, 0);
  const skipped = results.reduce((sum, result) => sum + result.skipped, 0);
  const failures = [...missing, ...[...checks, ...results].flatMap((result) => result.failures)];

  fs.rmSync(reports, { recursive: true, force: true });
  return { node: process.version, passed, failed, skipped, failures };
}

/** The parts of Playwright's JSON report read here. */
type PlaywrightSuite = {
  title: string;
  suites?: PlaywrightSuite[];
  specs?: {
    title: string;
    line: number;
    tests: { status: string; results?: { error?: { message?: string } }[] }[];
  }[];
};
type PlaywrightReport = {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  suites: PlaywrightSuite[];
};

/**
 * The browser tests that failed (status "unexpected"), titled as the list reporter writes them, each with the start
 * of its last error (colours taken out) for the summary CI shows.
 */
function unexpectedTests(suites: PlaywrightSuite[], titles: string[] = []): string[] {
  const why = (spec: NonNullable<PlaywrightSuite["specs"]>[number]) => {
    const message = spec.tests.flatMap((run) => run.results ?? []).findLast((result) => result.error)?.error?.message;
    return whyLine(stripVTControlCharacters(message ?? ""));
  };
  return suites.flatMap((suite) => [
    ...(suite.specs ?? [])
      .filter((spec) => spec.tests.some((run) => run.status === "unexpected"))
      .map((spec) => `${[...titles, suite.title, spec.title].filter(Boolean).join(" › ")}:${spec.line}${why(spec)}`),
    ...unexpectedTests(suite.suites ?? [], [...titles, suite.title]),
  ]);
}

/**
 * Copies the browser tests' results from the second pass's folder (screenshots, and traces when PLAYWRIGHT_TRACE
 * asks) into this tree's test-results/, before that folder is removed.
 */
function keepBrowserResults(copy: string): void {
  const results = path.join(copy, "test-results");
  if (fs.existsSync(results)) fs.cpSync(results, "test-results", { recursive: true });
}

/**
 * The node:test files and the browser tests again under the second Node, as CI would run them: in the copy of the
 * working tree that `prepared` installed (better-sqlite3 built for that Node), `npm test` with the second pass off.
 * Its totals come back in a file. Required where CI is set or TEST_SECOND_NODE=only asks for it: there, a Node that
 * cannot be had is a failure.
 */
async function secondNodePass(prepared: Promise<SecondNode>): Promise<Counts & { note: string }> {
  const required = Boolean(process.env.CI) || mode === "only";
  const failure = (note: string) => ({ node: `v${SECOND_NODE_VERSION}`, passed: 0, failed: 1, skipped: 0, note });
  console.log(`\n■ Node ${SECOND_NODE_VERSION}: the same suite in a copy of the working tree`);
  let second: SecondNode;
  try {
    second = await prepared;
  } catch (error) {
    console.error(error);
    if (required) return failure(`Node ${SECOND_NODE_VERSION} could not be installed: ${String(error)}`);
    console.warn(
      `\n*** Node ${SECOND_NODE_VERSION} could not be installed: the second pass is SKIPPED (CI requires it). ***\n`,
    );
    return { node: `v${SECOND_NODE_VERSION}`, passed: 0, failed: 0, skipped: 0, note: "SKIPPED: not installed" };
  }
  const install = `${Math.round(second.installSeconds)} s`;
  console.log(
    `\n◀ Node ${SECOND_NODE_VERSION} and npm install in ${second.copy}: ok in ${install} (beside the first pass)`,
  );

  const counts = path.join(second.scratch, "counts.json");
  try {
    console.log(`\n▶ npm test under Node ${SECOND_NODE_VERSION}, in ${second.copy}`);
    const since = performance.now();
    // One production build for both passes: the first pass's, without Turbopack's cache (docs/performance.md).
    if (builtHere) {
      fs.cpSync(".next", path.join(second.copy, ".next"), {
        recursive: true,
        filter: (from) => path.relative(".next", from) !== "cache",
        // .next/node_modules links each external package (better-sqlite3…) as ../../node_modules/<name>: kept as
        // written, they reach the copy's own install, built for the second Node. (cpSync would otherwise make
        // them absolute, into this tree's, and `next start` would load a better-sqlite3 built for this Node.)
        verbatimSymlinks: true,
      });
      fs.cpSync("dist", path.join(second.copy, "dist"), { recursive: true });
    }
    secondPassRunning = true;
    const status = await npmUnder(second.packageDir, second.copy, ["test"], {
      ...env,
      TEST_SECOND_NODE: "off",
      TEST_CHECKS: "off",
      TEST_BUILD: builtHere ? "off" : "on",
      TEST_COUNTS_FILE: counts,
    }).finally(() => (secondPassRunning = false));
    keepBrowserResults(second.copy);
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
    fs.rmSync(second.scratch, { recursive: true, force: true });
  }
}

const mode = process.env.TEST_SECOND_NODE || process.env.TEST_NODE24 || "on";
if (!["on", "off", "only"].includes(mode)) {
  console.error(`TEST_SECOND_NODE (or TEST_NODE24) is on (the default), off or only, not "${mode}"`);
  process.exit(2);
}

// An interrupt or a termination ends this run, with its exit handlers (the second pass's folder, its install), except
// while the second pass's npm test runs: npmUnder passes it on to that process group and reports how it ended.
let secondPassRunning = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (!secondPassRunning) process.exit(128 + os.constants.signals[signal]);
  });
}

// The second Node's install starts first and runs beside the first pass's checks and build; its failure is
// reported by the second pass.
const prepared = mode === "off" ? undefined : prepareSecondNode(process.cwd(), env);
const secondPass = prepared
  ? prepared.then(
      () => true,
      () => false,
    )
  : Promise.resolve(false);
const passes: (Counts & { note: string })[] = [];
if (mode !== "only") passes.push({ ...(await suite(secondPass)), note: seconds(started) });
if (process.env.TEST_COUNTS_FILE && passes[0])
  fs.writeFileSync(process.env.TEST_COUNTS_FILE, JSON.stringify(passes[0]));
if (mode !== "off") {
  const since = performance.now();
  const pass = await secondNodePass(prepared!);
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
for (const pass of passes.filter((each) => each.failures?.length)) {
  console.log(`\nFailed under Node ${pass.node}:`);
  for (const failure of pass.failures!) console.log(`  ✖ ${failure}`);
}
console.log(`\n${line(total)}`);
process.exit(total.failed > 0 ? 1 : 0);
