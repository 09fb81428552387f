import type { Locator, Page } from "@playwright/test";
import { expect, test, expectNoAxeViolations, signInAs, tabTo } from "./support";
import { E2E_ADMIN, E2E_STAFF } from "./staff-account";

// Roles in the browser: a staff member sees no admin sections and gets the "Admins only" page (403) at each of
// them; an admin sees them all and runs the Staff page (adds an account, changes its role, disables and enables
// it, sets a new password) with no axe violations, by keyboard alone and at 390 px. The accounts it makes have
// unique emails, and E2E_STAFF and E2E_ADMIN are never changed (other specs sign in as them).

/** The admin-only pages; each must answer a staff member with the 403 "Admins only" page. */
const ADMIN_PAGES = [
  { path: "/admin/staff", link: "Staff" },
  { path: "/admin/keys", link: "API keys" },
  { path: "/admin/webhooks", link: "Webhooks" },
  { path: "/admin/activity", link: "Activity" },
];

const uniqueEmail = (what: string) =>
  `${what}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@animal-store.example`;

const accountCard = (page: Page, email: string) =>
  page.getByTestId("staff-account").filter({ has: page.getByRole("heading", { name: email }) });

/**
 * Adds an account through the form, with a generated password, which stays shown after Add (with a Copy button)
 * until "I have copied it"; the focus then goes to the new account's heading. Returns its card.
 */
