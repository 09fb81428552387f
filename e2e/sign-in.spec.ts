import { E2E_STAFF, expect, signInWithForm, test, CELL } from "./support";

test.describe("signing in and out", () => {
  test("a wrong password is refused with a message, the same as an unknown email", async ({ page }) => {
    await page.goto("/sign-in");
    await page.getByLabel("Email").fill(E2E_STAFF.email);
    await page.getByLabel("Password").fill("not the password at all");
    await page.getByRole("button", { name: "Sign in" }).click();
    const message = page.locator("#sign-in-error");
    await expect(message).toHaveText(/Wrong email or password/);
    await expect(page).toHaveURL(/\/sign-in/);
    const wrongPassword = await message.innerText();
    // The focus is back on the password, selected to type again, not lost to the page's body.
    await expect(page.getByLabel("Password")).toBeFocused();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("password");
    await page.keyboard.type(E2E_STAFF.password);
    await expect(page.getByLabel("Password")).toHaveValue(E2E_STAFF.password);

    await page.getByLabel("Email").fill("nobody@animal-store.example");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
    await expect(message).toHaveText(wrongPassword);
    await expect(page.getByLabel("Password")).toBeFocused();
  });

  test("repeated failures are refused in plain words saying when to try again", async ({ page }) => {
    // Not the specs' staff account: the lock is per email and address, and every spec signs in from here.
    await page.goto("/sign-in");
    await page.getByLabel("Email").fill("locked-out@animal-store.example");
    await page.getByLabel("Password").fill("not the password at all");
    const submit = page.getByRole("button", { name: "Sign in" });
    const message = page.locator("#sign-in-error");
    const attempt = async () => {
      const [response] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith("/admin/api/session")),
        submit.click(),
      ]);
      return response;
    };
    for (let failure = 1; failure <= 5; failure++) {
      expect((await attempt()).status()).toBe(401);
      await expect(message).toHaveText(/Wrong email or password/);
    }
    const refused = await attempt();
    expect(refused.status()).toBe(429);
    expect(Number(refused.headers()["retry-after"])).toBeGreaterThan(0);
    await expect(message).toHaveText(
      /^Too many failed sign-ins for this account from your network\. Try again in (a minute|\d+ seconds)\.$/,
    );
    await expect(message).toHaveAttribute("role", "alert");
    await expect(page).toHaveURL(/\/sign-in/);
  });

  test("sign-in lands on the catalogue showing the seeded pets", async ({ page }, testInfo) => {
    await signInWithForm(page);
    await expect(page.getByRole("heading", { name: "Catalogue" })).toBeVisible();
    await expect(page.getByTestId("pet-row")).toHaveCount(20);
    // Newest first: the demo catalogue's first pet leads the list in the oldest-first order.
    await page.getByLabel("Sort by").selectOption({ label: "Oldest first" });
    await expect(page.getByTestId("pet-row").first()).toContainText("Biscuit");
    await expect(page.getByText(E2E_STAFF.email)).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("catalogue.png"), fullPage: true });
  });

  test("an admin link opened signed out returns there after sign-in", async ({ page }) => {
    await signInWithForm(page, "/admin?status=sold&limit=50");
    await expect(page).toHaveURL(/\/admin\?status=sold&limit=50$/);
    for (const status of await page.getByTestId("pet-row").locator(CELL.status).allInnerTexts())
      expect(status).toBe("sold");
  });

  test("signing out locks every admin page and endpoint, and the old cookie is dead on the server", async ({
    page,
    browser,
    baseURL,
  }) => {
    await signInWithForm(page);
    const cookie = (await page.context().cookies()).find((entry) => entry.name === "animal_store_session");
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe("Lax");
    expect(cookie?.path).toBe("/admin");

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in\?reason=signed-out$/);
    await expect(page.getByRole("status")).toHaveText("You have signed out.");
    for (const path of ["/admin", "/admin?status=sold&limit=50", "/admin?cursors=cDE6MjA"]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/sign-in\?next=/);
    }
    const list = await page.request.get("/admin/api/pets");
    expect(list.status()).toBe(401);
    expect((await list.json()).code).toBe("session_required");
    const create = await page.request.post("/admin/api/pets", {
      data: { name: "Ghost", categoryId: 1 },
      headers: { Origin: baseURL! },
    });
    expect(create.status()).toBe(401);

    // A copy of the cookie taken before signing out (another tab, another machine) is refused too.
    const other = await browser.newContext({ baseURL });
    await other.addCookies([{ ...cookie!, expires: -1 }]);
    const stolen = await other.newPage();
    await stolen.goto("/admin");
    await expect(stolen).toHaveURL(/\/sign-in\?next=/);
    expect((await other.request.get("/admin/api/pets")).status()).toBe(401);
    await other.close();
  });
});
