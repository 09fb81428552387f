import type { Locator, Page } from "@playwright/test";
import sharp from "sharp";
import { adminApiKey, expect, signIn, test, expectNoAxeViolations } from "./support";

// The API reference at /docs: Swagger UI whose "Try it out" reaches this server (listed first) under the page's
// CSP, with no axe violation of any impact in either colour scheme, usable by keyboard alone and at phone width,
// and a way back to the app.

async function openDocs(page: Page): Promise<void> {
  await page.goto("/docs");
  // Swagger UI renders the whole document in the browser: on a busy machine that takes more than 10 s.
  await expect(page.locator("#operations-pets-listPets")).toBeVisible({ timeout: 30_000 });
}

const operation = (page: Page, id: string) => page.locator(`#operations-pets-${id}`);
const summary = (page: Page, id: string) => operation(page, id).locator(".opblock-summary-control");
const serverSelect = (page: Page) => page.getByRole("combobox", { name: /^Server/ });
const authorizeButton = (page: Page) => page.locator(".auth-wrapper").getByRole("button", { name: "Authorize" });

/** Gives the key in the Authorize dialog and closes it again. */
async function authorize(page: Page, key: string): Promise<void> {
  await authorizeButton(page).click();
  const dialog = page.getByRole("dialog", { name: "Available authorizations" });
  await dialog.getByRole("textbox").fill(key);
  await dialog.getByRole("button", { name: "Authorize", exact: true }).click();
  await expect(dialog.getByRole("button", { name: "Logout", exact: true })).toBeVisible();
  await dialog.getByRole("button", { name: "Close", exact: true }).click();
  await expect(dialog).toHaveCount(0);
}

