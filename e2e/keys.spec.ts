import type { Locator, Page } from "@playwright/test";
import { E2E_ADMIN } from "./staff-account";
import { E2E_STAFF, expect, expectNoAxeViolations, signInAs, test } from "./support";

// The API keys page in Chromium: an admin creates a key (shown once, copied, its curl line tried), revokes it
// after a confirmation naming it, and finds both in the activity log; by keyboard alone; at 390 px; axe clean.
// A staff member who is not an admin gets the 403 page.

const KEY_SHAPE = /^ask_[A-Za-z0-9_-]{32}$/;

const uniqueName = (base: string) => `${base} ${Date.now().toString(36)}`;

const keyItem = (page: Page, name: string) =>
  page.getByRole("listitem").filter({ has: page.getByRole("heading", { name, exact: true }) });

async function createKeyNamed(page: Page, name: string): Promise<string> {
  await page.getByLabel("Name of the new key").fill(name);
  await page.getByRole("button", { name: "Create key" }).click();
  const panel = page.getByRole("region", { name: `New key “${name}”` });
  await expect(panel).toBeVisible();
  const key = await panel.getByLabel("API key", { exact: true }).inputValue();
  expect(key).toMatch(KEY_SHAPE);
  return key;
}

/** Presses Tab until `target` has the focus; fails if it is never reached. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let presses = 0; presses < 60; presses++) {
    await page.keyboard.press("Tab");
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`${target.toString()} is not reachable with Tab`);
}

test.describe("the API keys page", () => {
  test("an admin creates a key, sees it once, copies it, tries its curl line, and revokes it", async ({
    page,
    context,
    request,
    baseURL,
  }, testInfo) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await signInAs(page, E2E_ADMIN, "/admin/keys");
    await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
    await expect(page.getByRole("link", { name: "API keys" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByText("goes away on 5 December 2030")).toBeVisible();
    const own = page.getByRole("listitem").filter({ hasText: "Used by the admin app" });
    await expect(own.first()).toBeVisible();
    await expect(own.first().getByRole("button", { name: /Revoke/ })).toHaveCount(0);
    await expectNoAxeViolations(page, "the keys page");

    const name = uniqueName("shop website");
    const key = await createKeyNamed(page, name);
    const panel = page.getByRole("region", { name: `New key “${name}”` });
    await expect(panel).toContainText("shown only this once");
    await panel.getByRole("button", { name: "Copy API key" }).click();
    await expect(panel.getByRole("status").first()).toHaveText("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

    const curl = await panel.getByLabel("Try it with curl").inputValue();
    const match = /^curl -H "Authorization: Bearer (ask_[A-Za-z0-9_-]{32})" (http:\/\/[^\s]+\/v1\/pets)$/.exec(curl);
    expect(match, curl).not.toBeNull();
    expect(match![1]).toBe(key);
    expect(new URL(match![2]).origin).toBe(new URL(baseURL!).origin);
    const tried = await request.get(match![2], { headers: { Authorization: `Bearer ${match![1]}` } });
    expect(tried.status()).toBe(200);
    await expectNoAxeViolations(page, "the new key's panel");
    await page.screenshot({ path: testInfo.outputPath("new-key-panel.png"), fullPage: true });

    await panel.getByRole("button", { name: "I have copied it" }).click();
    await expect(panel).toHaveCount(0);
    // The panel has gone: the focus is on the new key's name in the list, not lost to the page's body.
    await expect(keyItem(page, name).getByRole("heading", { name, exact: true })).toBeFocused();
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("H3");
    expect(await page.content()).not.toContain(key.slice(4));
    await page.reload();
    await expect(keyItem(page, name)).toContainText("Active");
    expect(await page.content()).not.toContain(key.slice(4));
    await expect(keyItem(page, name)).toContainText(`by ${E2E_ADMIN.email}`);
    await expect(keyItem(page, name)).toContainText(key.slice(0, 12));

    await keyItem(page, name)
      .getByRole("button", { name: `Revoke “${name}”` })
      .click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("heading")).toHaveText(`Revoke “${name}” (${key.slice(0, 12)}…)?`);
    await expect(dialog).toContainText("Programs using it stop working at once.");
    await expectNoAxeViolations(page, "the revoke confirmation");
    await page.screenshot({ path: testInfo.outputPath("revoke-dialog.png") });
    await dialog.getByRole("button", { name: "Revoke key" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("status").filter({ hasText: "Revoked" })).toContainText(`Revoked “${name}”`);
    await expect(keyItem(page, name)).toContainText("Revoked");
    await expect(keyItem(page, name).getByRole("button")).toHaveCount(0);
    // The Revoke button has gone: the focus is on the key's name, not lost to the page's body.
    await expect(keyItem(page, name).getByRole("heading", { name, exact: true })).toBeFocused();
    expect((await request.get(match![2], { headers: { Authorization: `Bearer ${key}` } })).status()).toBe(401);
  });

  test("a name the schema refuses is explained under the field in staff words, without a request", async ({ page }) => {
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().includes("/admin/api/keys")) posts.push(request.url());
    });
    await signInAs(page, E2E_ADMIN, "/admin/keys");
    const field = page.getByLabel("Name of the new key");
    await field.fill("   ");
    await page.getByRole("button", { name: "Create key" }).click();
    await expect(field).toBeFocused();
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toHaveAccessibleDescription(/Give the key a name\./);
    await field.fill("k".repeat(101));
    await page.getByRole("button", { name: "Create key" }).click();
    await expect(field).toHaveAccessibleDescription(/Use 100 characters or fewer; this name has 101\./);
    await expectNoAxeViolations(page, "the key form refusing a name");
    expect(posts).toEqual([]);
  });

  test("the activity log shows the key's creation and revocation", async ({ page }) => {
    await signInAs(page, E2E_ADMIN, "/admin/keys");
    const name = uniqueName("activity check");
    await createKeyNamed(page, name);
    await page.getByRole("button", { name: "I have copied it" }).click();
    await keyItem(page, name)
      .getByRole("button", { name: `Revoke “${name}”` })
      .click();
    await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).click();
    await expect(keyItem(page, name)).toContainText("Revoked");
    await page.goto("/admin/activity");
    await expect(page.getByText(`created API key "${name}"`).first()).toBeVisible();
    await expect(page.getByText(`revoked API key "${name}"`).first()).toBeVisible();
  });

  test("keyboard alone: create a key, copy it, cancel and then confirm its revocation, with visible focus", async ({
    page,
    context,
    baseURL,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await signInAs(page, E2E_ADMIN, "/admin/keys");
    const name = uniqueName("keyboard key");
    await tabTo(page, page.getByLabel("Name of the new key"));
    await page.keyboard.type(name);
    await page.keyboard.press("Enter");
    const panel = page.getByRole("region", { name: `New key “${name}”` });
    await expect(panel.getByRole("heading")).toBeFocused();
    const copy = panel.getByRole("button", { name: "Copy API key" });
    await tabTo(page, copy);
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).not.toBe("none");
    await page.keyboard.press("Enter");
    await expect(panel.getByRole("status").first()).toHaveText("Copied");
    await tabTo(page, panel.getByRole("button", { name: "I have copied it" }));
    await page.keyboard.press("Enter");
    await expect(panel).toHaveCount(0);
    await expect(keyItem(page, name).getByRole("heading", { name, exact: true })).toBeFocused();

    const revoke = keyItem(page, name).getByRole("button", { name: `Revoke “${name}”` });
    await tabTo(page, revoke);
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused(); // the safe choice first
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(keyItem(page, name)).toContainText("Active");
    await expect(revoke).toBeFocused(); // back where it was

    await page.keyboard.press("Enter");
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(dialog.getByRole("button", { name: "Revoke key" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(keyItem(page, name)).toContainText("Revoked");
    await expect(keyItem(page, name).getByRole("heading", { name, exact: true })).toBeFocused();
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).not.toBe("none");
  });

  test("a staff member who is not an admin gets the 403 page, and no keys", async ({ page }) => {
    const answers: number[] = [];
    page.on("response", (response) => {
      if (new URL(response.url()).pathname === "/admin/keys") answers.push(response.status());
    });
    await signInAs(page, E2E_STAFF, "/admin/keys");
    await expect(page.getByRole("heading", { level: 1, name: "Admins only" })).toBeVisible();
    expect(answers).toContain(403);
    await expect(page.getByText("Used by the admin app")).toHaveCount(0);
    await expect(page.getByRole("link", { name: "API keys" })).toHaveCount(0);
  });
});

test.describe("the API keys page at phone width", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("fits 390 px with 44 px targets and no axe violations, the new key's panel and the dialog too", async ({
    page,
    context,
    baseURL,
  }, testInfo) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await signInAs(page, E2E_ADMIN, "/admin/keys");
    // How far the page, or any element of it (a long name overflowing its box), reaches past the 390 px screen.
    const overflow = () =>
      page.evaluate(
        () =>
          Math.max(
            document.documentElement.scrollWidth,
            ...[...document.querySelectorAll("body *")].map((element) => element.getBoundingClientRect().right),
          ) - 390,
      );
    const tallEnough = async (target: Locator, what: string) =>
      expect((await target.boundingBox())!.height, `${what} is at least 44 px tall`).toBeGreaterThanOrEqual(44);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await tallEnough(page.getByLabel("Name of the new key"), "the name input");
    await tallEnough(page.getByRole("button", { name: "Create key" }), "Create key");
    await expectNoAxeViolations(page, "the keys page at 390 px");

    // A long name without a space must wrap rather than push the page sideways.
    const name = uniqueName(`phone-key-${"x".repeat(80)}`);
    await createKeyNamed(page, name);
    const panel = page.getByRole("region", { name: `New key “${name}”` });
    await tallEnough(panel.getByRole("button", { name: "Copy API key" }), "Copy");
    await tallEnough(panel.getByRole("button", { name: "I have copied it" }), "I have copied it");
    expect(await overflow()).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page, "the new key's panel at 390 px");
    await panel.getByRole("button", { name: "I have copied it" }).tap();

    const revoke = keyItem(page, name).getByRole("button", { name: `Revoke “${name}”` });
    await tallEnough(revoke, "Revoke");
    await revoke.tap();
    const dialog = page.getByRole("dialog");
    await tallEnough(dialog.getByRole("button", { name: "Revoke key" }), "Revoke key");
    expect(await overflow()).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page, "the revoke confirmation at 390 px");
    await dialog.getByRole("button", { name: "Revoke key" }).tap();
    await expect(keyItem(page, name)).toContainText("Revoked");
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.screenshot({ path: testInfo.outputPath("phone-keys.png"), fullPage: true });
  });
});
