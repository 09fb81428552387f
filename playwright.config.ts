import fs from "node:fs";
import { defineConfig } from "@playwright/test";

// The browser tests: Debian's Chromium (Playwright cannot download its own here), against the
// production build served by server.ts on a fresh SQLite database, one server for each worker (e2e/support.ts).
// `npm test` builds first and runs this; see scripts/test.ts.

export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
export const chromiumAvailable = fs.existsSync(CHROMIUM);
if (!chromiumAvailable && process.env.CI) {
  throw new Error(`The browser tests need Chromium at ${CHROMIUM} in CI: apt-get install -y chromium`);
}

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  globalSetup: "./e2e/global-setup.ts",
  // Each worker has its own server and database (the specs change the catalogue) and runs one spec file at a time.
  // Two by default: npm test runs Playwright alone, after the node:test files, and one worker keeps about 0.7 of a
  // core busy (Chromium waits on the server and the server on Chromium), so a second one fills the other core
  // (docs/performance.md#the-test-suite). PLAYWRIGHT_WORKERS=1 runs one.
  workers: Number(process.env.PLAYWRIGHT_WORKERS) || 2,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  // A limit for a hung test, not a speed target: the same test takes two to three times as long on one 2-core
  // machine of CI's kind as on another (docs/performance.md#the-test-suite), and the longest flows took over 30 s.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // scripts/test.ts reads the totals from the JSON report, at the path it gives in PLAYWRIGHT_JSON_OUTPUT_NAME.
  reporter: [
    ["list"],
    ["json", { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? "test-results/playwright.json" }],
  ],
  use: {
    browserName: "chromium",
    launchOptions: {
      executablePath: CHROMIUM,
      // Without the networking flags Chromium tries to reach hosts this machine cannot.
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
    // Recording a trace costs every test about a tenth of its time, kept or not: off unless asked for
    // (PLAYWRIGHT_TRACE=retain-on-failure keeps one for each failed test in test-results/).
    trace: (process.env.PLAYWRIGHT_TRACE as "off" | "on" | "retain-on-failure" | undefined) ?? "off",
    screenshot: "only-on-failure",
  },
});
