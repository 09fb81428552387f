import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { adminApiKey, E2E_STAFF, expect, expectNoAxeViolations, signIn, signInAs, tabTo, test } from "./support";

// Selling a pet the way staff do (issue 22): a counter sale from the pet's panel (the hold shown, its status and
// deletion not offered), approving and delivering from the Orders page after a confirmation naming the pet and the
// customer, cancelling, a colleague's change told in words, by keyboard alone and at 390 px, axe-clean throughout;
// the list's status chips and their counts, the search and 20 orders a page, all in the URL.
// Every pet and order here is made here, so the demo catalogue the other specs count on stays as it is.

let made = 0;
function uniqueName(stem: string): string {
  made += 1;
  return `${stem} ${Date.now().toString(36)}${made}`;
}

const v1 = () => ({ Authorization: `Bearer ${adminApiKey()}` });

async function makePet(request: APIRequestContext, name: string): Promise<string> {
  const response = await request.post("/v1/pets", {
    headers: v1(),
    data: { name, categoryId: 2, status: "available" },
  });
  expect(response.status()).toBe(201);
  return String(((await response.json()) as { id: number }).id);
}

async function makeOrder(request: APIRequestContext, petId: string, customerName: string): Promise<string> {
  const response = await request.post("/v1/store/orders", {
    headers: { ...v1(), "Content-Type": "application/json" },
    data: `{"petId":${petId},"customerName":${JSON.stringify(customerName)}}`,
  });
  expect(response.status(), await response.text()).toBe(201);
  return /"id":(\d+)/.exec(await response.text())![1];
}

async function petStatus(request: APIRequestContext, petId: string): Promise<string | undefined> {
  const response = await request.get(`/v1/pets/${petId}`, { headers: v1() });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { status?: string }).status;
}

/** Signs in on the Orders page, then opens `target` there. */
async function openOrders(page: Page, target: string): Promise<void> {
  await signInAs(page, E2E_STAFF, "/admin/orders");
  await page.goto(target);
}

function orderPanel(page: Page): Locator {
  return page.getByTestId("order-panel");
}

