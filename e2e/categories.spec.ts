import type { APIRequestContext, Page } from "@playwright/test";
import { adminApiKey, expect, expectNoAxeViolations, signInAs, tabTo, test } from "./support";
import { E2E_ADMIN, E2E_STAFF } from "./staff-account";

// Category names in the admin app (issue 12): an admin adds and renames a category with the keyboard alone, a
// duplicate in another case is refused beside the input; the catalogue, the pet's panel and the add form's select
// show and pick names; an id no category names shows as "Unnamed (<id>)" everywhere; the Categories page is
// axe-clean for an admin and for a staff member (who can read it but not change it), and usable at phone width.
// Names are unique per run: the server is shared by every spec, and the demo's six names stay as they are.

const run = Date.now().toString(36);

async function makePet(request: APIRequestContext, name: string, categoryId: bigint | number): Promise<string> {
  const response = await request.post("/v1/pets", {
    headers: { Authorization: `Bearer ${adminApiKey()}`, "Content-Type": "application/json" },
    data: `{"name": ${JSON.stringify(name)}, "categoryId": ${categoryId}, "status": "available"}`,
  });
  expect(response.status()).toBe(201);
  return /"id":(\d+)/.exec(await response.text())![1];
}

/** Deletes the one pet of this name, found by the API's search. */
async function deletePet(request: APIRequestContext, name: string): Promise<void> {
  const headers = { Authorization: `Bearer ${adminApiKey()}` };
  const found = await request.get(`/v1/pets?q=${encodeURIComponent(name)}`, { headers });
  const ids = [...(await found.text()).matchAll(/"id":(\d+)/g)].map((match) => match[1]);
  expect(ids).toHaveLength(1);
  expect((await request.delete(`/v1/pets/${ids[0]}`, { headers })).status()).toBe(204);
}

const rowOf = (page: Page, name: string) =>
  page.getByTestId("category-row").filter({ has: page.getByTestId("category-name").getByText(name, { exact: true }) });

