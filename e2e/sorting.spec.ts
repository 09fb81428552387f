import type { Page } from "@playwright/test";
import { adminApiKey, expect, shownIds, signIn, test, expectNoAxeViolations } from "./support";

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
  return page.getByTestId("pet-row").locator("td:nth-child(2)").allInnerTexts();
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

  test("at phone width the sort and the chips stay usable by keyboard and 44 px tall", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    const sort = page.getByLabel("Sort by");
    await sort.focus();
    await page.keyboard.press("End"); // the last choice, Name Z–A
    await expect(page).toHaveURL(/[?&]sort=-name(&|$)/);
    for (const control of [sort, chip(page, "all"), chip(page, "sold")]) {
      const box = (await control.boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(44);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    await expectNoAxeViolations(page, "the catalogue at 390 px");
  });
});
