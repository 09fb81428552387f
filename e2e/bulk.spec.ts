import fs from "node:fs/promises";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { adminApiKey, CELL, expect, expectNoAxeViolations, signIn, tabTo, test } from "./support";

// Bulk actions on the catalogue (issue 24 item 1): select rows (one by one, a Shift range, the page, every pet
// matching), then set status, delete with Undo, and a batch an open order refuses, told by name with nothing
// changed; by keyboard alone, and axe-clean light and dark on a desktop and at 390 px. Every pet here is made here
// under a name of its own, and each test shows only its pets (a search), so the demo catalogue stays as it is.

let made = 0;
/** A name stem no other pet has: the test's search. */
function uniqueStem(stem: string): string {
  made += 1;
  return `${stem}${Date.now().toString(36)}${made}`;
}

const v1 = () => ({ Authorization: `Bearer ${adminApiKey()}` });

type Made = { id: string; name: string };

/** Makes `count` available pets named "<stem> 01", "<stem> 02"… (sorted by name, they are in that order). */
async function makePets(request: APIRequestContext, stem: string, count: number): Promise<Made[]> {
  const pets: Made[] = [];
  for (let index = 1; index <= count; index++) {
    const name = `${stem} ${String(index).padStart(2, "0")}`;
    const response = await request.post("/v1/pets", {
      headers: v1(),
      data: { name, categoryId: 2, status: "available" },
    });
    expect(response.status()).toBe(201);
    pets.push({ id: /"id":(\d+)/.exec(await response.text())![1], name });
  }
  return pets;
}

/** A pet's status as /v1 reads it; "gone" for a deleted pet. */
async function statusOf(request: APIRequestContext, pet: Made): Promise<string | undefined> {
  const response = await request.get(`/v1/pets/${pet.id}`, { headers: v1() });
  if (response.status() === 404) return "gone";
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { status?: string }).status;
}

async function statusesOf(request: APIRequestContext, pets: Made[]): Promise<(string | undefined)[]> {
  return Promise.all(pets.map((pet) => statusOf(request, pet)));
}

/** The catalogue showing only the pets of `stem`, by name. */
/** Three pets named after `stem`, the second held by an open order placed through /v1. */
async function threeWithTheSecondHeld(request: APIRequestContext, stem: string): Promise<Made[]> {
  const pets = await makePets(request, stem, 3);
  const order = await request.post("/v1/store/orders", {
    headers: { ...v1(), "Content-Type": "application/json" },
    data: `{"petId":${pets[1].id},"customerName":"Ada Bulk"}`,
  });
  expect(order.status(), await order.text()).toBe(201);
  return pets;
}

async function openStem(page: Page, stem: string): Promise<void> {
  await signIn(page, `/admin?q=${encodeURIComponent(stem)}&sort=name`);
  await expect(page.getByTestId("match-count")).toContainText(`match '${stem}'`);
}

const box = (page: Page, pet: Made): Locator => page.getByRole("checkbox", { name: `Select ${pet.name}`, exact: true });
const bar = (page: Page) => page.getByRole("region", { name: "Selected pets" });
const statusButton = (page: Page, status: string) =>
  bar(page).getByRole("group", { name: "Set status" }).getByRole("button", { name: status, exact: true });