async function addAccount(
  page: Page,
  email: string,
  { role = "staff", readClipboard = false }: { role?: "staff" | "admin"; readClipboard?: boolean } = {},
): Promise<Locator> {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption(role);
  await page.getByRole("button", { name: "Generate", exact: true }).click();
  const field = page.getByLabel("Initial password", { exact: true });
  await expect(field).toHaveValue(/^[A-Za-z0-9]{20}$/);
  const generated = await field.inputValue();
  await page.getByRole("button", { name: "Add account" }).click();
  await expect(page.getByTestId("staff-added")).toContainText(`Added ${email}`);
  await expect(field).toHaveValue("");
  const panel = page.getByRole("region", { name: `Password for ${email}` });
  await expect(panel.getByRole("heading")).toBeFocused();
  await expect(panel.getByLabel("Initial password (shown only now)")).toHaveValue(generated);
  await panel.getByRole("button", { name: "Copy Initial password" }).click();
  const copied = panel.getByRole("status");
  await expect(copied).toHaveText(/^(Copied|Selected: .+)$/);
  if (readClipboard) {
    await expect(copied).toHaveText("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(generated);
  }
  await expectNoAxeViolations(page, "the new account's generated password");
  await panel.getByRole("button", { name: "I have copied it" }).click();
  await expect(panel).toHaveCount(0);
  const card = accountCard(page, email);
  await expect(card).toBeVisible();
  await expect(card.getByRole("heading", { name: email, exact: true })).toBeFocused();
  return card;
}

test.describe("a staff member", () => {
  test.beforeEach(async ({ page }) => signInAs(page, E2E_STAFF, "/admin"));

  test("sees no Activity, API keys or Staff in the header", async ({ page }) => {
    await expect(page.getByTestId("pet-row").first()).toBeVisible();
    for (const { link } of ADMIN_PAGES)
      await expect(page.getByRole("link", { name: link, exact: true })).toHaveCount(0);
  });

  for (const { path } of ADMIN_PAGES) {
    test(`gets the "Admins only" page with 403 at ${path}`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(403);
      await expect(page.getByRole("heading", { level: 1, name: "Admins only" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Back to the catalogue" })).toBeVisible();
      await expectNoAxeViolations(page, `the 403 page at ${path}`);
    });
  }
});

test.describe("an admin on the Staff page", () => {
  test.beforeEach(async ({ page }) => signInAs(page, E2E_ADMIN, "/admin/staff"));

  test("sees every section, adds an account, changes its role, disables and enables it, sets a password", async ({
    page,
    context,
  }, testInfo) => {
    test.slow(); // every change and dialog, each checked by axe
    const nav = page.getByRole("navigation", { name: "Sections" });
    for (const name of ["Catalogue", "Activity", "API keys", "Staff"])
      await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Staff" })).toHaveAttribute("aria-current", "page");
    await expect(accountCard(page, E2E_ADMIN.email)).toContainText("(you)");
    await expectNoAxeViolations(page, "the Staff page");

    const email = uniqueEmail("page-made");
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const card = await addAccount(page, email, { readClipboard: true });
    await expect(card.getByTestId("staff-role")).toHaveText("staff");
    await expect(card.getByTestId("staff-state")).toHaveText("active");

    // Giving the admin role asks first too, saying what it gives; Cancel changes nothing.
    const heading = card.getByRole("heading", { name: email, exact: true });
    const dialog = page.getByRole("dialog");
    await card.getByRole("button", { name: "Make admin…" }).click();
    await expect(dialog).toHaveAccessibleName(`Make ${email} an admin?`);
    await expect(dialog).toHaveAccessibleDescription(
      "They will be able to manage API keys, webhooks and staff accounts, and see the activity log.",
    );
    await expectNoAxeViolations(page, "the Make admin confirmation");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(card.getByTestId("staff-role")).toHaveText("staff");
    await card.getByRole("button", { name: "Make admin…" }).click();
    await dialog.getByRole("button", { name: "Make admin", exact: true }).click();
    await expect(card.getByRole("status")).toHaveText(`${email} is now an admin.`);
    await expect(card.getByTestId("staff-role")).toHaveText("admin");
    await expect(heading).toBeFocused();

    // Taking the role away asks first; Cancel changes nothing.
    await card.getByRole("button", { name: "Make staff member…" }).click();
    await expect(dialog).toHaveAccessibleName(`Make ${email} a staff member?`);
    await expectNoAxeViolations(page, "the confirmation dialog");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(card.getByTestId("staff-role")).toHaveText("admin");
    await card.getByRole("button", { name: "Make staff member…" }).click();
    await dialog.getByRole("button", { name: "Make staff member" }).click();
    await expect(card.getByTestId("staff-role")).toHaveText("staff");

    await card.getByRole("button", { name: "Disable…" }).click();
    await expect(dialog).toHaveAccessibleName(`Disable ${email}?`);
    await dialog.getByRole("button", { name: "Disable", exact: true }).click();
    await expect(card.getByTestId("staff-state")).toHaveText("disabled");
    await expect(card.getByRole("status")).toHaveText(`${email} is disabled and signed out everywhere.`);
    // Disable… has gone (Enable took its place): the focus is on the account's heading, not the page's body.
    await expect(heading).toBeFocused();
    await card.getByRole("button", { name: "Enable" }).click();
    await expect(card.getByTestId("staff-state")).toHaveText("active");

    // A generated password, shown once with a copy button.
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await card.getByRole("button", { name: "Reset password…" }).click();
    await expect(dialog).toHaveAccessibleName(`New password for ${email}`);
    await dialog.getByRole("button", { name: "Generate one" }).click();
    const generated = dialog.getByLabel("Generated password (shown only now)");
    await expect(generated).toHaveValue(/^[A-Za-z0-9]{20}$/);
    await dialog.getByRole("button", { name: "Copy" }).click();
    await expect(dialog.getByRole("button", { name: "Copied" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await generated.inputValue());
    await expectNoAxeViolations(page, "the password dialog");
    await page.screenshot({ path: testInfo.outputPath("staff-password-dialog.png") });
    await dialog.getByRole("button", { name: "Set password" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(card.getByRole("status")).toHaveText(`New password set for ${email}; their sessions were ended.`);

    // Generated and set before it was copied: it stays shown, the focus on Copy, until "I have copied it".
    await card.getByRole("button", { name: "Reset password…" }).click();
    await dialog.getByRole("button", { name: "Generate one" }).click();
    const uncopied = await generated.inputValue();
    await dialog.getByRole("button", { name: "Set password" }).click();
    await expect(dialog.getByRole("status")).toHaveText("Password set. Copy it now: it is shown only this once.");
    await expect(generated).toHaveValue(uncopied);
    await expect(dialog.getByRole("button", { name: "Copy" })).toBeFocused();
    await expectNoAxeViolations(page, "the password dialog once set");
    await dialog.getByRole("button", { name: "I have copied it" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(card.getByRole("button", { name: "Reset password…" })).toBeFocused();
    await expect(card.getByRole("status")).toHaveText(`New password set for ${email}; their sessions were ended.`);

    // Typed twice: the two must match, and the rules are the server's own.
    await card.getByRole("button", { name: "Reset password…" }).click();
    await dialog.getByLabel("New password", { exact: true }).fill("short");
    await dialog.getByRole("button", { name: "Set password" }).click();
    const newPassword = dialog.getByLabel("New password", { exact: true });
    await expect(newPassword).toHaveAttribute("aria-invalid", "true");
    await expect(newPassword).toHaveAccessibleDescription(
      /The password needs at least 12 characters; this one has 5\./,
    );
    await dialog.getByLabel("New password", { exact: true }).fill("a typed new password");
    await dialog.getByLabel("The same again", { exact: true }).fill("a typed other password");
    await dialog.getByRole("button", { name: "Set password" }).click();
    await expect(dialog.getByLabel("The same again", { exact: true })).toHaveAccessibleDescription(
      /The two passwords differ: type the same password in both fields\./,
    );
    await dialog.getByLabel("The same again", { exact: true }).fill("a typed new password");
    await dialog.getByRole("button", { name: "Set password" }).click();
    await expect(dialog).toHaveCount(0);
    await expectNoAxeViolations(page, "the Staff page after the changes");
    await page.screenshot({ path: testInfo.outputPath("staff-page.png"), fullPage: true });
  });

  test("a generated password not yet copied stays shown when another account is added", async ({ page }) => {
    const add = async (email: string) => {
      await page.getByLabel("Email", { exact: true }).fill(email);
      await page.getByRole("button", { name: "Generate", exact: true }).click();
      const generated = await page.getByLabel("Initial password", { exact: true }).inputValue();
      await page.getByRole("button", { name: "Add account" }).click();
      await expect(page.getByTestId("staff-added")).toContainText(`Added ${email}`);
      return { panel: page.getByRole("region", { name: `Password for ${email}` }), generated };
    };
    const first = await add(uniqueEmail("uncopied-first"));
    const second = await add(uniqueEmail("uncopied-second"));
    await expect(second.panel.getByRole("heading")).toBeFocused();
    for (const { panel, generated } of [first, second])
      await expect(panel.getByLabel("Initial password (shown only now)")).toHaveValue(generated);
    await expectNoAxeViolations(page, "two generated passwords shown");
    await first.panel.getByRole("button", { name: "I have copied it" }).click();
    await expect(first.panel).toHaveCount(0);
    await expect(second.panel.getByLabel("Initial password (shown only now)")).toHaveValue(second.generated);
  });

  test("invalid input is explained under each field in staff words, without a request", async ({ page }) => {
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().includes("/admin/api/staff")) posts.push(request.url());
    });
    const email = page.getByLabel("Email", { exact: true });
    const password = page.getByLabel("Initial password", { exact: true });
    await email.fill("bob");
    await password.fill("1234567");
    await page.getByRole("button", { name: "Add account" }).click();
    await expect(email).toBeFocused();
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(email).toHaveAccessibleDescription(/Enter an email address such as name@example\.com\./);
    await expect(password).toHaveAttribute("aria-invalid", "true");
    await expect(password).toHaveAccessibleDescription(/The password needs at least 12 characters; this one has 7\./);
    await expectNoAxeViolations(page, "the add form refusing its input");
    expect(posts).toEqual([]);
  });

  test("a refused change shows the server's message and the request id", async ({ page }) => {
    await page.getByLabel("Email", { exact: true }).fill(E2E_STAFF.email.toUpperCase());
    await page.getByLabel("Initial password", { exact: true }).fill("a long enough password");
    await page.getByRole("button", { name: "Add account" }).click();
    const alert = page.getByRole("alert").filter({ hasText: "already exists" });
    await expect(alert).toContainText(`A staff account for ${E2E_STAFF.email} already exists.`);
    await expect(page.getByTestId("add-request-id")).toHaveText(/^admin-[0-9a-f]{32}$/);
  });

  test("keyboard alone: add an account, open and leave a confirmation, with visible focus", async ({ page }) => {
    const email = uniqueEmail("keyboard-made");
    await tabTo(page, page.getByLabel("Email", { exact: true }));
    await page.keyboard.type(email);
    await tabTo(page, page.getByLabel("Role", { exact: true }));
    await tabTo(page, page.getByLabel("Initial password", { exact: true }));
    await page.keyboard.type("a keyboard-typed password");
    await tabTo(page, page.getByRole("button", { name: "Add account" }));
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("staff-added")).toContainText(`Added ${email}`);
    const card = accountCard(page, email);
    await tabTo(page, card.getByRole("button", { name: "Disable…" }));
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(card.getByTestId("staff-state")).toHaveText("active");
    await expect(card.getByRole("button", { name: "Disable…" })).toBeFocused(); // back where it was

    // Confirmed, the focus goes to the account's heading, shown by its ring.
    await page.keyboard.press("Enter");
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(dialog.getByRole("button", { name: "Disable", exact: true })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(card.getByTestId("staff-state")).toHaveText("disabled");
    await expect(card.getByRole("heading", { name: email, exact: true })).toBeFocused();
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).not.toBe("none");
  });
});

test.describe("the Staff page at phone width", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("fits 390 px, has 44 px targets and no axe violations", async ({ page }, testInfo) => {
    test.slow(); // four axe checks at phone width
    await signInAs(page, E2E_ADMIN, "/admin/staff");
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    const card = await addAccount(page, uniqueEmail("phone-made"));
    expect(await overflow()).toBeLessThanOrEqual(0);
    for (const button of await card.getByRole("button").all())
      expect((await button.boundingBox())!.height, await button.innerText()).toBeGreaterThanOrEqual(44);
    for (const control of ["Email", "Role", "Initial password"])
      expect((await page.getByLabel(control, { exact: true }).boundingBox())!.height, control).toBeGreaterThanOrEqual(
        44,
      );
    await expectNoAxeViolations(page, "the Staff page at 390 px");
    await card.getByRole("button", { name: "Reset password…" }).tap();
    await expect(page.getByRole("dialog")).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page, "the password dialog at 390 px");
    await page.screenshot({ path: testInfo.outputPath("phone-staff-password-dialog.png") });
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).tap();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await card.getByRole("button", { name: "Make admin…" }).tap();
    const confirmation = page.getByRole("dialog");
    await expect(confirmation).toHaveAccessibleName(/ an admin\?$/);
    for (const button of await confirmation.getByRole("button").all())
      expect((await button.boundingBox())!.height, await button.innerText()).toBeGreaterThanOrEqual(44);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page, "the Make admin confirmation at 390 px");
    await confirmation.getByRole("button", { name: "Cancel" }).tap();
    await expect(confirmation).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath("phone-staff-page.png"), fullPage: true });
  });
});
