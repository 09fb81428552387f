import { request as playwrightRequest, type Locator, type Page } from "@playwright/test";
import { adminApiKey, E2E_STAFF, expect, expectNoAxeViolations, signInWithForm, test } from "./support";
import { E2E_ADMIN } from "./staff-account";

// Sessions that keep work (issue 12): when the session ends mid-task the page says so in a dialog, keeps what the
// add form and an open edit form hold, and signs in back to the same URL, where the values are put back and not
// sent. Sign-in's `next` never leaves the app, and signing out is confirmed. Keyboard only, axe-clean.

const SESSION_ENDED = "Your session has ended. Sign in again to continue; what you typed is kept.";

/** Ends the page's session on the server, as an expiry or a sign-out elsewhere does; the browser keeps its cookie. */
async function endSessionOnServer(page: Page, baseURL: string): Promise<void> {
  const cookie = (await page.context().cookies()).find((entry) => entry.name === "animal_store_session");
  expect(cookie, "signed in").toBeTruthy();
  const elsewhere = await playwrightRequest.newContext({
    baseURL,
    extraHTTPHeaders: { Cookie: `${cookie!.name}=${cookie!.value}`, Origin: baseURL },
  });
  const response = await elsewhere.delete("/admin/api/session");
  expect(response.ok()).toBe(true);
  await elsewhere.dispose();
  expect((await page.request.get("/admin/api/pets")).status()).toBe(401); // the browser's cookie is dead now
}

/** Presses Tab until `target` has the focus; fails if it is never reached. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let presses = 0; presses < 100; presses++) {
    await page.keyboard.press("Tab");
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`${target.toString()} is not reachable with Tab`);
}

/** Signs in on the sign-in page shown, by keyboard alone: Tab to the email, type, Tab, type, Enter. */
async function signInByKeyboard(page: Page, account = E2E_STAFF): Promise<void> {
  // The page says why it opened and gives that notice the focus once it has loaded: keys pressed before then would
  // be taken from the form by it (CI typed the password into the email field so).
  const reason = page.locator("#sign-in-reason");
  if (await reason.count()) await expect(reason).toBeFocused();
  await tabTo(page, page.getByLabel("Email"));
  await page.keyboard.type(account.email);
  await page.keyboard.press("Tab");
  await page.keyboard.type(account.password);
  await page.keyboard.press("Enter");
}

