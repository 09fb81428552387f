import type { Page } from "@playwright/test";
import { adminApiKey, expect, shownIds, signIn, tabTo, test, expectNoAxeViolations, CELL } from "./support";

// The catalogue's order and counts (issue 12): the sort control and its URL, newest first by default (so a pet
// just added is at the top), each status chip's count and the sentence saying how many pets match, kept exact
// after a change. Pets made here go through /v1 and are deleted again, so the other specs' catalogue stays.

type Counts = { total: number; byStatus: Record<"available" | "pending" | "sold" | "none", number> };

/** The counts as /v1 answers them right now. */
async function apiCounts(page: Page, q?: string): Promise<Counts> {
  const response = await page.request.get(`/v1/pets/counts${q ? `?q=${encodeURIComponent(q)}` : ""}`, {
    headers: { Authorization: `Bearer ${adminApiKey()}` },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as Counts;
}

function chip(page: Page, status: string) {
  return page.getByTestId(`status-chip-${status}`);
}

async function shownNames(page: Page): Promise<string[]> {
  return page.getByTestId("pet-row").locator(CELL.name).allInnerTexts();
}

/** The name order both databases give: ASCII letters folded to lower case, then code points. */
function byName(a: string, b: string): number {
  const key = (name: string) => Buffer.from(name.replace(/[A-Z]/g, (letter) => letter.toLowerCase()));
  return Buffer.compare(key(a), key(b));
}

/** Whether the rows shown are in name order (and there are some). */
async function inNameOrder(page: Page, direction: "ascending" | "descending" = "ascending"): Promise<boolean> {
  const names = await shownNames(page);
  const sorted = [...names].sort(byName);
  if (direction === "descending") sorted.reverse();
  return names.length > 1 && names.join("\n") === sorted.join("\n");
}

test.describe("sorting and counts in the catalogue", () => {
  test.beforeEach(async ({ page }) => signIn(page));

  test("newest first by default; the sort select changes the order and the URL, and survives a reload", async ({
    page,
  }) => {
    const sort = page.getByLabel("Sort by");
    await expect(sort).toHaveValue("-id");
    const newest = await shownIds(page);
    expect(newest).toEqual([...newest].sort((a, b) => (a > b ? -1 : 1)));

    await sort.selectOption({ label: "Oldest first" });
    await expect(page).toHaveURL(/[?&]sort=id(&|$)/);
    await expect.poll(async () => (await shownIds(page))[0]).toBeLessThan(newest.at(-1)!);
    const oldest = await shownIds(page);
    expect(oldest).toEqual([...oldest].sort((a, b) => (a < b ? -1 : 1)));

    await sort.selectOption({ label: "Name A–Z" });
    await expect(page).toHaveURL(/[?&]sort=name(&|$)/);
    await expect.poll(() => inNameOrder(page)).toBe(true);
    const first = await shownNames(page);

    // Paging keeps the order: the second page's names follow the first page's.
    await page.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/sort=name.*cursors=/);
    await expect(page.getByText("Page 2", { exact: true })).toBeVisible();
    const second = await shownNames(page);
    expect(byName(first.at(-1)!, second[0])).toBeLessThanOrEqual(0);

    await sort.selectOption({ label: "Name Z–A" });
    await expect(page).toHaveURL(/[?&]sort=-name(&|$)/);
    await expect(page).not.toHaveURL(/cursors=/); // a new order starts from its first page
    await page.reload();
    await expect(page.getByLabel("Sort by")).toHaveValue("-name");
    await expect.poll(() => inNameOrder(page, "descending")).toBe(true);
    await expectNoAxeViolations(page, "the catalogue sorted by name");

    await page.getByLabel("Sort by").selectOption({ label: "Newest first" });
    await expect(page).not.toHaveURL(/sort=/);
  });

  test("keyboard only: the column headers sort, pressed again reverse, and agree with the select and the URL", async ({
    page,
  }) => {
    const sort = page.getByLabel("Sort by");
    const header = (name: string) => page.getByRole("columnheader", { name, exact: true });
    const button = (name: string) => header(name).getByRole("button");
    await expect(header("ID")).toHaveAttribute("aria-sort", "descending"); // newest first, the default
    await expect(header("Name")).not.toHaveAttribute("aria-sort", /./);

    await tabTo(page, button("Name"));
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/[?&]sort=name(&|$)/);
    await expect(header("Name")).toHaveAttribute("aria-sort", "ascending");
    await expect(header("ID")).not.toHaveAttribute("aria-sort", /./);
    await expect(sort).toHaveValue("name");
    await expect.poll(() => inNameOrder(page)).toBe(true);

    await expect(button("Name")).toBeFocused(); // the focus stays on the header while the list reloads
    await page.keyboard.press("Space");
    await expect(page).toHaveURL(/[?&]sort=-name(&|$)/);
    await expect(header("Name")).toHaveAttribute("aria-sort", "descending");
    await expect(sort).toHaveValue("-name");
    await expect.poll(() => inNameOrder(page, "descending")).toBe(true);
    await expectNoAxeViolations(page, "the catalogue sorted from a column header");

    await page.keyboard.press("Shift+Tab"); // the ID header is just before
    await expect(button("ID")).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/[?&]sort=id(&|$)/);
    await expect(header("ID")).toHaveAttribute("aria-sort", "ascending");
    await expect(sort).toHaveValue("id");
    await expect
      .poll(async () => {
        const ids = await shownIds(page);
        return ids.length > 1 && ids.every((id, index) => index === 0 || ids[index - 1] < id);
      })
      .toBe(true);

    // The select moves the headers too, and a reload keeps both.
    await sort.focus();
    await page.keyboard.press("Home"); // Newest first
    await expect(page).not.toHaveURL(/sort=/);
    await expect(header("ID")).toHaveAttribute("aria-sort", "descending");
    await page.reload();
    await expect(header("ID")).toHaveAttribute("aria-sort", "descending");
    await expect(page.getByLabel("Sort by")).toHaveValue("-id");
  });

  test("keyboard only: the Status and Category headers sort, pressed again reverse, as /v1 orders them", async ({
    page,
  }) => {
    const sort = page.getByLabel("Sort by");
    const header = (name: string) => page.getByRole("columnheader", { name, exact: true });
    const button = (name: string) => header(name).getByRole("button");
    /** The ids of /v1's first page in this order, as many as the catalogue shows. */
    const apiIds = async (order: string) => {
      const response = await page.request.get(`/v1/pets?limit=20&sort=${order}`, {
        headers: { Authorization: `Bearer ${adminApiKey()}` },
      });
      expect(response.status()).toBe(200);
      return ((await response.json()) as { id: number }[]).map((pet) => BigInt(pet.id));
    };

    for (const [name, order] of [
      ["Status", "status"],
      ["Category", "category"],
    ] as const) {
      await tabTo(page, button(name));
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(new RegExp(`[?&]sort=${order}(&|$)`));
      await expect(header(name)).toHaveAttribute("aria-sort", "ascending");
      await expect(header("ID")).not.toHaveAttribute("aria-sort", /./);
      await expect(sort).toHaveValue(order);
      await expect.poll(async () => (await shownIds(page)).join(",")).toBe((await apiIds(order)).join(","));

      await expect(button(name)).toBeFocused();
      await page.keyboard.press("Space");
      await expect(page).toHaveURL(new RegExp(`[?&]sort=-${order}(&|$)`));
      await expect(header(name)).toHaveAttribute("aria-sort", "descending");
      await expect(sort).toHaveValue(`-${order}`);
      await expect.poll(async () => (await shownIds(page)).join(",")).toBe((await apiIds(`-${order}`)).join(","));
    }
    // Ascending by status, the pets without one come last: the first page starts with available ones.
    await button("Status").click();
    await expect(header("Status")).toHaveAttribute("aria-sort", "ascending");
    await expect(page.getByTestId("pet-row").first().locator(CELL.status)).toContainText(/available/i);
    await expectNoAxeViolations(page, "the catalogue sorted by status");
  });

  test("each chip shows its status's count, the list says how many match, and both follow an added pet", async ({
    page,
  }) => {
    const before = await apiCounts(page);
    await expect(chip(page, "all")).toContainText(before.total.toLocaleString("en"));
    for (const status of ["available", "pending", "sold"] as const)
      await expect(chip(page, status)).toHaveText(new RegExp(`^${status}\\s*${before.byStatus[status]}$`, "i"));
    await expect(page.getByTestId("match-count")).toHaveText(`${before.total} pets`);

    await chip(page, "sold").click();
    await expect(page.getByTestId("match-count")).toHaveText(`${before.byStatus.sold} sold pets`);
    await chip(page, "all").click();

    // Added from the form: it is at the top of the list, and every count moves by one.
    const name = `Countable ${Date.now().toString(36)}`;
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Category", { exact: true }).selectOption({ label: "Fish" });
    await page.getByRole("button", { name: "Add pet" }).click();
    await expect(page.getByTestId("pet-row").first()).toContainText(name);
    await expect(chip(page, "all")).toContainText((before.total + 1).toLocaleString("en"));
    await expect(page.getByTestId("match-count")).toHaveText(`${before.total + 1} pets`);
    await expectNoAxeViolations(page, "the catalogue with counts");

    // A search: the chips count its matches, the sentence says how many match.
    const search = page.getByRole("searchbox", { name: "Search by name" });
    await search.fill(name);
    await expect(page).toHaveURL(/[?&]q=/);
    await expect(page.getByTestId("match-count")).toHaveText(`1 pet matches '${name}'`);
    await expect(chip(page, "all")).toHaveText(/^all\s*1$/i);
    await expect(chip(page, "sold")).toHaveText(/^sold\s*0$/i);
    const id = (await shownIds(page))[0];

    const removed = await page.request.delete(`/v1/pets/${id}`, {
      headers: { Authorization: `Bearer ${adminApiKey()}` },
    });
    expect(removed.status()).toBe(204);
    await page.goto("/admin");
    await expect(page.getByTestId("match-count")).toHaveText(`${before.total} pets`);
  });

  test("the match line never shows a new search with the last search's count", async ({ page }) => {
    const before = await apiCounts(page);
    await expect(page.getByTestId("match-count")).toHaveText(`${before.total} pets`);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/admin\/api\/pets\/counts\?.*q=/, async (route) => {
      await held;
      await route.continue();
    });
    const query = "Bis";
    await page.getByRole("searchbox", { name: "Search by name" }).fill(query);
    await expect(page).toHaveURL(/[?&]q=Bis/);
    // Counted for no search, the last count is not said of this one: the line waits for its own.
    await expect(page.getByTestId("match-count")).toHaveText(`Searching for '${query}'…`);
    await expect(page.getByTestId("match-count")).not.toContainText(String(before.total));
    release();
    const matches = (await apiCounts(page, query)).total;
    await expect(page.getByTestId("match-count")).toHaveText(
      `${matches} ${matches === 1 ? "pet matches" : "pets match"} '${query}'`,
    );
  });

  test("at phone width the sort and the chips stay usable by keyboard and 44 px tall", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    const sort = page.getByLabel("Sort by");
    await sort.focus();
    await page.keyboard.press("End"); // the last choice, Category, highest number first
    await expect(page).toHaveURL(/[?&]sort=-category(&|$)/);
    for (const control of [sort, chip(page, "all"), chip(page, "sold")]) {
      const box = (await control.boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(44);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    await expectNoAxeViolations(page, "the catalogue at 390 px");
  });
});