test.describe("orders", () => {
  test("a counter sale from the pet's panel holds the pet and says until when", async ({ page, request }) => {
    const name = uniqueName("Counter kitten");
    const petId = await makePet(request, name);
    await signIn(page, `/admin?q=${encodeURIComponent(name)}&pet=${petId}`);
    const panel = page.getByTestId("pet-panel");
    await expect(panel.getByTestId("pet-name")).toHaveText(name);

    await panel.getByRole("button", { name: "Place order…" }).click();
    const nameField = panel.getByLabel("Customer name");
    await expect(nameField).toBeFocused();
    await panel.getByRole("button", { name: "Place order", exact: true }).click();
    // The order form's words for staff (lib/pets/staff-messages.ts), beside the field; nothing is sent.
    await expect(panel.getByText("Enter the customer's name.")).toBeVisible();
    await expect(nameField).toHaveAttribute("aria-invalid", "true");
    await expect(nameField).toHaveAccessibleDescription("Enter the customer's name.");
    await expect(nameField).toBeFocused();
    await panel.getByLabel("Customer email (optional)").fill("ada");
    await nameField.fill("Ada Lovelace");
    await panel.getByRole("button", { name: "Place order", exact: true }).click();
    const emailField = panel.getByLabel("Customer email (optional)");
    await expect(emailField).toHaveAccessibleDescription("Enter an email address such as name@example.com.");
    await expect(emailField).toBeFocused();
    await expect(nameField).not.toHaveAttribute("aria-invalid");
    await expect(panel.getByTestId("pet-status")).toHaveText("available");
    await nameField.fill("Ada Lovelace");
    await panel.getByLabel("Customer email (optional)").fill("ada@example.com");
    await expectNoAxeViolations(page, "the place-order form");
    await panel.getByRole("button", { name: "Place order", exact: true }).click();

    const hold = panel.getByTestId("hold");
    await expect(hold).toContainText(
      /On hold for Ada Lovelace until \d{1,2} [A-Z][a-z]{2,3} \d{4}, \d{2}:\d{2} \S+ \(order #\d+\)\./,
    );
    await expect(hold).toBeFocused(); // the banner, where the form was, says the order is placed
    await expect(hold).toContainText(/Order #\d+ placed for Ada Lovelace\./);
    await expect(panel.getByTestId("pet-status")).toHaveText("pending");
    await expect(panel.getByTestId("status-held")).toContainText("deliver or cancel the order");
    await expect(panel.getByRole("group", { name: "Set the status" })).toHaveCount(0);
    await expect(panel.getByRole("button", { name: "Delete this pet…" })).toHaveCount(0);
    await expectNoAxeViolations(page, "a pet on hold");

    await hold.getByRole("link", { name: /Open order #\d+/ }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/admin/orders" && url.searchParams.has("order"));
    await expect(orderPanel(page).getByTestId("order-customer")).toContainText("Ada Lovelace");
    await expect(orderPanel(page).getByTestId("order-pet")).toHaveText(name);
  });

  test("approving and delivering from the Orders page by keyboard, delivery confirmed naming pet and customer", async ({
    page,
    request,
  }) => {
    const name = uniqueName("Delivered parrot");
    const petId = await makePet(request, name);
    const orderId = await makeOrder(request, petId, "Grace Hopper");
    await openOrders(page, "/admin/orders?q=Grace");
    await expect(page.getByTestId("order-chip-all")).toHaveAttribute("aria-current", "page");
    const row = page.getByTestId("order-row").filter({ hasText: `#${orderId}` });
    await expect(row).toContainText(name);
    await expect(row).toContainText("placed");
    await expectNoAxeViolations(page, "the Orders page");

    // By keyboard: Tab to the order, Enter opens it with the focus on its title.
    const link = row.getByRole("link");
    for (
      let presses = 0;
      presses < 60 && !(await link.evaluate((element) => element === document.activeElement));
      presses++
    )
      await page.keyboard.press("Tab");
    await expect(link).toBeFocused();
    await page.keyboard.press("Enter");
    const panel = orderPanel(page);
    await expect(panel.getByRole("heading", { name: `Order #${orderId}` })).toBeFocused();
    await expect(panel.getByTestId("order-status")).toContainText("placed");
    await expectNoAxeViolations(page, "an open order");

    await panel.getByRole("button", { name: "Approve" }).focus();
    await page.keyboard.press("Enter");
    await expect(panel.getByTestId("order-status")).toContainText("approved");
    await expect(panel.getByRole("status")).toHaveText(`Order #${orderId} approved.`);
    await expect(panel.getByRole("button", { name: "Approve" })).toHaveCount(0);

    await panel.getByRole("button", { name: "Deliver…" }).click();
    const dialog = page.getByRole("dialog", { name: `Deliver ${name} to Grace Hopper?` });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await expectNoAxeViolations(page, "the deliver confirmation");
    await dialog.getByRole("button", { name: "Deliver" }).click();
    await expect(dialog).toBeHidden();
    await expect(panel.getByTestId("order-status")).toContainText("delivered");
    await expect(panel).toContainText("nothing more can be done to it");
    const timeline = panel.getByTestId("order-timeline");
    await expect(timeline.getByRole("listitem")).toHaveText([
      new RegExp(`placed order #${orderId}: ${name} to Grace Hopper`),
      new RegExp(`approved order #${orderId}`),
      new RegExp(`delivered order #${orderId}`),
    ]);
    await expect(row).toContainText("delivered");
    expect(await petStatus(request, petId)).toBe("sold");
  });

  test("cancelling frees the pet; a colleague's change shows live, or is told in words with the stream down", async ({
    page,
    browser,
    baseURL,
    request,
  }) => {
    const name = uniqueName("Cancelled hamster");
    const petId = await makePet(request, name);
    const orderId = await makeOrder(request, petId, "Alan Turing");
    await openOrders(page, `/admin/orders?order=${orderId}`);
    const panel = orderPanel(page);
    await expect(panel.getByTestId("order-status")).toContainText("placed");
    const colleague = await (await browser.newContext({ baseURL })).newPage();
    await openOrders(colleague, `/admin/orders?order=${orderId}`);

    // A colleague approves it: the open panel follows through the live stream, without a reload.
    await orderPanel(colleague).getByRole("button", { name: "Approve" }).click();
    await expect(orderPanel(colleague).getByTestId("order-status")).toContainText("approved");
    await expect(panel.getByTestId("order-status")).toContainText("approved");
    await expect(panel.getByRole("status")).toHaveText(`Order #${orderId} is now approved: someone else changed it.`);

    // With the live stream down (a dropped connection), the panel keeps what it read, so a colleague's delivery
    // is learnt only when the cancel is refused: in words, with the order as it is now.
    await page.route(/\/admin\/api\/events(\?|$)/, (route) => route.abort());
    await page.reload();
    await expect(panel.getByTestId("order-status")).toContainText("approved");
    await orderPanel(colleague).getByRole("button", { name: "Deliver…" }).click();
    await colleague.getByRole("dialog").getByRole("button", { name: "Deliver" }).click();
    await expect(orderPanel(colleague).getByTestId("order-status")).toContainText("delivered");
    await colleague.context().close();

    await panel.getByRole("button", { name: "Cancel order…" }).click();
    const dialog = page.getByRole("dialog", { name: `Cancel the order of ${name} for Alan Turing?` });
    await dialog.getByRole("button", { name: "Cancel order" }).click();
    const warning = panel.getByRole("alert");
    await expect(warning).toContainText("This order was changed meanwhile.");
    await expect(warning).toContainText("It is now delivered.");
    await expect(panel.getByTestId("order-status")).toContainText("delivered");
    expect(await petStatus(request, petId)).toBe("sold");

    // A fresh order, cancelled: the pet is available again.
    const other = uniqueName("Freed hamster");
    const otherPet = await makePet(request, other);
    const otherOrder = await makeOrder(request, otherPet, "Barbara Liskov");
    await page.goto(`/admin/orders?order=${otherOrder}`);
    await orderPanel(page).getByRole("button", { name: "Cancel order…" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Cancel order" }).click();
    await expect(orderPanel(page).getByTestId("order-status")).toContainText("cancelled");
    expect(await petStatus(request, otherPet)).toBe("available");
  });
});

test.describe("the Orders page at phone width", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("fits 390 px, has 44 px targets and no axe violations", async ({ page, request }) => {
    const petId = await makePet(request, uniqueName("Phone gecko with a rather long name to wrap"));
    const orderId = await makeOrder(request, petId, "Katherine Johnson");
    await openOrders(page, `/admin/orders?order=${orderId}`);
    await expect(orderPanel(page).getByTestId("order-status")).toContainText("placed");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    for (const target of [
      page.getByTestId("order-chip-all"),
      page.getByRole("button", { name: "Search", exact: true }),
      orderPanel(page).getByRole("button", { name: "Deliver…" }),
      orderPanel(page).getByRole("link", { name: "Close" }),
    ]) {
      const box = (await target.boundingBox())!;
      expect(box.height, `${await target.textContent()} is at least 44 px tall`).toBeGreaterThanOrEqual(44);
    }
    await expectNoAxeViolations(page, "the Orders page at 390 px");
  });

  test("a counter sale from the pet's sheet by keyboard alone: the form and the hold fit 390 px, axe-clean", async ({
    page,
    request,
  }) => {
    const name = uniqueName("Phone sale rabbit");
    const petId = await makePet(request, name);
    await signIn(page, `/admin?q=${encodeURIComponent(name)}&pet=${petId}`);
    const panel = page.getByTestId("pet-panel");
    await expect(panel.getByTestId("pet-name")).toHaveText(name);

    const open = panel.getByRole("button", { name: "Place order…" });
    await tabTo(page, open);
    await page.keyboard.press("Enter");
    const nameField = panel.getByLabel("Customer name");
    await expect(nameField).toBeFocused();
    await page.keyboard.type("Mary Jackson");
    await page.keyboard.press("Tab");
    await expect(panel.getByLabel("Customer email (optional)")).toBeFocused();
    await page.keyboard.type("mary@example.com");
    const place = panel.getByRole("button", { name: "Place order", exact: true });
    for (const target of [nameField, place, panel.getByRole("button", { name: "Cancel", exact: true })]) {
      const box = (await target.boundingBox())!;
      expect(box.height, `${await target.getAttribute("name")} is at least 44 px tall`).toBeGreaterThanOrEqual(44);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page, "the place-order form at 390 px");
    await page.keyboard.press("Tab");
    await expect(place).toBeFocused();
    await page.keyboard.press("Enter");

    const hold = panel.getByTestId("hold");
    await expect(hold).toBeFocused();
    await expect(hold).toContainText(/On hold for Mary Jackson until .+ \(order #\d+\)\./);
    await expect(panel.getByTestId("pet-status")).toHaveText("pending");
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page, "a pet on hold at 390 px");
    expect(await petStatus(request, petId)).toBe("pending");
  });
});

test.describe("the Orders page's list", () => {
  test("chips count each status and follow new orders; a chip and a search narrow the list; 20 a page", async ({
    page,
    request,
  }) => {
    const counts = async () => {
      const response = await request.get("/v1/store/orders/counts", { headers: v1() });
      expect(response.ok()).toBe(true);
      return (await response.json()) as { total: number; byStatus: Record<string, number> };
    };
    const before = await counts();

    const customer = uniqueName("Paging customer");
    const orders: string[] = [];
    for (let index = 0; index < 22; index++)
      orders.push(await makeOrder(request, await makePet(request, uniqueName("Paged pet")), customer));
    const approve = await request.post(`/v1/store/orders/${orders[0]}/approve`, { headers: v1() });
    expect(approve.status(), await approve.text()).toBe(200);
    const other = await makeOrder(request, await makePet(request, uniqueName("Unsearched pet")), "Someone Else");

    const after = await counts();
    expect(after.total).toBe(before.total + 23);
    expect(after.byStatus.placed).toBe(before.byStatus.placed + 22);
    expect(after.byStatus.approved).toBe(before.byStatus.approved + 1);

    await openOrders(page, `/admin/orders?q=${encodeURIComponent(customer)}`);
    for (const [chip, count] of [["all", after.total], ...Object.entries(after.byStatus)] as const)
      await expect(page.getByTestId(`order-chip-${chip}`)).toContainText(String(count));

    // The search: this customer's 22 orders, newest first, 20 a page; the other customer's is not among them.
    const rows = page.getByTestId("order-row");
    await expect(rows).toHaveCount(20);
    await expect(rows.first()).toContainText(`#${orders[21]}`);
    await expect(page.getByRole("status").filter({ hasText: "20 orders, newest first." })).toBeAttached();
    await expect(rows.filter({ hasText: `#${other}` })).toHaveCount(0);
    await page.getByRole("button", { name: "Older orders" }).click();
    await expect(page).toHaveURL((url) => url.searchParams.has("cursor") && url.searchParams.get("q") === customer);
    await expect(rows).toHaveCount(2);
    await expect(rows.last()).toContainText(`#${orders[0]}`);
    await page.reload(); // the page is in the URL
    await expect(rows).toHaveCount(2);
    await page.getByRole("button", { name: "Newest orders" }).click();
    await expect(rows).toHaveCount(20);

    // A chip keeps the search: only the approved one.
    await page.getByTestId("order-chip-approved").click();
    await expect(page).toHaveURL((url) => url.searchParams.get("status") === "approved");
    expect(new URL(page.url()).searchParams.get("q")).toBe(customer);
    await expect(page.getByTestId("order-chip-approved")).toHaveAttribute("aria-current", "page");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(`#${orders[0]}`);
    await expect(rows.first()).toContainText("approved");
  });
});
