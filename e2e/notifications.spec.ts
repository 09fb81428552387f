import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { adminApiKey, expect, expectNoAxeViolations, shownIds, signIn, test } from "./support";

// Notifications, Undo, focus and announcements in the catalogue (issue 12), by keyboard: adding says so with a
// link to the pet (at the top of the newest-first list), a change and a deletion are told, Undo brings back the
// same pet, a failure carries its request id; the focus stays on the control used (or goes somewhere meaningful)
// after paging, filtering, adding, editing and deleting, and is never left on <body>; a polite live region says
// what each new view holds; the selects navigate once, not per arrow key. Pets made here go through /v1 with
// names of their own, so the demo catalogue the other specs count on stays as it is.

type MadePet = { id: string; name: string };
type Counts = { total: number; byStatus: Record<"available" | "pending" | "sold" | "none", number> };

let made = 0;
function uniqueName(stem: string): string {
  made += 1;
  return `${stem} ${Date.now().toString(36)}${made}`;
}

/** /v1's Authorization, with the admin app's key (the server's ADMIN_API_KEY). */
function v1() {
  return { Authorization: `Bearer ${adminApiKey()}` };
}

async function makePet(request: APIRequestContext, name: string, status = "available"): Promise<MadePet> {
  const response = await request.post("/v1/pets", { headers: v1(), data: { name, categoryId: 3, status } });
  expect(response.status()).toBe(201);
  return { id: String(((await response.json()) as { id: number }).id), name };
}

async function apiCounts(request: APIRequestContext): Promise<Counts> {
  const response = await request.get("/v1/pets/counts", { headers: v1() });
  expect(response.status()).toBe(200);
  return (await response.json()) as Counts;
}

function notification(page: Page, text: string): Locator {
  return page.getByTestId("notification").filter({ hasText: text });
}

function announcement(page: Page): Locator {
  return page.getByTestId("catalogue-announcement");
}

/** Presses Tab (or Shift+Tab) until `target` has the focus; fails if it is never reached. */
async function tabTo(page: Page, target: Locator, key = "Tab"): Promise<void> {
  for (let presses = 0; presses < 80; presses++) {
    await page.keyboard.press(key);
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`${target.toString()} is not reachable with ${key}`);
}

/**
 * Records, every few milliseconds from the first time something has the focus, whether the focus has fallen to
 * <body> (it never should once a control was used); `check` fails with where it happened.
 */
async function watchFocus(page: Page): Promise<{ check: () => Promise<void> }> {
  await page.evaluate(() => {
    const seen: string[] = [];
    let armed = false;
    (window as unknown as { focusOnBody: string[] }).focusOnBody = seen;
    setInterval(() => {
      const onBody = document.activeElement === document.body || document.activeElement === null;
      if (!onBody) armed = true;
      else if (armed) seen.push(location.search);
    }, 5);
  });
  return {
    check: async () =>
      expect(await page.evaluate(() => (window as unknown as { focusOnBody: string[] }).focusOnBody)).toEqual([]),
  };
}

/**
 * From the focused pet link, by keyboard alone: opens the pet, goes to Delete, and confirms (the dialog's focus
 * starts on Cancel).
 */
async function deleteByKeyboard(page: Page): Promise<void> {
  await page.keyboard.press("Enter");
  const panel = page.getByTestId("pet-panel");
  await expect(panel.getByRole("heading", { level: 2 })).toBeFocused();
  await expect(panel.getByRole("button", { name: "sold" })).toHaveAttribute("aria-disabled", "false");
  await tabTo(page, panel.getByRole("button", { name: "Delete this pet…" }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog").getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
}

async function activeLabel(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement;
    return `${element.tagName} ${element.getAttribute("aria-label") ?? element.textContent?.trim() ?? ""}`;
  });
}