/** The dialog shown when the session ended: its message, the focus on its sign-in link, axe-clean. */
async function expectSessionEndedDialog(page: Page): Promise<Locator> {
  const dialog = page.getByRole("dialog", { name: "Session ended" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(SESSION_ENDED);
  const link = dialog.getByRole("link", { name: "Sign in again" });
  await expect(link).toBeFocused();
  await expectNoAxeViolations(page, "the session-ended dialog");
  return link;
}

/** Requests that would change a pet, to show that restoring a draft sends nothing. */
function watchChanges(page: Page): string[] {
  const sent: string[] = [];
  page.on("request", (request) => {
    if (["POST", "PATCH", "DELETE"].includes(request.method()) && request.url().includes("/admin/api/pets"))
      sent.push(`${request.method()} ${request.url()}`);
  });
  return sent;
}

test.describe("a session that ends mid-task", () => {
  test("the add form keeps what was typed through sign-in, back on the same URL, and then adds", async ({
    page,
    baseURL,
  }) => {
    const here = "/admin?sort=name&status=available";
    await signInWithForm(page, here);
    const name = page.getByLabel("Name", { exact: true });
    const category = page.getByLabel("Category", { exact: true });
    const status = page.getByLabel("Status (optional)");
    const petName = `Kept ${Date.now().toString(36)}`;

    await tabTo(page, name);
    await page.keyboard.type(petName);
    await page.keyboard.press("Tab");
    await expect(category).toBeFocused();
    await category.selectOption({ label: "Birds" }); // id 3 of the demo's named categories
    await page.keyboard.press("Tab");
    await expect(status).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await expect(status).toHaveValue("pending");

    await endSessionOnServer(page, baseURL!);
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Add pet" })).toBeFocused();
    const refused = page.waitForResponse((response) => response.request().method() === "POST");
    await page.keyboard.press("Enter");
    expect((await refused).status()).toBe(401);

    await expectSessionEndedDialog(page);
    await expect(page).toHaveURL(here); // no redirect
    await expect(name).toHaveValue(petName);
    await expect(category).toHaveValue("3");
    await expect(status).toHaveValue("pending");
    await expect(page.locator("#form-error")).toHaveCount(0); // the dialog says it, once

    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/sign-in\?/);
    const url = new URL(page.url());
    expect(url.searchParams.get("next")).toBe(here);
    expect(url.searchParams.get("reason")).toBe("session-ended");
    const notice = page.getByRole("status").filter({ hasText: "Your session has ended" });
    await expect(notice).toBeFocused();
    await expectNoAxeViolations(page, "sign-in after the session ended");

    const changes = watchChanges(page);
    await signInByKeyboard(page);
    await expect(page).toHaveURL(here);
    await expect(name).toHaveValue(petName);
    await expect(category).toHaveValue("3");
    await expect(status).toHaveValue("pending");
    await expect(page.getByTestId("pet-row").first()).toBeVisible();
    expect(changes, "restored, not sent").toEqual([]);

    const added = page.waitForResponse((response) => response.request().method() === "POST");
    await tabTo(page, page.getByRole("button", { name: "Add pet" }));
    await page.keyboard.press("Enter");
    const response = await added;
    expect(response.status()).toBe(201);
    expect(((await response.json()) as { name: string }).name).toBe(petName);
    await expect(name).toHaveValue("");

    // Restored once: a reload shows the form empty.
    await page.reload();
    await expect(page.getByTestId("pet-row").first()).toBeVisible();
    await expect(name).toHaveValue("");
  });

  test("an open edit form keeps its values through sign-in, and saves them after", async ({
    page,
    request,
    baseURL,
  }) => {
    const original = `Edited ${Date.now().toString(36)}`;
    const made = await request.post("/v1/pets", {
      headers: { Authorization: `Bearer ${adminApiKey()}` },
      data: { name: original, categoryId: 2, status: "available" },
    });
    expect(made.status()).toBe(201);
    const id = String(((await made.json()) as { id: number }).id);
    const here = `/admin?${new URLSearchParams({ limit: "20", q: original, pet: id }).toString()}`;
    await signInWithForm(page, here);
    const panel = page.getByTestId("pet-panel");
    await expect(panel.getByRole("button", { name: "sold", exact: true })).toHaveAttribute("aria-disabled", "false");
    const name = panel.getByLabel("Name", { exact: true });
    const category = panel.getByLabel("Category", { exact: true });
    await tabTo(page, name);
    await page.keyboard.press("End");
    await page.keyboard.type(" renamed");
    await page.keyboard.press("Tab");
    await expect(category).toBeFocused();
    await category.selectOption({ label: "Fish" }); // id 4

    await endSessionOnServer(page, baseURL!);
    const refused = page.waitForResponse((response) => response.request().method() === "PATCH");
    await tabTo(page, panel.getByRole("button", { name: "Save changes" }));
    await page.keyboard.press("Enter");
    expect((await refused).status()).toBe(401);
    await expectSessionEndedDialog(page);
    await expect(name).toHaveValue(`${original} renamed`);
    await expect(category).toHaveValue("4");

    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/sign-in\?/);
    expect(new URL(page.url()).searchParams.get("next")).toBe(here);
    const changes = watchChanges(page);
    await signInByKeyboard(page);
    await expect(page).toHaveURL(here);
    await expect(panel.getByRole("button", { name: "sold", exact: true })).toHaveAttribute("aria-disabled", "false");
    await expect(name).toHaveValue(`${original} renamed`);
    await expect(category).toHaveValue("4");
    expect(changes, "restored, not sent").toEqual([]);

    const saved = page.waitForResponse((response) => response.request().method() === "PATCH");
    await tabTo(page, panel.getByRole("button", { name: "Save changes" }));
    await page.keyboard.press("Enter");
    expect((await saved).status()).toBe(200);
    await expect(panel.getByTestId("pet-name")).toHaveText(`${original} renamed`);
    await expect(panel.getByTestId("pet-category")).toHaveText("Fish");
  });

  test("the add form's values survive the page's own redirect to sign-in after the session ended", async ({
    page,
    baseURL,
  }) => {
    await signInWithForm(page);
    const name = page.getByLabel("Name", { exact: true });
    await tabTo(page, name);
    await page.keyboard.type("Redirected");
    await page.keyboard.press("Tab");
    await page.getByLabel("Category", { exact: true }).selectOption({ label: "Cats" }); // id 2
    await endSessionOnServer(page, baseURL!);

    // A client navigation: the page checks the session on the server and redirects to sign-in.
    await page.goto("/admin?status=sold");
    await expect(page).toHaveURL(/\/sign-in\?next=/);
    await signInByKeyboard(page);
    await expect(page).toHaveURL(/\/admin\?status=sold$/);
    await expect(name).toHaveValue("Redirected");
    await expect(page.getByLabel("Category", { exact: true })).toHaveValue("2");
  });

  test("what one staff member typed is never put in the forms of another who signs in in the same tab", async ({
    page,
    baseURL,
  }) => {
    await signInWithForm(page);
    const name = page.getByLabel("Name", { exact: true });
    await tabTo(page, name);
    await page.keyboard.type("Not yours");
    await endSessionOnServer(page, baseURL!);
    await page.goto("/admin?status=sold");
    await expect(page).toHaveURL(/\/sign-in\?next=/);
    await signInByKeyboard(page, E2E_ADMIN); // another staff member at the same computer
    await expect(page).toHaveURL(/\/admin\?status=sold$/);
    await expect(page.getByText(E2E_ADMIN.email)).toBeVisible();
    // The page drops the other's draft once it runs (DraftOwner, before any form's effects): waited for, since the
    // server's HTML already shows an empty form, and then the form must still be empty.
    await expect
      .poll(() => page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.includes("draft:"))))
      .toEqual([]);
    await expect(name).toHaveValue("");
  });

  test("staying on the page closes the dialog with Escape, and the next refused request opens it again", async ({
    page,
    baseURL,
  }) => {
    await signInWithForm(page);
    await endSessionOnServer(page, baseURL!);
    await page.getByLabel("Name", { exact: true }).fill("Stay");
    await page.getByLabel("Category", { exact: true }).selectOption({ label: "Dogs" });
    await page.getByRole("button", { name: "Add pet" }).press("Enter");
    await expectSessionEndedDialog(page);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog", { name: "Session ended" })).toBeHidden();
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Stay");
    await page.getByRole("button", { name: "Add pet" }).press("Enter");
    await expectSessionEndedDialog(page);
  });
});

