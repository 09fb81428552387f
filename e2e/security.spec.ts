import { adminApiKey, expect, signInWithForm, test, CELL } from "./support";

test.describe("what reaches the browser", () => {
  test("the admin API key never appears in any response, header, script or cookie of a session", async ({
    page,
    context,
  }) => {
    const key = adminApiKey();
    const secret = key.slice("ask_".length);
    expect(key).toMatch(/^ask_[A-Za-z0-9_-]{32}$/);
    const seen: { url: string; type: string; text: string }[] = [];
    const pending: Promise<void>[] = [];
    page.on("response", (response) => {
      pending.push(
        (async () => {
          const headers = JSON.stringify(await response.allHeaders());
          let body = "";
          // A redirect has no body to read.
          if (response.status() < 300 || response.status() >= 400)
            body = (await response.body().catch(() => Buffer.alloc(0))).toString("utf8");
          seen.push({ url: response.url(), type: response.request().resourceType(), text: `${headers}\n${body}` });
        })(),
      );
    });

    // A whole session: sign in, browse, filter, page, add, fail to add, reload, sign out.
    await signInWithForm(page);
    await page.getByRole("link", { name: "sold" }).click();
    await page.getByRole("link", { name: /^all(\s|$)/ }).click();
    await page.getByRole("link", { name: "Next" }).click();
    await expect(page.getByText("Page 2", { exact: true })).toBeVisible();
    await page.getByLabel("Name", { exact: true }).fill("Key Watch");
    await page.getByLabel("Category", { exact: true }).selectOption({ label: "Birds" });
    await page.getByRole("button", { name: "Add pet" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Added" })).toBeVisible();
    await page.getByLabel("Category", { exact: true }).selectOption(""); // a failed add: no category chosen
    await page.getByRole("button", { name: "Add pet" }).click();
    await page.reload();
    await expect(page.getByTestId("pet-row").first()).toBeVisible();
    const cookies = JSON.stringify(await context.cookies());
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in\?reason=signed-out$/);
    await page.waitForLoadState("networkidle");
    await Promise.all(pending);

    expect(seen.filter((entry) => entry.type === "script").length, "the JS bundles were recorded").toBeGreaterThan(3);
    expect(seen.some((entry) => entry.url.includes("/admin/api/pets"))).toBe(true);
    // Every call goes through the admin endpoints: none to /v1 (so none to the deprecated getPet).
    expect(seen.filter((entry) => new URL(entry.url).pathname.startsWith("/v1")).map((entry) => entry.url)).toEqual([]);
    for (const entry of seen) {
      expect(entry.text.includes(secret), `the key's secret in ${entry.url}`).toBe(false);
    }
    expect(cookies.includes(secret)).toBe(false);
    expect(await page.content()).not.toContain(secret);
  });

  test("keyboard alone: filter and add with visible focus", async ({ page }) => {
    await signInWithForm(page);
    /**
     * Presses Tab until `name` (an accessible name) has the focus, on an element of `tag` when given (the table's
     * Name header is a button, the form's Name a field); fails if it is never reached.
     */
    // Up to 150 presses: a page of 20 rows is 40 stops (a checkbox and a link each) before the form, and which pets
    // are pending depends on the specs before this one in the worker (an order holds its pet).
    const tabTo = async (name: string, tag?: string) => {
      for (let presses = 0; presses < 150; presses++) {
        await page.keyboard.press("Tab");
        const focused = await page.evaluate(() => {
          const element = document.activeElement as HTMLInputElement | null;
          const text = element?.labels?.[0]?.textContent?.trim() ?? element?.textContent?.trim() ?? "";
          return { text, tag: element?.tagName ?? "" };
        });
        if (focused.text.startsWith(name) && (tag === undefined || focused.tag === tag)) return;
      }
      throw new Error(`${name} is not reachable with Tab`);
    };

    await tabTo("pending");
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline, "the focused link shows an outline").not.toBe("none");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/status=pending/);

    await tabTo("Name", "INPUT");
    await page.keyboard.type("Keyboard Kitty");
    await page.keyboard.press("Tab");
    // The category is a select of names: typing a name's first letters picks it, as in any select.
    await expect(page.getByLabel("Category", { exact: true })).toBeFocused();
    await page.keyboard.type("Cats");
    await expect(page.getByLabel("Category", { exact: true })).toHaveValue("2");
    await tabTo("Add pet");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status").filter({ hasText: "Added" })).toContainText("Keyboard Kitty");
  });
});

test.describe("at phone width", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the catalogue, the filter and the form fit and work on a 390 px screen", async ({ page }, testInfo) => {
    await signInWithForm(page);
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.getByRole("link", { name: "sold" }).tap();
    await expect(page).toHaveURL(/status=sold/);
    await expect
      .poll(async () => new Set(await page.getByTestId("pet-row").locator(CELL.status).allInnerTexts()))
      .toEqual(new Set(["sold"]));
    await page.getByLabel("Name", { exact: true }).fill("Pocket Hamster");
    await page.getByLabel("Category", { exact: true }).selectOption({ label: "Small mammals" });
    await page.getByLabel("Status (optional)").selectOption("sold");
    await page.getByRole("button", { name: "Add pet" }).tap();
    await expect(page.getByTestId("pet-row").filter({ hasText: "Pocket Hamster" })).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.screenshot({ path: testInfo.outputPath("phone.png"), fullPage: true });
  });
});