test.describe("notifications and focus in the catalogue", () => {
  test.beforeEach(async ({ page }) => signIn(page));

  test("adding: focus back on Name, a notification whose link opens the pet at the top of the list", async ({
    page,
  }) => {
    await page.goto("/admin?status=sold&limit=20&q=zzz");
    const name = uniqueName("Toast");
    const focus = await watchFocus(page);
    const nameInput = page.getByLabel("Name", { exact: true });
    await tabTo(page, nameInput);
    await page.keyboard.type(name);
    await page.keyboard.press("Tab");
    // The Category select: typing a name's first letters picks it; Enter in a select submits nothing, so on to the
    // form's button.
    await page.keyboard.type("Cats");
    await tabTo(page, page.getByRole("button", { name: "Add pet" }));
    await page.keyboard.press("Enter");

    const added = notification(page, name);
    await expect(added).toContainText(new RegExp(`Added “${name}” with id \\d+\\.`));
    await expect(page.getByRole("status").filter({ has: added })).toHaveCount(1); // polite
    await expect(nameInput).toBeFocused(); // ready for the next pet
    await expect(nameInput).toHaveValue("");
    await expectNoAxeViolations(page, "a pet added, its notification shown");

    // The form's button, then the notification's link: the notifications follow the page's content.
    const link = added.getByRole("link", { name: `Open ${name}` });
    await tabTo(page, link);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/[?&]pet=\d+/);
    await expect(page).not.toHaveURL(/status=|q=|sort=/); // every pet, newest first
    const id = new URL(page.url()).searchParams.get("pet")!;
    await expect(page.getByTestId("pet-panel").getByRole("heading", { level: 2 })).toBeFocused();
    await expect.poll(async () => String((await shownIds(page))[0])).toBe(id); // the top row
    await expect(page.locator(`#pet-link-${id}`)).toHaveAttribute("aria-current", "page");
    await focus.check();

    // Escape in a notification dismisses it, and the focus goes back to the page, where it came from.
    await tabTo(page, added.getByRole("button", { name: /^Dismiss/ }));
    await page.keyboard.press("Escape");
    await expect(added).toHaveCount(0);
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest("main")))).toBe(true);
    const removed = await page.request.delete(`/v1/pets/${id}`, { headers: v1() });
    expect(removed.status()).toBe(204);
  });

  test("editing: a notification, and the focus stays on the control used", async ({ page, request }) => {
    const pet = await makePet(request, uniqueName("Edited"));
    await page.goto(`/admin?limit=20&q=${encodeURIComponent(pet.name)}&pet=${pet.id}`);
    const panel = page.getByTestId("pet-panel");
    const sold = panel.getByRole("group", { name: "Set the status" }).getByRole("button", { name: "sold" });
    await expect(sold).toHaveAttribute("aria-disabled", "false");
    const focus = await watchFocus(page);
    await tabTo(page, sold);
    await page.keyboard.press("Space");
    const told = notification(page, `(#${pet.id})`);
    await expect(told).toContainText(`${pet.name} (#${pet.id}): status set to sold.`);
    await expect(sold).toBeFocused();

    const save = panel.getByRole("button", { name: "Save changes" });
    await tabTo(page, panel.getByLabel("Name", { exact: true }));
    await page.keyboard.press("End");
    await page.keyboard.type(" II");
    await tabTo(page, save);
    await page.keyboard.press("Enter");
    // The same pet's notification is replaced, not stacked.
    await expect(told).toContainText(`${pet.name} II (#${pet.id}): changes saved.`);
    await expect(notification(page, `(#${pet.id})`)).toHaveCount(1);
    await expect(save).toBeFocused();
    await expectNoAxeViolations(page, "a change saved, its notification shown");
    await focus.check();
  });

  test("deleting: the focus goes to the next row; Undo brings back the same pet, counted again", async ({
    page,
    request,
  }) => {
    const stem = uniqueName("Undone");
    // Newest first: `top`, made second, is the first row; `below` the second.
    const below = await makePet(request, `${stem} below`, "pending");
    const top = await makePet(request, `${stem} top`, "pending");
    await page.goto(`/admin?limit=20&q=${encodeURIComponent(stem)}`);
    await expect(page.getByTestId("pet-row")).toHaveCount(2);
    const before = await apiCounts(request);
    const focus = await watchFocus(page);

    await tabTo(page, page.locator(`#pet-link-${top.id}`));
    await deleteByKeyboard(page);

    const deleted = notification(page, `Deleted ${top.name} (#${top.id}).`);
    await expect(deleted).toBeVisible();
    await expect(page.locator(`#pet-link-${below.id}`)).toBeFocused(); // the row that took its place
    await expect(page.locator(`#pet-link-${top.id}`)).toHaveCount(0);
    await expect.poll(async () => (await apiCounts(request)).byStatus.pending).toBe(before.byStatus.pending - 1);
    await expectNoAxeViolations(page, "a deletion, its notification with Undo shown");

    const undo = deleted.getByRole("button", { name: "Undo", exact: true });
    await tabTo(page, undo);
    await page.keyboard.press("Enter");
    const restored = notification(page, `Restored ${top.name} (#${top.id}).`);
    await expect(restored).toBeVisible();
    await expect(page.locator(`#pet-link-${top.id}`)).toBeFocused(); // back in its row
    const read = await request.get(`/v1/pets/${top.id}`, { headers: v1() });
    expect(await read.json()).toEqual({ id: Number(top.id), name: top.name, categoryId: 3, status: "pending" });
    expect(await apiCounts(request)).toEqual(before);
    await expect(page.getByTestId("pet-row")).toHaveCount(2);
    await focus.check();
    for (const each of [below, top]) await request.delete(`/v1/pets/${each.id}`, { headers: v1() });
  });

  test("a deletion's Undo has no timer: the next Tab reaches it, Alt+Z runs it, past the minute it says so", async ({
    page,
    request,
  }) => {
    await page.clock.install(); // time runs as usual, and the test can jump it ahead
    const stem = uniqueName("Lingering");
    const pets = [await makePet(request, `${stem} one`), await makePet(request, `${stem} two`)];
    await page.goto(`/admin?limit=20&q=${encodeURIComponent(stem)}`);
    const remove = async (pet: MadePet) => {
      await page.locator(`#pet-link-${pet.id}`).click();
      const panel = page.getByTestId("pet-panel");
      await expect(panel.getByRole("button", { name: "sold" })).toHaveAttribute("aria-disabled", "false");
      await panel.getByRole("button", { name: "Delete this pet…" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Delete", exact: true }).click();
      const deleted = notification(page, `Deleted ${pet.name} (#${pet.id}).`);
      await expect(deleted).toBeVisible();
      return deleted;
    };
    const undoOf = (deleted: Locator) => deleted.getByRole("button", { name: "Undo", exact: true });

    const older = await remove(pets[0]);
    await page.clock.fastForward(30_000); // five times a success's time on screen
    await expect(undoOf(older)).toHaveAttribute("aria-disabled", "false");
    const newer = await remove(pets[1]);
    await expect(undoOf(newer)).toHaveAttribute("aria-keyshortcuts", "Alt+Z");
    await page.keyboard.press("Tab"); // from the row that took the pet's place, straight to its Undo
    await expect(undoOf(newer)).toBeFocused();
    await page.keyboard.press("Shift+Tab"); // away again: Alt+Z works from anywhere outside a text field
    await expect(undoOf(newer)).not.toBeFocused();
    await page.keyboard.press("z"); // a letter alone runs nothing (WCAG 2.1.4)
    await expect(undoOf(newer)).toBeVisible();
    await page.keyboard.press("Alt+KeyZ"); // the newest Undo
    await expect(notification(page, `Restored ${pets[1].name} (#${pets[1].id}).`)).toBeVisible();
    expect((await request.get(`/v1/pets/${pets[1].id}`, { headers: v1() })).status()).toBe(200);
    await expect(page.locator(`#pet-link-${pets[1].id}`)).toBeFocused();
    await page.keyboard.press("Tab"); // the older Undo was not armed again: Tab goes its usual way
    await expect(undoOf(older)).not.toBeFocused();

    // Past the server's minute the older one says it is too late, and does nothing; the notification stays.
    await page.clock.fastForward(30_000);
    const late = older.getByRole("button", { name: "Too late to undo" });
    await expect(late).toHaveAttribute("aria-disabled", "true");
    await late.focus();
    await page.keyboard.press("Enter");
    await expect(older).toBeVisible();
    expect((await request.get(`/v1/pets/${pets[0].id}`, { headers: v1() })).status()).toBe(404);
    await expectNoAxeViolations(page, "a deletion whose Undo is too late");
    await older.getByRole("button", { name: /^Dismiss/ }).click();
    await expect(older).toHaveCount(0);
    await request.delete(`/v1/pets/${pets[1].id}`, { headers: v1() });
  });

  test("a 100-row page, by keyboard alone: after a delete the next Tab is Undo; Enter brings the pet back", async ({
    page,
    request,
  }) => {
    const stem = uniqueName("Hundred");
    const pets: MadePet[] = [];
    for (let start = 0; start < 100; start += 20) {
      const batch = Array.from({ length: 20 }, (_, index) => makePet(request, `${stem} ${start + index + 1}`));
      pets.push(...(await Promise.all(batch)));
    }
    await page.goto(`/admin?limit=100&q=${encodeURIComponent(stem)}`);
    await expect(page.getByTestId("pet-row")).toHaveCount(100);
    // A pet far down the page: the rows above it are no shorter a way to its Undo.
    const shownOrder = (await shownIds(page)).map(String);
    const target = pets.find((pet) => pet.id === shownOrder[79])!;
    await page.locator(`#pet-link-${target.id}`).focus();
    await deleteByKeyboard(page);

    const deleted = notification(page, `Deleted ${target.name} (#${target.id}).`);
    await expect(deleted).toBeVisible();
    await expect(page.getByTestId("pet-row")).toHaveCount(99);
    await page.keyboard.press("Tab");
    await expect(deleted.getByRole("button", { name: "Undo", exact: true })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(notification(page, `Restored ${target.name} (#${target.id}).`)).toBeVisible();
    await expect(page.getByTestId("pet-row")).toHaveCount(100);
    expect((await request.get(`/v1/pets/${target.id}`, { headers: v1() })).status()).toBe(200);
    await expect(page.locator(`#pet-link-${target.id}`)).toBeFocused();
    for (const pet of pets) await request.delete(`/v1/pets/${pet.id}`, { headers: v1() });
  });

  test("a failed action: a pet deleted meanwhile through /v1 is told as an alert with the request id", async ({
    page,
    request,
  }) => {
    const pet = await makePet(request, uniqueName("Vanished"));
    // The live stream held back (a dropped connection), so that the panel still offers Delete for a pet the server
    // no longer has: with it, the panel would learn of the deletion first (e2e/live.spec.ts).
    await page.route(/\/admin\/api\/events(\?|$)/, (route) => route.abort());
    await page.goto(`/admin?limit=20&q=${encodeURIComponent(pet.name)}&pet=${pet.id}`);
    const panel = page.getByTestId("pet-panel");
    await expect(panel.getByRole("button", { name: "sold" })).toHaveAttribute("aria-disabled", "false");
    expect((await request.delete(`/v1/pets/${pet.id}`, { headers: v1() })).status()).toBe(204);
    const focus = await watchFocus(page);

    await tabTo(page, panel.getByRole("button", { name: "Delete this pet…" }));
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    const answer = page.waitForResponse((response) => response.request().method() === "DELETE");
    await page.keyboard.press("Enter");
    const requestId = (await answer).headers()["x-request-id"];
    expect(requestId).toMatch(/^admin-[0-9a-f]{32}$/);

    const failed = notification(page, "no longer in the catalogue");
    await expect(page.getByRole("alert").filter({ has: failed })).toHaveCount(1); // assertive
    await expect(failed).toContainText(`${pet.name} (#${pet.id}) is no longer in the catalogue`);
    await expect(failed.getByTestId("notification-request-id")).toHaveText(requestId);
    await expect(page.getByRole("heading", { name: "Catalogue", level: 1 })).toBeFocused(); // no row left
    await expectNoAxeViolations(page, "a failure, its notification shown");

    // It stays until dismissed (no timer), and can be dismissed by keyboard.
    await page.waitForTimeout(6_500);
    await expect(failed).toBeVisible();
    await tabTo(page, failed.getByRole("button", { name: /^Dismiss/ }));
    await page.keyboard.press("Enter");
    await expect(failed).toHaveCount(0);
    expect(await activeLabel(page)).not.toBe("BODY ");
    await focus.check();
  });

  test("a success leaves after a few seconds, but not while the pointer is over it", async ({ page, request }) => {
    const pet = await makePet(request, uniqueName("Paused"));
    await page.goto(`/admin?limit=20&q=${encodeURIComponent(pet.name)}&pet=${pet.id}`);
    const panel = page.getByTestId("pet-panel");
    const sold = panel.getByRole("button", { name: "sold" });
    await expect(sold).toHaveAttribute("aria-disabled", "false");
    await sold.click();
    const told = notification(page, `(#${pet.id})`);
    await told.hover();
    await page.waitForTimeout(7_000);
    await expect(told).toBeVisible(); // paused while hovered
    await page.mouse.move(0, 0);
    await expect(told).toHaveCount(0, { timeout: 9_000 });
    await request.delete(`/v1/pets/${pet.id}`, { headers: v1() });
  });
});

test.describe("paging, filtering and the selects by keyboard", () => {
  test.beforeEach(async ({ page }) => signIn(page));

  test("paging keeps the focus on the link pressed while the page loads, and the region says which page", async ({
    page,
  }) => {
    await expect(announcement(page)).toHaveText(""); // nothing on the first load
    const focus = await watchFocus(page);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/admin\/api\/pets\?.*cursor=/, async (route) => {
      await held;
      await route.continue();
    });
    const next = page.getByRole("link", { name: "Next" });
    await tabTo(page, next);
    await page.keyboard.press("Enter");
    await expect(page.getByText("Loading…")).toBeVisible();
    await expect(next).toBeFocused(); // the same element, unavailable while the page loads
    await expect(next).toHaveAttribute("aria-disabled", "true");
    release();
    await expect(page.getByText("Page 2", { exact: true })).toBeVisible();
    await expect(announcement(page)).toHaveText("Page 2 of the pets");
    await expect(next).toBeFocused();
    // The last page's Next goes nowhere, and keeps the focus, unavailable. The demo catalogue has two pages of
    // 20, but the specs that run before this one add pets to it: the last page is found by paging on.
    let pages = 2;
    while ((await next.getAttribute("aria-disabled")) !== "true" && pages < 20) {
      await page.keyboard.press("Enter");
      pages++;
      await expect(announcement(page)).toHaveText(`Page ${pages} of the pets`);
      await expect(next).toBeFocused();
    }
    await expect(next).toHaveAttribute("aria-disabled", "true");
    await expectNoAxeViolations(page, "the last page, reached by keyboard");

    const previous = page.getByRole("link", { name: "Previous" });
    await page.keyboard.press("Shift+Tab");
    await expect(previous).toBeFocused();
    for (let shown = pages - 1; shown >= 1; shown--) {
      await page.keyboard.press("Enter");
      await expect(announcement(page)).toHaveText(`Page ${shown} of the pets`);
      await expect(previous).toBeFocused();
    }
    await expect(page).not.toHaveURL(/cursors=/);
    // On the first page Previous goes nowhere: it keeps the focus, marked unavailable.
    await expect(previous).toBeFocused();
    await expect(previous).toHaveAttribute("aria-disabled", "true");
    await focus.check();
  });

  test("a status chip keeps the focus, and the live region says what the new view holds", async ({ page, request }) => {
    const counts = await apiCounts(request);
    const focus = await watchFocus(page);
    const sold = page.getByTestId("status-chip-sold");
    await tabTo(page, sold);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/[?&]status=sold(&|$)/);
    await expect(announcement(page)).toHaveText(`${counts.byStatus.sold} sold pets`);
    await expect(sold).toBeFocused();
    await expect(announcement(page)).toHaveAttribute("role", "status");
    await expectNoAxeViolations(page, "filtered by keyboard");

    const all = page.getByTestId("status-chip-all");
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Shift+Tab");
    await expect(all).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(announcement(page)).toHaveText(`${counts.total} pets`);
    await expect(all).toBeFocused();

    const search = page.getByRole("searchbox", { name: "Search by name" });
    await page.keyboard.press("Shift+Tab");
    await expect(search).toBeFocused();
    await page.keyboard.type("bis");
    await expect(page).toHaveURL(/[?&]q=bis/);
    await expect(announcement(page)).toHaveText(/^(\d+ pets? match(es)? 'bis'|More than .*)$/);
    await expect(search).toBeFocused();
    await focus.check();
  });

  test("arrow keys through the page-size and sort selects make one navigation in the end", async ({
    page,
    request,
  }) => {
    const { total } = await apiCounts(request);
    const focus = await watchFocus(page);
    const size = page.getByLabel("Pets per page");
    const startLength = await page.evaluate(() => history.length);
    await tabTo(page, size);
    for (let press = 0; press < 3; press++) await page.keyboard.press("ArrowDown");
    await expect(size).toHaveValue("100");
    await expect(page).toHaveURL(/[?&]limit=100(&|$)/);
    await expect(page.getByTestId("pet-row")).toHaveCount(Math.min(total, 100));
    expect(await page.evaluate(() => history.length)).toBeLessThanOrEqual(startLength + 1);
    await expect(announcement(page)).toHaveText(/^[\d,]+ pets, 100 per page$/);
    await expect(size).toBeFocused();

    const sort = page.getByLabel("Sort by");
    await page.keyboard.press("Shift+Tab");
    await expect(sort).toBeFocused();
    const sortLength = await page.evaluate(() => history.length);
    for (let press = 0; press < 3; press++) await page.keyboard.press("ArrowDown");
    await expect(page).toHaveURL(/[?&]sort=-name(&|$)/);
    expect(await page.evaluate(() => history.length)).toBeLessThanOrEqual(sortLength + 1);
    await expect(announcement(page)).toHaveText(/^[\d,]+ pets, by name, Z to A$/);
    await expect(sort).toBeFocused();
    await expectNoAxeViolations(page, "after the selects, by keyboard");

    // Back undoes the sort as one step.
    await page.goBack();
    await expect(page).not.toHaveURL(/sort=/);
    await expect(sort).toHaveValue("-id");
    await focus.check();
  });
});

test.describe("notifications at phone width", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("a notification fits 390 px, its controls are 44 px tall, and it has no axe violations", async ({ page }) => {
    await signIn(page);
    const name = uniqueName("Pocket");
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Category", { exact: true }).selectOption({ label: "Small mammals" });
    await page.getByRole("button", { name: "Add pet" }).tap();
    const added = notification(page, name);
    await expect(added).toBeVisible();
    // The focus in it stops its time (as a finger resting on a real screen cannot): it stays for every check below.
    await added.getByRole("button", { name: /^Dismiss/ }).focus();
    const box = (await added.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    for (const control of [added.getByRole("link"), added.getByRole("button", { name: /^Dismiss/ })])
      expect((await control.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page, "a notification at 390 px");
    const id = /with id (\d+)/.exec(await added.innerText())![1];
    await added.getByRole("button", { name: /^Dismiss/ }).tap();
    await expect(added).toHaveCount(0);
    await page.request.delete(`/v1/pets/${id}`, { headers: v1() });
  });
});
