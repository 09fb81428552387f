import { expect, signIn, test, CELL } from "./support";

test.describe("adding a pet", () => {
  test.beforeEach(async ({ page }) => signIn(page));

  test("a valid pet appears in the list without a page reload, and the form confirms it", async ({ page }) => {
    await page.goto("/admin?status=pending&limit=100");
    await page.evaluate(() => ((window as unknown as { stillThisPage: boolean }).stillThisPage = true));
    const name = `Waffles ${Date.now()}`;
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Category", { exact: true }).selectOption({ label: "Cats" });
    await page.getByLabel("Status (optional)").selectOption("pending");
    await page.getByRole("button", { name: "Add pet" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Added" })).toHaveText(
      new RegExp(`Added “${name}” with id \\d+\\.`),
    );
    const row = page.getByTestId("pet-row").filter({ hasText: name });
    await expect(row).toBeVisible();
    await expect(row.locator(CELL.category)).toHaveText("Cats");
    await expect(row.locator(CELL.status)).toHaveText("pending");
    expect(await page.evaluate(() => (window as unknown as { stillThisPage?: boolean }).stillThisPage)).toBe(true);
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue(""); // ready for the next one
  });

  test("invalid input shows the schema's rules in staff words next to the inputs, without a request", async ({
    page,
  }, testInfo) => {
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().includes("/admin/api/pets")) posts.push(request.url());
    });
    const submit = page.getByRole("button", { name: "Add pet" });

    await submit.click();
    await expect(page.locator("#name-error")).toHaveText("Enter a name");
    await expect(page.locator("#categoryId-error")).toHaveText("Choose a category");
    await expect(page.getByLabel("Name", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Name", { exact: true })).toBeFocused();

    // The category is picked by name from a select: no number (a word, one beyond int64) can be typed any more, so
    // only the names are offered, sorted by name (the demo's six among whatever other specs added).
    const category = page.getByLabel("Category", { exact: true });
    await expect(page.getByRole("textbox", { name: "Category" })).toHaveCount(0);
    await expect(page.getByRole("combobox", { name: "Category", exact: true })).toBeVisible();
    const demo = ["Birds", "Cats", "Dogs", "Fish", "Reptiles", "Small mammals"];
    const offered = await category.locator("option").allInnerTexts();
    expect(offered[0]).toBe("Choose a category");
    expect(offered.filter((label) => demo.includes(label))).toEqual(demo);

    await page.getByLabel("Name", { exact: true }).fill("   ");
    await category.selectOption({ label: "Birds" });
    await submit.click();
    await expect(page.locator("#name-error")).toHaveText("Enter a name");
    await expect(page.locator("#categoryId-error")).toHaveCount(0);

    await page.getByLabel("Name", { exact: true }).fill("x".repeat(201));
    await category.selectOption("");
    await submit.click();
    await expect(page.locator("#name-error")).toHaveText("Use 200 characters or fewer");
    await expect(page.locator("#categoryId-error")).toHaveText("Choose a category");
    await page.screenshot({ path: testInfo.outputPath("form-errors.png"), fullPage: true });
    expect(posts).toEqual([]);
  });

  test("a refusal by the server marks the input its errors[] names, in staff words", async ({ page }) => {
    // The browser runs the API's own schema, so a page as served never sends what /v1 refuses. To see
    // the server's refusal reach the form, the request is altered in flight — as an outdated page or a
    // tampering client would send it — and then goes to the real server, which refuses it.
    await page.route("**/admin/api/pets", async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      const body = route
        .request()
        .postData()!
        .replace(/"categoryId":\d+/, '"categoryId":9223372036854775808');
      await route.continue({ postData: body });
    });
    const answer = page.waitForResponse(
      (response) => response.request().method() === "POST" && response.url().endsWith("/admin/api/pets"),
    );
    await page.getByLabel("Name", { exact: true }).fill("Tampered");
    await page.getByLabel("Category", { exact: true }).selectOption({ label: "Dogs" });
    await page.getByRole("button", { name: "Add pet" }).click();
    const response = await answer;
    expect(response.status()).toBe(400);
    expect((await response.json()).errors).toEqual([
      { path: "categoryId", message: "categoryId must be at most 9223372036854775807" },
    ]);
    await expect(page.locator("#categoryId-error")).toHaveText(
      "The store refused this category; check it and save again",
    );
    await expect(page.getByLabel("Category", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator("#name-error")).toHaveCount(0);
    await expect(page.getByTestId("form-request-id")).toHaveText(response.headers()["x-request-id"]);
  });

  test("a hostile name is shown as text, never as markup", async ({ page }) => {
    const dialogs: string[] = [];
    page.on("dialog", async (dialog) => {
      dialogs.push(dialog.message());
      await dialog.dismiss();
    });
    const hostile = "<img src=x onerror=alert(1)>";
    await page.goto("/admin?status=sold&limit=100");
    await page.getByLabel("Name", { exact: true }).fill(hostile);
    await page.getByLabel("Category", { exact: true }).selectOption({ label: "Dogs" });
    await page.getByLabel("Status (optional)").selectOption("sold");
    await page.getByRole("button", { name: "Add pet" }).click();
    const cell = page.getByTestId("pet-row").locator(CELL.name).filter({ hasText: hostile });
    await expect(cell).toHaveText(hostile);
    await expect(page.getByRole("status").filter({ hasText: "Added" })).toContainText(hostile);
    await page.reload();
    await expect(page.getByTestId("pet-row").locator(CELL.name).filter({ hasText: hostile })).toHaveText(hostile);
    // No element made of the name: the only pictures are the pets' covers (issue 25), none from src=x.
    expect(await page.locator('main img[src="x"]').count()).toBe(0);
    for (const image of await page.locator("main img").all()) {
      await expect(image).toHaveAttribute("data-testid", "cover");
      await expect(image).toHaveAttribute("src", /^\/admin\/api\/pets\/\d+\/photos\/\d+\?size=thumb$/);
    }
    expect(dialogs).toEqual([]);
  });
});