test.describe("an admin on the Categories page", () => {
  test("adds and renames a category by keyboard alone; a duplicate in another case is refused", async ({ page }) => {
    await signInAs(page, E2E_ADMIN, "/admin");
    // From the header's navigation, by keyboard.
    const link = page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Categories" });
    await tabTo(page, link);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL((url) => url.pathname === "/admin/categories");
    await expect(page.getByRole("heading", { level: 1, name: "Categories" })).toBeVisible();
    await expect(link).toHaveAttribute("aria-current", "page");
    await expect(rowOf(page, "Dogs").getByTestId("category-pets")).not.toHaveText("0");
    await expectNoAxeViolations(page, "the Categories page as an admin");

    // Add one.
    const name = `Ferrets ${run}`;
    const input = page.getByLabel("Name", { exact: true });
    await tabTo(page, input);
    await page.keyboard.type(name);
    await page.keyboard.press("Enter");
    const status = page.getByTestId("categories-status");
    await expect(status).toHaveText(new RegExp(`^Added “${name}” as category \\d+\\.$`));
    await expect(input).toHaveValue("");
    await expect(input).toBeFocused();
    await expect(rowOf(page, name).getByTestId("category-pets")).toHaveText("0");

    // A name another category has, in another case: refused beside the input, nothing added.
    await page.keyboard.type("  DOGS ");
    await page.keyboard.press("Enter");
    await expect(input).toHaveAttribute("aria-invalid", "true");
    await expect(input).toHaveAccessibleDescription(/The name “DOGS” is taken: category 1 is called “Dogs”/);
    await expect(input).toBeFocused();
    await expect(page.getByTestId("category-name").getByText("DOGS", { exact: true })).toHaveCount(0);
    await expectNoAxeViolations(page, "the add form refusing a duplicate");
    await page.keyboard.press("Control+A");
    await page.keyboard.press("Delete");

    // Rename it: the button opens a small form in its row, with the focus in it; Escape cancels.
    const rename = page.getByRole("button", { name: `Rename ${name}` });
    await tabTo(page, rename);
    await page.keyboard.press("Enter");
    const newName = page.getByLabel(`New name for “${name}”`);
    await expect(newName).toBeFocused();
    await expect(newName).toHaveValue(name);
    await page.keyboard.press("Escape");
    await expect(rename).toBeFocused();

    await page.keyboard.press("Enter");
    await expect(newName).toBeFocused();
    await page.keyboard.press("Control+A");
    await page.keyboard.type("cats");
    await page.keyboard.press("Enter");
    await expect(newName).toHaveAccessibleDescription(/The name “cats” is taken/);
    await expect(newName).toBeFocused();
    await expectNoAxeViolations(page, "a rename refused");

    const renamed = `Polecats ${run}`;
    await page.keyboard.press("Control+A");
    await page.keyboard.type(renamed);
    await page.keyboard.press("Enter");
    await expect(status).toHaveText(`Renamed “${name}” to “${renamed}”.`);
    await expect(page.getByRole("button", { name: `Rename ${renamed}` })).toBeFocused();
    await expect(rowOf(page, name)).toHaveCount(0);
    await expect(rowOf(page, renamed)).toHaveCount(1);

    // The Activity page says what happened, in a sentence each.
    await page.goto("/admin/activity?action=category.renamed");
    await expect(page.getByText(`renamed the category "${name}"`, { exact: false }).first()).toBeVisible();
  });

  test("a name the schema refuses is explained beside the input in staff words, without a request", async ({
    page,
  }) => {
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().includes("/admin/api/categories")) posts.push(request.url());
    });
    await signInAs(page, E2E_ADMIN, "/admin/categories");
    const input = page.getByLabel("Name", { exact: true });
    await input.fill("   ");
    await input.press("Enter");
    await expect(input).toHaveAttribute("aria-invalid", "true");
    await expect(input).toHaveAccessibleDescription(/Give the category a name\./);
    await expect(input).toBeFocused();
    await input.fill("c".repeat(101));
    await input.press("Enter");
    await expect(input).toHaveAccessibleDescription(/Use 100 characters or fewer; this name has 101\./);
    await expectNoAxeViolations(page, "the add form refusing a name");
    expect(posts).toEqual([]);
  });

  test("the catalogue shows names, the add form picks a new one, an unnamed id shows as Unnamed (id)", async ({
    page,
    request,
  }) => {
    await signInAs(page, E2E_ADMIN, "/admin/categories");
    const category = `Hedgehogs ${run}`;
    const input = page.getByLabel("Name", { exact: true });
    await input.fill(category);
    await page.getByRole("button", { name: "Add category" }).click();
    await expect(page.getByTestId("categories-status")).toContainText(`Added “${category}”`);
    const id = /as category (\d+)\./.exec(await page.getByTestId("categories-status").innerText())![1];

    // The add form's select offers it, sorted by name; the new pet's row shows the name.
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Catalogue" }).click();
    await expect(page.getByTestId("pet-row").first()).toBeVisible();
    const select = page.getByLabel("Category", { exact: true });
    const labels = await select.locator("option").allInnerTexts();
    expect(labels.slice(1)).toEqual(
      [...labels.slice(1)].sort((a, b) =>
        a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0,
      ),
    );
    const petName = `Spiky ${run}`;
    await page.getByLabel("Name", { exact: true }).fill(petName);
    await select.selectOption({ label: category });
    await expect(select).toHaveValue(id);
    await page.getByRole("button", { name: "Add pet" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Added" })).toContainText(petName);
    await page.getByRole("searchbox", { name: "Search by name" }).fill(petName);
    const row = page.getByTestId("pet-row").filter({ hasText: petName });
    await expect(row.getByTestId("pet-row-category")).toHaveText(category);

    // An id no category names: "Unnamed (id)" in the table, the panel and the edit form's select.
    const unnamedId = 900_000_000_000n + BigInt(Date.now() % 1_000_000);
    const ghost = `Nameless ${run}`;
    const ghostId = await makePet(request, ghost, unnamedId);
    await page.goto(`/admin?q=${encodeURIComponent(ghost)}&pet=${ghostId}`);
    const ghostRow = page.getByTestId("pet-row").filter({ hasText: ghost });
    await expect(ghostRow.getByTestId("pet-row-category")).toHaveText(`Unnamed (${unnamedId})`);
    const panel = page.getByTestId("pet-panel");
    await expect(panel.getByTestId("pet-category")).toHaveText(`Unnamed (${unnamedId})`);
    const edit = panel.getByLabel("Category", { exact: true });
    await expect(edit).toHaveValue(String(unnamedId));
    await expect(edit.locator("option:checked")).toHaveText(`Unnamed (${unnamedId})`);
    await expectNoAxeViolations(page, "the catalogue with an unnamed category");

    // Saving the name alone keeps the unnamed id.
    const patches: string[] = [];
    page.on("request", (sent) => {
      if (sent.method() === "PATCH") patches.push(sent.postData() ?? "");
    });
    await panel.getByLabel("Name", { exact: true }).fill(`${ghost} too`);
    await panel.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByTestId("notification").filter({ hasText: `(#${ghostId})` })).toContainText("changes saved");
    expect(patches.map((patch) => JSON.parse(patch))).toEqual([{ name: `${ghost} too` }]);

    // On the Categories page it is listed with its pet, and an admin may name it.
    await page.goto("/admin/categories");
    const unnamedRow = rowOf(page, `Unnamed (${unnamedId})`);
    await expect(unnamedRow.getByTestId("category-pets")).toHaveText("1");
    await unnamedRow.getByRole("button", { name: `Name Unnamed (${unnamedId})` }).click();
    await page.getByLabel(`Name for id ${unnamedId}`).fill(`Named later ${run}`);
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("categories-status")).toHaveText(`Named category ${unnamedId} “Named later ${run}”.`);
    await expect(rowOf(page, `Named later ${run}`).getByTestId("category-pets")).toHaveText("1");

    // The two pets leave again: the specs after this one count the demo catalogue's pages.
    for (const name of [petName, `${ghost} too`]) await deletePet(request, name);
  });
});

