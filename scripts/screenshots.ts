import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser, type BrowserContextOptions, type Page } from "@playwright/test";
import { createKeyWithTool, createStaffWithTool, createTestDatabase, startServer } from "./harness/servers";

// The screenshots of the admin app in docs/staff.md, made rather than taken by hand: `npm run screenshots` builds, then
// this starts the production server (server.ts) on 127.0.0.1 and a port the OS picks, over a fresh SQLite file
// with the demo catalogue, creates a staff account with the staff tool, signs in with Chromium (Debian's, as the
// browser tests use) and writes docs/images/catalogue-light.png (desktop, light) and pet-panel-dark.png (a phone,
// dark, a pet's panel open). The server is stopped by its pid and the database removed, also on failure.

const root = path.resolve(import.meta.dirname, "..");
const outDir = path.join(root, "docs/images");
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const account = { email: "ana@animal-store.example", password: randomBytes(12).toString("base64url") };

async function signIn(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/admin`);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname === "/admin");
  await page.getByTestId("pet-row").first().waitFor();
  await page.getByTestId("match-count").getByText("pets").waitFor();
}

async function shoot(
  browser: Browser,
  baseUrl: string,
  file: string,
  options: BrowserContextOptions,
  arrange: (page: Page) => Promise<void>,
): Promise<void> {
  const context = await browser.newContext(options);
  try {
    const page = await context.newPage();
    await signIn(page, baseUrl);
    await arrange(page);
    await page.mouse.move(0, 0); // no hover effect in the picture
    await page.screenshot({ path: path.join(outDir, file), animations: "disabled", caret: "hide" });
    console.log(`wrote docs/images/${file}`);
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium`);
  fs.mkdirSync(outDir, { recursive: true });
  const database = await createTestDatabase("sqlite");
  try {
    await createStaffWithTool(database.url, account.email, account.password);
    const adminApiKey = await createKeyWithTool(database.url, "screenshots admin app");
    const server = await startServer("custom", database.url, { DEMO_SEED: "on", ADMIN_API_KEY: adminApiKey });
    console.log(`server ${server.pid} at ${server.baseUrl}`);
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          "--no-sandbox",
          "--disable-gpu",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          "--no-first-run",
        ],
      });
      await shoot(
        browser,
        server.baseUrl,
        "catalogue-light.png",
        { viewport: { width: 1280, height: 860 }, colorScheme: "light" },
        async () => {},
      );
      await shoot(
        browser,
        server.baseUrl,
        "pet-panel-dark.png",
        {
          viewport: { width: 390, height: 844 },
          deviceScaleFactor: 2,
          isMobile: true,
          hasTouch: true,
          colorScheme: "dark",
        },
        async (page) => {
          await page.getByTestId("pet-row").first().getByRole("link").tap();
          // The panel's buttons are dimmed until it has read the pet (with its ETag).
          await page.getByTestId("pet-panel").locator('button[aria-disabled="false"]', { hasText: "sold" }).waitFor();
          await page.evaluate(() => {
            (document.activeElement as HTMLElement | null)?.blur();
            window.scrollTo(0, 0);
          });
        },
      );
    } finally {
      await browser?.close();
      await server.stop();
    }
  } finally {
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
