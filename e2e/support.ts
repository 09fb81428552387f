import AxeBuilder from "@axe-core/playwright";
import { expect, test as base, type Locator, type Page } from "@playwright/test";
import { CHROMIUM, chromiumAvailable } from "../playwright.config";
import { createKeyWithTool, createStaffWithTool, createTestDatabase, startServer } from "../scripts/harness/servers";
import { E2E_ADMIN, E2E_STAFF } from "./staff-account";

// What the specs share: each Playwright worker's own server and database, the staff accounts, signing in, axe.

export { E2E_STAFF };

/** The admin app's API key: the worker's server's ADMIN_API_KEY. */
export function adminApiKey(): string {
  return process.env.E2E_ADMIN_API_KEY!;
}

type AppServer = { baseUrl: string };

export const test = base.extend<{ requireChromium: void }, { appServer: AppServer }>({
  // Runs before every other fixture, so without Chromium no browser is launched: the test is skipped
  // (global-setup.ts has said so loudly; in CI the config fails instead).
  requireChromium: [
    async ({}, use, testInfo) => {
      testInfo.skip(!chromiumAvailable, `Chromium is missing at ${CHROMIUM}`);
      await use();
    },
    { auto: true },
  ],
  // Each worker's own production server (server.ts, as `npm start` runs it) on 127.0.0.1, a free port and a fresh
  // SQLite file, with the demo catalogue and two accounts made by the staff tool: a staff member and an admin. The
  // specs change the catalogue, so the workers share nothing; a worker runs its spec files one at a time. The admin
  // app runs with ADMIN_API_KEY, the one secret of its own it can hold, which the specs watch for in everything the
  // browser receives (and use to call /v1 themselves). The server is stopped by its pid when the worker ends.
  appServer: [
    async ({}, use) => {
      const database = await createTestDatabase("sqlite");
      await createStaffWithTool(database.url, E2E_STAFF.email, E2E_STAFF.password);
      await createStaffWithTool(database.url, E2E_ADMIN.email, E2E_ADMIN.password, "admin");
      const key = await createKeyWithTool(database.url, "e2e admin app");
      const server = await startServer("custom", database.url, {
        DEMO_SEED: "on",
        ADMIN_API_KEY: key,
        WEBHOOK_ALLOW_PRIVATE_URLS: "on", // the webhooks spec's receiver listens on 127.0.0.1
      });
      process.env.E2E_ADMIN_API_KEY = key;
      process.env.E2E_BASE_URL = server.baseUrl;
      try {
        await use({ baseUrl: server.baseUrl });
      } finally {
        await server.stop();
        await database.drop();
      }
    },
    { scope: "worker", timeout: 120_000 },
  ],
  baseURL: async ({ appServer }, use) => use(appServer.baseUrl),
});

export { expect };

/**
 * Signs the staff member in through the sign-in form, from `target` (which sends the browser to sign-in first), and
 * lands on the catalogue: for the specs whose subject is signing in, the session, or everything a session's pages
 * receive (sign-in, session, security, headers, csp). The others use the quicker `signIn`.
 */
export async function signInWithForm(page: Page, target = "/admin"): Promise<void> {
  await page.goto(target);
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await page.getByLabel("Email").fill(E2E_STAFF.email);
  await page.getByLabel("Password").fill(E2E_STAFF.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/admin");
  await expect(page.getByTestId("pet-row").first()).toBeVisible();
}

/**
 * Starts a session for `account` as the sign-in form does (a POST to the session endpoint, from the app's own
 * origin), in the page's browser context: a new session per test, without the sign-in page's two page loads.
 */
async function startSession(page: Page, account: { email: string; password: string }): Promise<void> {
  const reply = await page.request.post("/admin/api/session", {
    data: { email: account.email, password: account.password },
    headers: { Origin: process.env.E2E_BASE_URL! },
  });
  expect(reply.status(), await reply.text()).toBe(200);
}

/** Signs the staff member in and opens `target`, a catalogue URL, with its rows shown. */
export async function signIn(page: Page, target = "/admin"): Promise<void> {
  await startSession(page, E2E_STAFF);
  await page.goto(target);
  await expect(page).toHaveURL((url) => url.pathname === "/admin");
  await expect(page.getByTestId("pet-row").first()).toBeVisible();
}

/** A pet row's cells by what they show; the first column holds the row's selection checkbox. */
export const CELL = {
  id: "td:nth-child(2)",
  name: "td:nth-child(3)",
  category: "td:nth-child(4)",
  status: "td:nth-child(5)",
} as const;

/** The statuses shown in the table, one per row. */
export async function shownStatuses(page: Page): Promise<string[]> {
  return page.getByTestId("pet-row").locator(CELL.status).allInnerTexts();
}

export async function shownIds(page: Page): Promise<bigint[]> {
  return (await page.getByTestId("pet-row").locator(CELL.id).allInnerTexts()).map((id) => BigInt(id.trim()));
}

/**
 * The rules axe runs: WCAG 2.0, 2.1 and 2.2 A and AA and axe's best practices. wcag22aa turns on rules axe leaves off
 * by default, such as target-size (24 × 24 px); every rule axe runs by default is among these tags. Of the rules axe
 * calls experimental, label-content-name-mismatch too (WCAG 2.5.3: a control's name holds its visible text).
 */
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];
const AXE_RULES = { "label-content-name-mismatch": { enabled: true } };

/** Fails with every axe violation on the page (any impact), each with the rule, its impact and where. */
export async function expectNoAxeViolations(page: Page, what: string): Promise<void> {
  // In options, not withTags(): options() replaces what withTags() had set.
  const results = await new AxeBuilder({ page })
    .options({ resultTypes: ["violations"], runOnly: { type: "tag", values: AXE_TAGS }, rules: AXE_RULES })
    .analyze();
  const found = results.violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact,
    nodes: violation.nodes.map((node) => node.target.join(" ")),
  }));
  expect(found, `axe violations: ${what}`).toEqual([]);
}

/** Signs in as `account` and opens `target` (a path, with its query if any). */
export async function signInAs(
  page: Page,
  account: { email: string; password: string },
  target: string,
): Promise<void> {
  await startSession(page, account);
  await page.goto(target);
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === target);
}

/** Presses Tab until `target` has the focus, and checks the focus shows; fails if it is never reached. */
export async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let presses = 0; presses < 80; presses++) {
    await page.keyboard.press("Tab");
    if (await target.evaluate((element) => element === document.activeElement)) {
      expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).not.toBe("none");
      return;
    }
  }
  throw new Error(`${target.toString()} is not reachable with Tab`);
}
