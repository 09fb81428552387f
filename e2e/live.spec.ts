import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { createKeyWithTool, createStaffWithTool, createTestDatabase, startServer } from "../scripts/harness/servers";
import { adminApiKey, expect, expectNoAxeViolations, signIn, signInAs, tabTo, test, CELL, E2E_STAFF } from "./support";

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
    // Who: the API key by its name (e2e/support.ts makes it), and what: the status it set.
    await expect(notice).toContainText(/e2e admin app .*pending/);
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

  test("the Orders page shows a new order, its step and the chips' counts without a reload", async ({
    page,
    request,
  }) => {
    const customer = `Live customer ${Date.now().toString(36)}`;
    const pet = await makePet(request, `Ordered live ${Date.now().toString(36)}`);
    await signInAs(page, E2E_STAFF, `/admin/orders?q=${encodeURIComponent(customer)}`);
    const rows = page.getByTestId("order-row");
    await expect(page.getByRole("status").filter({ hasText: "No orders match." })).toBeVisible();
    await expect(page.getByTestId("order-chip-all")).toContainText(/\d/); // the counts have come
    const all = page.getByTestId("order-chip-all");
    const countIn = async (chip: Locator) => Number(/\d[\d,]*/.exec(await chip.innerText())![0].replaceAll(",", ""));
    const total = await countIn(all);
    let reloaded = false;
    page.on("framenavigated", () => (reloaded = true));

    const placed = await request.post("/v1/store/orders", {
      headers: { Authorization: `Bearer ${adminApiKey()}`, "Content-Type": "application/json" },
      data: `{"petId":${pet.id},"customerName":${JSON.stringify(customer)}}`,
    });
    expect(placed.status(), await placed.text()).toBe(201);
    const orderId = /"id":(\d+)/.exec(await placed.text())![1];
    await expect(rows.filter({ hasText: `#${orderId}` })).toContainText("placed", { timeout: 5000 });
    await expect.poll(() => countIn(all), { timeout: 5000 }).toBe(total + 1);

    const approved = await request.post(`/v1/store/orders/${orderId}/approve`, {
      headers: { Authorization: `Bearer ${adminApiKey()}` },
    });
    expect(approved.status(), await approved.text()).toBe(200);
    await expect(rows.filter({ hasText: `#${orderId}` })).toContainText("approved", { timeout: 5000 });
    expect(reloaded, "no page load").toBe(false);
  });
});

// Its own server, restarted mid-test: the worker's server is shared by the other specs.
test.describe("live updates through a restart", () => {
  test("the stream reconnects after the server restarts and resumes from the last event it saw", async ({
    browser,
  }) => {
    const database = await createTestDatabase("sqlite");
    await createStaffWithTool(database.url, E2E_STAFF.email, E2E_STAFF.password);
    const key = await createKeyWithTool(database.url, "restart spec");
    let server = await startServer("custom", database.url, { ADMIN_API_KEY: key });
    const context = await browser.newContext({ baseURL: server.baseUrl });
    try {
      const page = await context.newPage();
      const v1 = { Authorization: `Bearer ${key}` };
      const made = await context.request.post("/v1/pets", {
        headers: v1,
        data: { name: "Restarted", categoryId: 2, status: "available" },
      });
      expect(made.status()).toBe(201);
      const pet = { id: String(((await made.json()) as { id: number }).id), name: "Restarted" };
      const session = await context.request.post("/admin/api/session", {
        data: E2E_STAFF,
        headers: { Origin: server.baseUrl },
      });
      expect(session.status()).toBe(200);
      await page.goto("/admin?q=Restarted");
      await expect(rowStatus(page, pet)).toHaveText("available");
      // The first change arrives live: the stream is open and has seen an event.
      const pending = await context.request.patch(`/v1/pets/${pet.id}`, { headers: v1, data: { status: "pending" } });
      expect(pending.status()).toBe(200);
      await expect(rowStatus(page, pet)).toHaveText("pending", { timeout: 5000 });
      let reloaded = false;
      page.on("framenavigated", () => (reloaded = true));

      // The stream is held off while the server restarts and the pet is sold: that event is missed, not streamed.
      await page.route("**/admin/api/events**", (route) => route.abort());
      await server.stop();
      server = await startServer("custom", database.url, {
        ADMIN_API_KEY: key,
        PORT: new URL(server.baseUrl).port,
      });
      const sold = await context.request.patch(`/v1/pets/${pet.id}`, { headers: v1, data: { status: "sold" } });
      expect(sold.status()).toBe(200);
      const reopened = page.waitForRequest((request) => request.url().includes("/admin/api/events"));
      await page.unroute("**/admin/api/events**");
      const resumedFrom = await reopened;
      const lastSeen =
        (await resumedFrom.headerValue("last-event-id")) ?? new URL(resumedFrom.url()).searchParams.get("after");
      expect(lastSeen, "the reconnection says the last event it saw").toMatch(/^\d+$/);
      await expect(rowStatus(page, pet)).toHaveText("sold", { timeout: 15_000 });
      expect(reloaded, "no page load").toBe(false);
    } finally {
      await context.close();
      await server.stop();
      await database.drop();
    }
  });
});