/** Presses Tab until `target` has the focus; fails if it is never reached. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let presses = 0; presses < 60; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error("never reached by Tab");
}

const horizontalOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test.describe("the API reference", () => {
  test("lists this server first and executes listPets against it with a key from the Authorize dialog", async ({
    page,
    baseURL,
  }) => {
    await openDocs(page);
    const servers = serverSelect(page);
    await expect(servers).toHaveValue(`${baseURL}/v1`);
    await expect(servers.locator("option")).toHaveText([
      `${baseURL}/v1 - This server`,
      "https://api.animal-store.example/v1 - Production",
      "https://staging-api.animal-store.example/v1 - Staging",
    ]);
    await expect(page.getByTestId("api-base")).toHaveText(`${baseURL}/v1`);

    await authorize(page, adminApiKey());
    await summary(page, "listPets").click();
    const listPets = operation(page, "listPets");
    await listPets.getByLabel(/^status/).selectOption("available");
    const answer = page.waitForResponse((response) => new URL(response.url()).pathname === "/v1/pets");
    await listPets.getByRole("button", { name: "Execute" }).click();
    const response = await answer;
    expect(response.url()).toBe(`${baseURL}/v1/pets?limit=20&status=available&sort=id`);
    expect(response.request().headers().authorization).toBe(`Bearer ${adminApiKey()}`);
    expect(response.status()).toBe(200);
    const pets = (await response.json()) as { status: string }[];
    expect(pets.length).toBeGreaterThan(0);
    for (const pet of pets) expect(pet.status).toBe("available");
    await expect(listPets.locator(".live-responses-table tbody .response-col_status").first()).toHaveText("200");
  });

  test("uploads a photo of a pet: the binary body is a file picker, and this server answers 201", async ({
    page,
    request,
  }) => {
    const made = await request.post("/v1/pets", {
      headers: { Authorization: `Bearer ${adminApiKey()}` },
      data: { name: "Photographed from the docs", categoryId: 1 },
    });
    const petId = String(((await made.json()) as { id: number }).id);
    await openDocs(page);
    await authorize(page, adminApiKey());
    await summary(page, "uploadPetPhoto").click();
    const upload = operation(page, "uploadPetPhoto");
    await upload.locator('input[placeholder="petId"]').fill(petId);
    await upload.locator(".body-param-content-type select").selectOption("image/png");
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#3366aa" } })
      .png()
      .toBuffer();
    await upload.locator('input[type="file"]').setInputFiles({ name: "docs.png", mimeType: "image/png", buffer: png });
    const answer = page.waitForResponse((response) => response.url().endsWith(`/v1/pets/${petId}/photos`));
    await upload.getByRole("button", { name: "Execute" }).click();
    expect((await answer).status()).toBe(201);
    await expect(upload.locator(".live-responses-table tbody .response-col_status").first()).toHaveText("201");
  });

  test("without a key, Try it out shows this server's 401", async ({ page }) => {
    await openDocs(page);
    await summary(page, "listPets").click();
    const answer = page.waitForResponse((response) => new URL(response.url()).pathname === "/v1/pets");
    await operation(page, "listPets").getByRole("button", { name: "Execute" }).click();
    expect((await answer).status()).toBe(401);
    await expect(operation(page, "listPets").locator(".live-responses-table")).toContainText("unauthorized");
  });

  test("the header leads back to the admin app", async ({ page }) => {
    await signIn(page);
    await openDocs(page);
    const banner = page.getByRole("banner");
    await expect(banner.getByRole("link", { name: "OpenAPI document (JSON)" })).toHaveAttribute(
      "href",
      "/v1/openapi.json",
    );
    await banner.getByRole("link", { name: "Back to the admin app" }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/admin");
    await expect(page.getByTestId("pet-row").first()).toBeVisible();
  });

  test("works by keyboard alone: authorize, open an operation, execute it, and the focus is never lost", async ({
    page,
  }) => {
    await openDocs(page);
    await page.locator("body").focus();
    await tabTo(page, page.getByRole("link", { name: "Back to the admin app" }));
    await tabTo(page, serverSelect(page));
    await tabTo(page, authorizeButton(page));
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Available authorizations" });
    await expect(dialog.getByRole("textbox")).toBeFocused();
    await page.keyboard.type(adminApiKey());
    await page.keyboard.press("Enter");
    await expect(dialog.getByRole("button", { name: "Logout", exact: true })).toBeVisible();
    // The key's field is gone once authorized: the focus moves to Close, not to the page.
    await expect(dialog.getByRole("button", { name: "Close", exact: true })).toBeFocused();
    // Tab stays inside the dialog while it is open.
    for (let presses = 0; presses < 6; presses++) {
      await page.keyboard.press("Tab");
      expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(authorizeButton(page)).toBeFocused();

    await tabTo(page, summary(page, "listPets"));
    await page.keyboard.press("Enter");
    await expect(summary(page, "listPets")).toHaveAttribute("aria-expanded", "true");
    await expect(page).toHaveURL(/#\/pets\/listPets$/);
    const execute = operation(page, "listPets").getByRole("button", { name: "Execute" });
    await tabTo(page, execute);
    const answer = page.waitForResponse((response) => new URL(response.url()).pathname === "/v1/pets");
    await page.keyboard.press("Enter");
    expect((await answer).status()).toBe(200);
  });

  test("has no axe violations by default and with every operation and the schemas open", async ({ page }) => {
    // axe over the whole reference opened up is slow on a small shared machine: room for it.
    test.setTimeout(150_000);
    await openDocs(page);
    await expectNoAxeViolations(page, "/docs");
    for (const id of ["listPets", "createPet", "getPet", "updatePet", "deletePet"]) await summary(page, id).click();
    await page.locator(".models-control").click();
    await expectNoAxeViolations(page, "/docs with every operation and the schemas open");
  });

  test("has no axe violations with the Authorize dialog open and with a response shown", async ({ page }) => {
    test.slow();
    await openDocs(page);
    await authorizeButton(page).click();
    await expectNoAxeViolations(page, "/docs with the Authorize dialog open");
    await page.getByRole("dialog").getByRole("button", { name: "Close", exact: true }).click();
    await authorize(page, adminApiKey());
    await summary(page, "listPets").click();
    await operation(page, "listPets").getByRole("button", { name: "Execute" }).click();
    await expect(operation(page, "listPets").locator(".live-responses-table")).toBeVisible();
    await expectNoAxeViolations(page, "/docs with a response");
  });
});

test.describe("the API reference in the dark colour scheme", () => {
  test.use({ colorScheme: "dark" });

  test("follows the system setting and has no axe violations", async ({ page }) => {
    test.slow(); // axe's WCAG 2.2 target-size measures every control of the reference
    await openDocs(page);
    await expect(page.locator("html")).toHaveClass(/dark-mode/);
    await expectNoAxeViolations(page, "/docs, dark");
    await summary(page, "listPets").click();
    await summary(page, "createPet").click();
    await authorize(page, adminApiKey());
    await operation(page, "listPets").getByRole("button", { name: "Execute" }).click();
    await expect(operation(page, "listPets").locator(".live-responses-table")).toBeVisible();
    await expectNoAxeViolations(page, "/docs, dark, operations open and a response");
    // Swagger UI's dark class is the page's own: leaving /docs (a client-side navigation) takes it away.
    await page.getByRole("link", { name: "Back to the admin app" }).click();
    await expect(page).toHaveURL(/\/sign-in\?next=/);
    await expect(page.locator("html")).not.toHaveClass(/dark-mode/);
  });
});

test.describe("the API reference at phone width", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("fits 390 px, has 44 px targets and no axe violations", async ({ page }) => {
    test.slow(); // axe's WCAG 2.2 target-size measures every control of the reference
    await openDocs(page);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page, "/docs at 390 px");
    await summary(page, "listPets").tap();
    await authorize(page, adminApiKey());
    await operation(page, "listPets").getByRole("button", { name: "Execute" }).tap();
    await expect(operation(page, "listPets").locator(".live-responses-table")).toBeVisible();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page, "/docs at 390 px with a response");
    const targets = [
      page.getByRole("link", { name: "Back to the admin app" }),
      serverSelect(page),
      authorizeButton(page),
      summary(page, "listPets"),
      summary(page, "createPet"),
      operation(page, "listPets").getByRole("button", { name: "Execute" }),
      operation(page, "listPets").getByLabel(/^status/),
    ];
    for (const target of targets) {
      const box = (await target.boundingBox())!;
      expect(
        box.height,
        `${await target.evaluate((element) => element.outerHTML.slice(0, 80))}`,
      ).toBeGreaterThanOrEqual(44);
    }
  });
});
