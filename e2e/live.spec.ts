import type { APIRequestContext, Page } from "@playwright/test";
import { adminApiKey, expect, expectNoAxeViolations, signIn, tabTo, test, CELL } from "./support";

// The admin app, live (issue 23): a change made anywhere — another staff member's browser, an API client — shows in
// every open catalogue without a reload, and an open pet's panel says who changed what instead of swapping the
// values under the staff member's hands.

type MadePet = { id: string; name: string };

async function makePet(request: APIRequestContext, name: string): Promise<MadePet> {
  const response = await request.post("/v1/pets", {
    headers: { Authorization: `Bearer ${adminApiKey()}` },
    data: { name, categoryId: 2, status: "available" },
  });
  expect(response.status()).toBe(201);
  const body = (await response.json()) as { id: number };
  return { id: String(body.id), name };
}

const rowStatus = (page: Page, pet: MadePet) =>
  page
    .getByTestId("pet-row")
    .filter({ has: page.locator(`#pet-link-${pet.id}`) })
    .locator(CELL.status);

test.describe("live updates", () => {
  test("a colleague's change in another browser shows in the catalogue without a reload", async ({
    page,
    browser,
    baseURL,
    request,
  }) => {
    const pet = await makePet(request, `Live ${Date.now().toString(36)}`);
    await signIn(page, `/admin?q=${encodeURIComponent(pet.name)}`);
    await expect(rowStatus(page, pet)).toHaveText("available");
    let reloaded = false;
    page.on("framenavigated", () => (reloaded = true));

    const colleague = await (await browser.newContext({ baseURL })).newPage();
    await signIn(colleague, `/admin?q=${encodeURIComponent(pet.name)}&pet=${pet.id}`);
    const sold = colleague.getByTestId("pet-panel").getByRole("button", { name: "sold", exact: true });
    await expect(sold).toHaveAttribute("aria-disabled", "false");
    await sold.click();
    await expect(rowStatus(colleague, pet)).toHaveText("sold");

    await expect(rowStatus(page, pet)).toHaveText("sold", { timeout: 5000 });
    // And a pet added through /v1 appears in the first one's search too.
    const other = await makePet(request, `${pet.name} II`);
    await expect(page.locator(`#pet-link-${other.id}`)).toBeVisible({ timeout: 5000 });
    expect(reloaded, "no page load").toBe(false);
    await colleague.context().close();
  });

  test("a pet changed elsewhere: its open panel says who changed what, keeps the typed name", async ({
    page,
    request,
  }) => {
    const pet = await makePet(request, `Notice ${Date.now().toString(36)}`);
    await signIn(page, `/admin?q=${encodeURIComponent(pet.name)}&pet=${pet.id}`);
    const panel = page.getByTestId("pet-panel");
    await expect(panel.getByRole("button", { name: "sold", exact: true })).toHaveAttribute("aria-disabled", "false");
    await panel.getByRole("textbox", { name: "Name" }).fill(`${pet.name} typed`);

    const changed = await request.patch(`/v1/pets/${pet.id}`, {
      headers: { Authorization: `Bearer ${adminApiKey()}` },
      data: { status: "pending" },
    });
    expect(changed.status()).toBe(200);

    const notice = panel.getByTestId("pet-changed-notice");
    await expect(notice).toContainText("Changed while you were editing", { timeout: 5000 });
    await expect(notice).toContainText("pending");
    await expect(panel.getByTestId("pet-status"), "the values shown stay until asked").toHaveText("available");
    await expect(panel.getByRole("textbox", { name: "Name" })).toHaveValue(`${pet.name} typed`);
    await expectNoAxeViolations(page, "a pet's panel with a colleague's change told");
    // At phone width, by keyboard alone: the notice's button is reached with Tab, 44 px tall, and nothing
    // scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    const show = panel.getByRole("button", { name: "Show the current values" });
    expect((await show.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page, "the notice at 390 px");
    await tabTo(page, show);
    await page.keyboard.press("Enter");
    await expect(panel.getByTestId("pet-status")).toHaveText("pending");
    await expect(notice).toHaveCount(0);
    await expect(panel.getByRole("textbox", { name: "Name" }), "what was typed is kept").toHaveValue(
      `${pet.name} typed`,
    );
    const saved = page.waitForResponse((response) => response.request().method() === "PATCH");
    await panel.getByRole("button", { name: "Save changes" }).click();
    expect((await saved).status(), "saved against the values now shown").toBe(200);
  });
});