test.describe("a staff member on the Categories page", () => {
  test("sees every category with its pets, and no way to change them; axe-clean", async ({ page }) => {
    await signInAs(page, E2E_STAFF, "/admin");
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Categories" }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/admin/categories");
    await expect(rowOf(page, "Small mammals").getByTestId("category-pets")).not.toHaveText("");
    await expect(page.getByText("Only an admin can add or rename a category.")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Add a category" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Rename / })).toHaveCount(0);
    await expectNoAxeViolations(page, "the Categories page as a staff member");
  });
});

test.describe("at phone width", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the Categories page fits a 390 px screen; adding and renaming work by touch", async ({ page }) => {
    await signInAs(page, E2E_ADMIN, "/admin/categories");
    await expect(rowOf(page, "Dogs")).toBeVisible();
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    // The add form comes before the list: reachable without scrolling past it.
    const add = page.getByRole("button", { name: "Add category" });
    const box = (await add.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    // The page's own controls (the header's are the phone work's: its Sign out button is not yet 44 px tall).
    for (const button of await page.getByRole("main").getByRole("button").all()) {
      const { height } = (await button.boundingBox())!;
      expect(height, await button.innerText()).toBeGreaterThanOrEqual(44);
    }

    const name = `Tortoises ${run}`;
    await page.getByLabel("Name", { exact: true }).fill(name);
    await add.tap();
    await expect(page.getByTestId("categories-status")).toContainText(`Added “${name}”`);
    await page.getByRole("button", { name: `Rename ${name}` }).tap();
    await page.getByLabel(`New name for “${name}”`).fill(`${name} and turtles`);
    await page.getByRole("button", { name: "Save" }).tap();
    await expect(page.getByTestId("categories-status")).toHaveText(`Renamed “${name}” to “${name} and turtles”.`);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page, "the Categories page at phone width");
  });
});
