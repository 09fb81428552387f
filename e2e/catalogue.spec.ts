import { expect, expectNoAxeViolations, shownIds, shownStatuses, signIn, tabTo, test } from "./support";

test.describe("the catalogue", () => {
  test.beforeEach(async ({ page }) => signIn(page));

  test("the first Tab reaches a skip link that takes the focus past the header to the catalogue", async ({ page }) => {
    await page.goto("/admin");
    await expect(page.getByTestId("pet-row").first()).toBeVisible();
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to main content" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport(); // hidden until focused, then shown
    await page.keyboard.press("Enter");
    await expect(page.locator("main")).toBeFocused();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest("main")))).toBe(true);
    await page.goto("/admin/orders");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Skip to main content" })).toBeFocused();
  });

  test("each status filter shows only that status and changes the URL", async ({ page }, testInfo) => {
    for (const status of ["available", "pending", "sold"]) {
      await page.getByRole("navigation", { name: "Filter by status" }).getByRole("link", { name: status }).click();
      await expect(page).toHaveURL(new RegExp(`[?&]status=${status}(&|$)`));
      await expect(page.getByRole("link", { name: status })).toHaveAttribute("aria-current", "page");
      await expect.poll(async () => new Set(await shownStatuses(page))).toEqual(new Set([status]));
      if (status === "sold") await page.screenshot({ path: testInfo.outputPath("filtered-sold.png"), fullPage: true });
    }
    await page.getByRole("link", { name: /^all(\s|$)/ }).click();
    await expect(page).not.toHaveURL(/status=/);
    await expect.poll(async () => new Set(await shownStatuses(page)).size).toBeGreaterThan(1);
  });

  test("reload keeps the filter and the page size", async ({ page }) => {
    await page.getByRole("link", { name: "pending" }).click();
    await page.getByLabel("Pets per page").selectOption("50");
    await expect(page).toHaveURL(/status=pending&limit=50/);
    await page.reload();
    await expect(page).toHaveURL(/status=pending&limit=50/);
    await expect(page.getByLabel("Pets per page")).toHaveValue("50");
    await expect(page.getByRole("link", { name: "pending" })).toHaveAttribute("aria-current", "page");
    await expect.poll(async () => new Set(await shownStatuses(page))).toEqual(new Set(["pending"]));
  });

  test("paging forward and back follows the cursor, and the page survives a reload", async ({ page }) => {
    const first = await shownIds(page);
    expect(first).toHaveLength(20);
    await page.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/cursors=/);
    await expect(page.getByText("Page 2", { exact: true })).toBeVisible();
    await expect.poll(async () => (await shownIds(page))[0]).toBeLessThan(first[first.length - 1]); // newest first
    const second = await shownIds(page);

    await page.reload();
    await expect(page.getByText("Page 2", { exact: true })).toBeVisible();
    await expect.poll(() => shownIds(page)).toEqual(second);

    await page.getByRole("link", { name: "Previous" }).click();
    await expect(page).not.toHaveURL(/cursors=/);
    await expect.poll(() => shownIds(page)).toEqual(first);
  });

  test("the page on screen stays while the next one loads", async ({ page }) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/admin\/api\/pets\?.*cursor=/, async (route) => {
      await held;
      await route.continue();
    });
    const first = await shownIds(page);
    await page.getByRole("link", { name: "Next" }).click();
    await expect(page.getByText("Loading…")).toBeVisible();
    expect(await shownIds(page)).toEqual(first); // still the first page, not a blank table
    release();
    await expect(page.getByText("Page 2", { exact: true })).toBeVisible();
    await expect.poll(async () => (await shownIds(page))[0]).toBeLessThan(first[first.length - 1]); // newest first
  });

  test("a first load shows skeletons, and an empty page says so", async ({ page }) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/admin\/api\/pets\?/, async (route) => {
      await held;
      // The empty state needs an empty answer; every status has pets in the demo catalogue.
      await route.fulfill({ status: 200, contentType: "application/json", body: "[]" });
    });
    await page.goto("/admin?status=sold&limit=100");
    await expect(page.getByTestId("skeleton")).toBeVisible();
    release();
    await expect(page.getByTestId("empty-state")).toHaveText(/No sold pets/);
  });

  test("a refused request shows the error state with its request id", async ({ page }) => {
    // A cursor the API never issued: the real /v1 refuses it with a 400.
    const answer = page.waitForResponse(/\/admin\/api\/pets\?/);
    await page.goto("/admin?limit=20&cursors=bm90LWEtY3Vyc29y");
    const requestId = (await answer).headers()["x-request-id"];
    const alert = page.getByRole("alert").filter({ hasText: "could not be loaded" });
    await expect(alert).toContainText("could not be loaded");
    await expect(alert).toContainText("This page link has expired; start from the first page.");
    await expect(page.getByTestId("request-id")).toHaveText(requestId);
    // A retry would be refused again: the way on is the first page, with the same filter.
    await alert.getByRole("link", { name: "Go to the first page" }).click();
    await expect(page).toHaveURL(/\/admin\?limit=20$/);
    await expect(page.getByTestId("pet-row").first()).toBeVisible();
  });
});

test.describe("an unknown admin address", () => {
  test("answers 404 with the admin header and a way back to the catalogue, by keyboard too", async ({ page }) => {
    await signIn(page);
    const response = await page.goto("/admin/no-such-page/here");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    await expect(
      page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Catalogue" }),
    ).toBeVisible();
    await expectNoAxeViolations(page, "the admin app's 404");
    await tabTo(page, page.getByRole("main").getByRole("link", { name: "Back to the catalogue" }));
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL((url) => url.pathname === "/admin");
    await expect(page.getByTestId("pet-row").first()).toBeVisible();
  });

  test("fits 390 px with 44 px targets", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page);
    expect((await page.goto("/admin/nowhere"))?.status()).toBe(404);
    const back = page.getByRole("main").getByRole("link", { name: "Back to the catalogue" });
    expect((await back.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page, "the admin app's 404 at 390 px");
  });

  test("sends a visitor to sign in first; an unknown endpoint path is a 404 at once", async ({ page }) => {
    await page.goto("/admin/no-such-page");
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fadmin%2Fno-such-page$/);
    expect((await page.request.get("/admin/api/no-such-endpoint", { maxRedirects: 0 })).status()).toBe(404);
  });
});
