import type { Page } from "@playwright/test";
import { adminApiKey, expect, expectNoAxeViolations, shownIds, signIn, tabTo, test } from "./support";

// The catalogue's filters on every field (issue 24): the "No status" chip, the category filter (several at once,
// a disclosure of checkboxes), the id lookup in the search box, and the Categories page's counts linking to the
// filtered catalogue; all by keyboard alone, in the URL (surviving a reload), axe-clean and at 390 px. Pets made
// here go through /v1 and are deleted again, so the other specs' catalogue stays.

type Pet = { id: number; name: string; categoryId: number; status?: string };
const auth = () => ({ Authorization: `Bearer ${adminApiKey()}` });

async function createPet(page: Page, pet: { name: string; categoryId: number; status?: string }): Promise<Pet> {
  const reply = await page.request.post("/v1/pets", { data: pet, headers: auth() });
  expect(reply.status(), await reply.text()).toBe(201);
  return (await reply.json()) as Pet;
}

async function deletePet(page: Page, id: number): Promise<void> {
  await page.request.delete(`/v1/pets/${id}`, { headers: auth() });
}

async function apiIds(page: Page, query: string): Promise<bigint[]> {
  const reply = await page.request.get(`/v1/pets?limit=100&sort=-id&${query}`, { headers: auth() });
  expect(reply.status()).toBe(200);
  return ((await reply.json()) as Pet[]).map((pet) => BigInt(pet.id));
}

test.describe("filters on every field", () => {
  let unsorted: Pet;

  test.beforeEach(async ({ page }) => {
    unsorted = await createPet(page, { name: "Filter Nostatus", categoryId: 3 });
    await signIn(page);
  });
  test.afterEach(async ({ page }) => deletePet(page, unsorted.id));

  test("keyboard only: No status, then two categories at once; in the URL, surviving a reload", async ({ page }) => {
    const none = page.getByTestId("status-chip-none");
    await expect(none).toHaveText(/No status\s+\d+/);
    await tabTo(page, none);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/[?&]status=none(&|$)/);
    await expect.poll(() => shownIds(page)).toEqual(await apiIds(page, "status=none"));
    await expect(page.getByTestId("pet-row").first()).toContainText("Filter Nostatus");
    await expect(page.getByTestId("match-count")).toHaveText(/^\d+ pets? without a status$/);
    await page.getByRole("link", { name: /^all(\s|$)/ }).click(); // back to every status, by mouse this once
    await expect(page).not.toHaveURL(/status=/);

    const filter = page.getByTestId("category-filter");
    await tabTo(page, filter);
    await expect(filter).toHaveAttribute("aria-expanded", "false");
    await page.keyboard.press("Enter");
    await expect(filter).toHaveAttribute("aria-expanded", "true");
    const birds = page.getByRole("checkbox", { name: /^Birds/ });
    const cats = page.getByRole("checkbox", { name: /^Cats/ });
    await tabTo(page, birds);
    await page.keyboard.press("Space");
    await expect(page).toHaveURL(/[?&]categoryId=3(&|$)/);
    await expect(birds).toBeChecked();
    await expect(birds).toBeFocused(); // the focus stays where it was
    await tabTo(page, cats);
    await page.keyboard.press("Space");
    await expect(page).toHaveURL(/[?&]categoryId=2%2C3(&|$)/);
    await expect(filter).toContainText("2 categories");
    await expect.poll(() => shownIds(page)).toEqual((await apiIds(page, "categoryId=2,3")).slice(0, 20));
    await expect(page.getByTestId("match-count")).toHaveText(/^\d+ pets in Cats or Birds$/);
    await expectNoAxeViolations(page, "the catalogue with the category filter open");
    await page.keyboard.press("Escape");
    await expect(filter).toHaveAttribute("aria-expanded", "false");
    await expect(filter).toBeFocused();

    // Both filters at once, after a reload.
    await page.reload();
    await expect(page.getByTestId("category-filter")).toContainText("2 categories");
    await tabTo(page, page.getByTestId("status-chip-none"));
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/status=none/);
    await expect(page).toHaveURL(/categoryId=2%2C3/);
    await expect.poll(() => shownIds(page)).toEqual(await apiIds(page, "status=none&categoryId=2,3"));
    await expect(page.getByTestId("match-count")).toHaveText(/^1 pet without a status in Cats or Birds$/);

    // Clear shows every category again.
    await page.getByTestId("category-filter").focus();
    await page.keyboard.press("Enter");
    await tabTo(page, page.getByRole("button", { name: "Clear" }));
    await page.keyboard.press("Enter");
    await expect(page).not.toHaveURL(/categoryId/);
    await expect(page.getByTestId("category-filter")).toContainText("All categories");
  });

  test("the id lookup: 35 or #35 opens that pet's panel", async ({ page }) => {
    const search = page.getByRole("searchbox", { name: "Search by name or id" });
    await tabTo(page, search);
    await page.keyboard.type(`#${unsorted.id}`);
    await expect(page.getByTestId("open-pet-by-id")).toHaveText(`Open pet #${unsorted.id}`);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`[?&]pet=${unsorted.id}(&|$)`));
    await expect(page.getByRole("heading", { name: "Filter Nostatus" })).toBeFocused();
    await expect(page).not.toHaveURL(/[?&]q=/); // "#35" is only an id

    await page.goto("/admin");
    await page.getByRole("searchbox", { name: "Search by name or id" }).fill(String(unsorted.id));
    await tabTo(page, page.getByTestId("open-pet-by-id"));
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`[?&]pet=${unsorted.id}(&|$)`));
    await expect(page.getByRole("heading", { name: "Filter Nostatus" })).toBeVisible();
  });

  test("a category's count on the Categories page links to the catalogue filtered by it", async ({ page }) => {
    await page.goto("/admin/categories");
    const link = page.getByRole("link", { name: /pets in Birds: show in the catalogue$/ });
    await tabTo(page, link);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/admin\?categoryId=3$/);
    await expect(page.getByTestId("category-filter")).toContainText("Birds");
    await expect.poll(() => shownIds(page)).toEqual((await apiIds(page, "categoryId=3")).slice(0, 20));
  });
});

test.describe("filters on a phone (390 × 844)", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("fit without scrolling sideways, with 44 px targets, axe-clean", async ({ page }) => {
    await signIn(page, "/admin?categoryId=1,3&status=available");
    const filter = page.getByTestId("category-filter");
    await filter.click();
    await expect(page.getByRole("checkbox", { name: /^Dogs/ })).toBeChecked();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    for (const target of [filter, page.getByTestId("status-chip-none"), page.getByRole("button", { name: "Clear" })]) {
      const box = (await target.boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(44);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    const panel = (await page.getByRole("group", { name: "Show pets of these categories" }).boundingBox())!;
    expect(panel.x).toBeGreaterThanOrEqual(0);
    expect(panel.x + panel.width).toBeLessThanOrEqual(390);
    await expectNoAxeViolations(page, "the filters at 390 px");
  });
});