test.describe("bulk actions", () => {
  test("by keyboard alone: select two rows, set them sold, then Alt+Z undoes it", async ({ page, request }) => {
    const stem = uniqueStem("Kbdbulk");
    const pets = await makePets(request, stem, 3);
    await openStem(page, stem);
    await expect(page.getByTestId("pet-row")).toHaveCount(3);

    await tabTo(page, box(page, pets[0]));
    await page.keyboard.press("Space");
    await tabTo(page, box(page, pets[2]));
    await page.keyboard.press("Space");
    await expect(bar(page)).toContainText("2 selected");
    await expect(box(page, pets[1])).not.toBeChecked();

    // The bar is above the table: Shift+Tab back to it.
    const sold = statusButton(page, "Sold");
    for (let presses = 0; presses < 30; presses++) {
      if (await sold.evaluate((element) => element === document.activeElement)) break;
      await page.keyboard.press("Shift+Tab");
    }
    await expect(sold).toBeFocused();
    await page.keyboard.press("Enter");

    await expect(page.getByTestId("notification").filter({ hasText: "Set 2 pets to sold." })).toBeVisible();
    const rowStatus = (pet: Made) => page.getByTestId("pet-row").filter({ hasText: pet.name }).locator(CELL.status);
    await expect(rowStatus(pets[0])).toHaveText("sold");
    await expect(rowStatus(pets[1])).toHaveText("available");
    await expect(rowStatus(pets[2])).toHaveText("sold");
    expect(await statusesOf(request, pets)).toEqual(["sold", "available", "sold"]);
    await expect(bar(page)).toHaveCount(0);
    // The focus did not fall to <body> when the bar left.
    expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe("BODY");

    await page.keyboard.press("Alt+z");
    await expect(page.getByTestId("notification").filter({ hasText: "Undone: 2 pets changed back." })).toBeVisible();
    expect(await statusesOf(request, pets)).toEqual(["available", "available", "available"]);
    await expect(rowStatus(pets[2])).toHaveText("available");
  });

  test("Shift with a click or with Space selects a range, and unselects one", async ({ page, request }) => {
    const stem = uniqueStem("Rangebulk");
    const pets = await makePets(request, stem, 5);
    await openStem(page, stem);

    await box(page, pets[0]).click();
    await box(page, pets[3]).click({ modifiers: ["Shift"] });
    const checked = async () => Promise.all(pets.map((pet) => box(page, pet).isChecked()));
    expect(await checked()).toEqual([true, true, true, true, false]);
    await expect(bar(page)).toContainText("4 selected");
    await expect(page.getByRole("checkbox", { name: "Select all on this page" })).toHaveJSProperty(
      "indeterminate",
      true,
    );

    await box(page, pets[4]).focus();
    await page.keyboard.press("Shift+Space");
    expect(await checked()).toEqual([true, true, true, true, true]);
    await expect(page.getByRole("checkbox", { name: "Select all on this page" })).toBeChecked();

    await box(page, pets[1]).click({ modifiers: ["Shift"] });
    expect(await checked()).toEqual([true, false, false, false, false]);
    await expect(bar(page)).toContainText("1 selected");
  });

  test("select all matching beyond the page, confirmed with the count", async ({ page, request }) => {
    test.slow();
    const stem = uniqueStem("Allbulk");
    const pets = await makePets(request, stem, 23);
    await openStem(page, stem);
    await expect(page.getByTestId("pet-row")).toHaveCount(20);

    await page.getByRole("checkbox", { name: "Select all on this page" }).check();
    await expect(bar(page)).toContainText("20 selected");
    await bar(page).getByRole("button", { name: "Select all 23 matching" }).click();
    await expect(bar(page)).toContainText("23 selected");
    await expect(bar(page)).toContainText("All 23 matching pets are selected.");

    await statusButton(page, "Sold").click();
    const dialog = page.getByRole("dialog", { name: "Set 23 pets to sold?" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("3 of them are not on this page.");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    expect(new Set(await statusesOf(request, pets))).toEqual(new Set(["available"]));

    await statusButton(page, "Sold").click();
    await dialog.getByRole("button", { name: "Set 23 pets to sold" }).click();
    await expect(page.getByTestId("notification").filter({ hasText: "Set 23 pets to sold." })).toBeVisible();
    expect(new Set(await statusesOf(request, pets))).toEqual(new Set(["sold"]));
  });

  test("Clear while every matching pet is being selected cancels it: nothing stays selected", async ({
    page,
    request,
  }) => {
    test.slow();
    const stem = uniqueStem("Cancelbulk");
    await makePets(request, stem, 23);
    await openStem(page, stem);
    // The collection reads 100 at a time; slowed, so "Selecting…" lasts long enough to press Clear.
    let released = false;
    await page.route(/\/admin\/api\/pets\?.*limit=100/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      released = true;
      await route.continue();
    });

    await page.getByRole("checkbox", { name: "Select all on this page" }).check();
    await bar(page).getByRole("button", { name: "Select all 23 matching" }).click();
    await expect(bar(page)).toContainText("Selecting…");
    await expect(statusButton(page, "Sold")).toHaveAttribute("aria-disabled", "true");
    await expect(bar(page).getByRole("button", { name: "Delete…" })).toHaveAttribute("aria-disabled", "true");
    await bar(page).getByRole("button", { name: "Clear selection" }).click();
    await expect(bar(page)).toHaveCount(0);
    await expect.poll(() => released).toBe(true);
    // The read came back after Clear: it selects nothing.
    await page.waitForTimeout(500);
    await expect(bar(page)).toHaveCount(0);
    await expect(page.getByRole("checkbox", { name: "Select all on this page" })).not.toBeChecked();
  });

  test("a failed read while selecting every matching pet is told in words", async ({ page, request }) => {
    const stem = uniqueStem("Failbulk");
    await makePets(request, stem, 21);
    await openStem(page, stem);
    await page.route(/\/admin\/api\/pets\?.*limit=100/, (route) =>
      route.fulfill({
        status: 429,
        headers: { "Content-Type": "application/json", "Retry-After": "30" },
        body: JSON.stringify({ code: "rate_limited", message: "Too many requests." }),
      }),
    );
    await page.getByRole("checkbox", { name: "Select all on this page" }).check();
    await bar(page).getByRole("button", { name: "Select all 21 matching" }).click();
    await expect(page.getByTestId("select-all-failure")).toContainText("Could not select every matching pet");
    await expect(bar(page)).toContainText("20 selected");
  });

  test("the selection survives paging and is cleared by a new filter", async ({ page, request }) => {
    const stem = uniqueStem("Pagebulk");
    const pets = await makePets(request, stem, 22);
    await openStem(page, stem);
    await box(page, pets[0]).check();
    await page.getByRole("link", { name: /Next/ }).first().click();
    await expect(box(page, pets[21])).toBeVisible();
    await box(page, pets[21]).check();
    await expect(bar(page)).toContainText("2 selected");
    await page.getByTestId("status-chip-sold").click();
    await expect(bar(page)).toHaveCount(0);
  });

  test("a bulk delete is confirmed with the count, and Undo brings every pet back", async ({ page, request }) => {
    const stem = uniqueStem("Delbulk");
    const pets = await makePets(request, stem, 3);
    await openStem(page, stem);

    await page.getByRole("checkbox", { name: "Select all on this page" }).check();
    await bar(page).getByRole("button", { name: "Delete…" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete 3 pets?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Delete 3 pets" }).click();
    const deleted = page.getByTestId("notification").filter({ hasText: "Deleted 3 pets." });
    await expect(deleted).toBeVisible();
    await expect(page.getByTestId("empty-state")).toBeVisible();
    expect(await statusesOf(request, pets)).toEqual(["gone", "gone", "gone"]);

    await deleted.getByRole("button", { name: /^Undo/ }).click();
    await expect(page.getByTestId("notification").filter({ hasText: "Restored 3 pets." })).toBeVisible();
    await expect(page.getByTestId("pet-row")).toHaveCount(3);
    expect(await statusesOf(request, pets)).toEqual(["available", "available", "available"]);
  });

  test("a pet an open order holds: the refusal names it, nothing changes, and the rest can go on", async ({
    page,
    request,
  }) => {
    const stem = uniqueStem("Heldbulk");
    const pets = await threeWithTheSecondHeld(request, stem);
    await openStem(page, stem);

    await page.getByRole("checkbox", { name: "Select all on this page" }).check();
    await statusButton(page, "Sold").click();
    const refusal = page.getByTestId("bulk-refusal");
    await expect(refusal).toHaveText(
      `Nothing was changed. An open order holds ${pets[1].name}: it cannot change status until the order ends.`,
    );
    expect(await statusesOf(request, pets)).toEqual(["available", "pending", "available"]);
    await expect(bar(page)).toContainText("2 selected");
    await expect(box(page, pets[1])).not.toBeChecked();

    await page.getByRole("button", { name: "Apply to the other 2" }).click();
    await expect(page.getByTestId("notification").filter({ hasText: "Set 2 pets to sold." })).toBeVisible();
    expect(await statusesOf(request, pets)).toEqual(["sold", "pending", "sold"]);
  });

  test("after a refusal, an edit of the selection withdraws the offer: the unticked pet is not changed", async ({
    page,
    request,
  }) => {
    const stem = uniqueStem("Editbulk");
    const pets = await threeWithTheSecondHeld(request, stem);
    await openStem(page, stem);

    await page.getByRole("checkbox", { name: "Select all on this page" }).check();
    await bar(page).getByRole("button", { name: "Delete…" }).click();
    await page.getByRole("dialog", { name: "Delete 3 pets?" }).getByRole("button", { name: "Delete 3 pets" }).click();
    await expect(page.getByTestId("bulk-refusal")).toContainText(`An open order holds ${pets[1].name}`);
    await expect(bar(page)).toContainText("2 selected");

    await box(page, pets[2]).uncheck();
    await expect(page.getByTestId("bulk-refusal")).toHaveCount(0);
    await bar(page).getByRole("button", { name: "Delete…" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete 1 pet?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Delete 1 pet" }).click();
    await expect(page.getByTestId("notification").filter({ hasText: "Deleted 1 pet." })).toBeVisible();
    expect(await statusesOf(request, pets)).toEqual(["gone", "pending", "available"]);
  });

  test("Apply to the other N of a refused deletion asks first", async ({ page, request }) => {
    const stem = uniqueStem("Askbulk");
    const pets = await threeWithTheSecondHeld(request, stem);
    await openStem(page, stem);

    await page.getByRole("checkbox", { name: "Select all on this page" }).check();
    await bar(page).getByRole("button", { name: "Delete…" }).click();
    await page.getByRole("dialog", { name: "Delete 3 pets?" }).getByRole("button", { name: "Delete 3 pets" }).click();
    await expect(page.getByTestId("bulk-refusal")).toBeVisible();
    await page.getByRole("button", { name: "Apply to the other 2" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete 2 pets?" });
    await expect(dialog).toBeVisible();
    expect(await statusesOf(request, pets)).toEqual(["available", "pending", "available"]);
    await dialog.getByRole("button", { name: "Delete 2 pets" }).click();
    await expect(page.getByTestId("notification").filter({ hasText: "Deleted 2 pets." })).toBeVisible();
    expect(await statusesOf(request, pets)).toEqual(["gone", "pending", "gone"]);
  });

  test("Export selection downloads the selected pets as the catalogue's CSV", async ({ page, request }) => {
    const stem = uniqueStem("Csvbulk");
    const pets = await makePets(request, stem, 3);
    await openStem(page, stem);
    await box(page, pets[0]).check();
    await box(page, pets[2]).check();
    const download = page.waitForEvent("download");
    await bar(page).getByRole("button", { name: "Export selection" }).click();
    const file = await download;
    const text = await fs.readFile(await file.path(), "utf8");
    expect(text).toBe(
      "id,name,categoryId,status,category\r\n" +
        `${pets[0].id},${pets[0].name},2,available,Cats\r\n` +
        `${pets[2].id},${pets[2].name},2,available,Cats\r\n`,
    );
  });

  test("with a selection: no axe violations, light and dark", async ({ page, request }, testInfo) => {
    const stem = uniqueStem("Axebulk");
    const pets = await makePets(request, stem, 3);
    await openStem(page, stem);
    await box(page, pets[0]).check();
    await box(page, pets[1]).check();
    await expect(bar(page)).toContainText("2 selected");
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      await expectNoAxeViolations(page, `the catalogue with a selection, ${colorScheme}`);
      await page.screenshot({ path: testInfo.outputPath(`bulk-${colorScheme}.png`) });
    }
  });
});

test.describe("bulk actions at phone width", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("fits 390 px, has 44 px targets, and no axe violations light and dark", async ({ page, request }, testInfo) => {
    const stem = uniqueStem("Phonebulk");
    const pets = await makePets(request, stem, 3);
    await openStem(page, stem);
    await box(page, pets[0]).tap();
    await box(page, pets[2]).tap();
    await expect(bar(page)).toContainText("2 selected");

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const targets = [
      ...(await bar(page).getByRole("button").all()),
      bar(page).getByRole("combobox"),
      page.getByRole("checkbox", { name: "Select all on this page" }),
      box(page, pets[0]),
    ];
    for (const target of targets) {
      const size = (await target.boundingBox())!;
      const what = (await target.textContent()) || (await target.getAttribute("aria-label")) || "a target";
      expect(size.height, `${what} is at least 44 px tall`).toBeGreaterThanOrEqual(44);
      expect(size.width, `${what} is at least 44 px wide`).toBeGreaterThanOrEqual(44);
    }
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      await expectNoAxeViolations(page, `the catalogue with a selection at 390 px, ${colorScheme}`);
      await page.screenshot({ path: testInfo.outputPath(`phone-bulk-${colorScheme}.png`), fullPage: true });
    }
  });
});