test.describe("sign-in's next stays in the app", () => {
  for (const next of [
    "//evil.example/admin",
    "https://evil.example/admin",
    "/\\evil.example/admin",
    "/admin\\..\\..\\evil.example",
    "\\\\evil.example",
    "/admin//evil.example",
    "javascript:alert(1)",
  ]) {
    test(`next=${next} lands on /admin`, async ({ page, baseURL }) => {
      await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
      await signInByKeyboard(page);
      await expect(page).toHaveURL((url) => url.origin === new URL(baseURL!).origin && url.pathname === "/admin");
      expect(new URL(page.url()).search).toBe("");
    });
  }
});

test.describe("signing out", () => {
  test("is confirmed on the sign-in page, which is axe-clean and keyboard-ready", async ({ page }) => {
    await signInWithForm(page);
    const signOut = page.getByRole("button", { name: "Sign out" });
    await tabTo(page, signOut);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/sign-in\?reason=signed-out$/);
    const notice = page.getByRole("status").filter({ hasText: "You have signed out." });
    await expect(notice).toHaveText("You have signed out.");
    await expect(notice).toBeFocused();
    await expectNoAxeViolations(page, "sign-in after signing out");
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("Email")).toBeFocused();
    expect((await page.request.get("/admin/api/pets")).status()).toBe(401);
  });
});
