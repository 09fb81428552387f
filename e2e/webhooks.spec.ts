import http from "node:http";
import type { Locator, Page } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { E2E_ADMIN } from "./staff-account";
import { adminApiKey, E2E_STAFF, expect, expectNoAxeViolations, signInAs, tabTo, test as base } from "./support";

// The Webhooks page in Chromium, against a real receiver (node:http on 127.0.0.1; the servers run with
// WEBHOOK_ALLOW_PRIVATE_URLS=on): an admin adds an endpoint and sees its secret, sends a test event that arrives
// signed (verified with the `standardwebhooks` package and the secret the page showed) and shows as Succeeded,
// resends it, disables and enables the endpoint, rotates its secret and deletes it after a confirmation. A refused
// URL is explained under the field; an endpoint the worker disabled says why. A staff member who is not an admin
// gets the 403 page. By keyboard alone at 390 px, axe clean. Each test's endpoints point at its own receiver and are
// deleted at its end.

const SECRET_SHAPE = /^whsec_[A-Za-z0-9+/]{43}=$/;

type Received = { path: string; headers: http.IncomingHttpHeaders; body: string };

type Receiver = {
  /** The receiver's URL for `path`: one endpoint per path. */
  url: (path: string) => string;
  received: Received[];
  /** The status it answers from now on. */
  answer: (status: number) => void;
};

async function startReceiver(): Promise<Receiver & { close: () => Promise<void> }> {
  const received: Received[] = [];
  let status = 204;
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      received.push({ path: request.url ?? "", headers: request.headers, body });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    answer: (next) => (status = next),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Deletes, as the signed-in admin, the endpoints pointing at `origin` that a failed test left behind. */
async function deleteEndpointsAt(page: Page, origin: string): Promise<void> {
  const listed = await page.request.get("/admin/api/webhooks");
  if (listed.status() !== 200) return;
  const { endpoints } = (await listed.json()) as { endpoints: { id: number; url: string }[] };
  for (const { id, url } of endpoints)
    if (url.startsWith(origin))
      await page.request.delete(`/admin/api/webhooks/${id}`, { headers: { Origin: process.env.E2E_BASE_URL! } });
}

const test = base.extend<{ receiver: Receiver }>({
  receiver: async ({ page }, use) => {
    const receiver = await startReceiver();
    try {
      await use(receiver);
    } finally {
      await deleteEndpointsAt(page, receiver.url(""));
      await receiver.close();
    }
  },
});

const endpointItem = (page: Page, url: string) =>
  page.getByTestId("webhook").filter({ has: page.getByRole("heading", { name: url, exact: true }) });

/** Adds an endpoint through the form, with the event types checked; returns the secret the page shows. */
async function addEndpoint(page: Page, url: string, types: string[] = []): Promise<string> {
  await page.getByLabel("Endpoint URL").fill(url);
  for (const type of types) await page.getByRole("checkbox", { name: type, exact: true }).check();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const panel = page.getByRole("region", { name: `Added ${url}` });
  await expect(panel.getByRole("heading")).toBeFocused();
  const secret = await panel.getByLabel("Signing secret", { exact: true }).inputValue();
  expect(secret).toMatch(SECRET_SHAPE);
  return secret;
}

/** The headers a Standard Webhooks receiver checks. */
function signedHeaders({ headers }: Received): Record<string, string> {
  for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"])
    expect(headers[name], name).toEqual(expect.any(String));
  return {
    "webhook-id": headers["webhook-id"] as string,
    "webhook-timestamp": headers["webhook-timestamp"] as string,
    "webhook-signature": headers["webhook-signature"] as string,
  };
}

/** What `secret` verifies of a received message (throws when the signature does not verify). */
const verified = (secret: string, message: Received) =>
  new Webhook(secret).verify(message.body, signedHeaders(message)) as { type: string };

test.describe("the Webhooks page", () => {
  test("an admin adds an endpoint, tests it, resends, disables and enables it, rotates its secret, deletes it", async ({
    page,
    context,
    baseURL,
    receiver,
  }, testInfo) => {
    test.slow(); // the whole life of an endpoint, with axe (WCAG 2.2 rules too) at each step
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await signInAs(page, E2E_ADMIN, "/admin/webhooks");
    await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Webhooks", exact: true })).toHaveAttribute("aria-current", "page");

    const url = receiver.url("/orders");
    const secret = await addEndpoint(page, url, ["order.placed", "order.approved"]);
    const panel = page.getByRole("region", { name: `Added ${url}` });
    await expect(panel).toContainText("standardwebhooks");
    await panel.getByRole("button", { name: "Copy Signing secret" }).click();
    await expect(panel.getByRole("status").first()).toHaveText("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await panel.getByRole("button", { name: "Done" }).click();
    await expect(panel).toHaveCount(0);

    const item = endpointItem(page, url);
    // The panel has gone: the focus is on the new endpoint's heading, not lost to the page's body.
    await expect(item.getByRole("heading", { name: url, exact: true })).toBeFocused();
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("H3");
    await expect(item).toContainText("order.placed, order.approved");
    await expect(item.getByTestId("webhook-state")).toHaveText("Enabled");
    await expect(item).toContainText(`by ${E2E_ADMIN.email}`);

    // A test event: Succeeded in the table, and at the receiver, signed with the secret the page showed.
    await item.getByRole("button", { name: "Send test event" }).click();
    await expect(item.getByTestId("webhook-news")).toHaveText(/^The test event was delivered: HTTP 204 in \d+ ms\.$/);
    const row = item.getByTestId("webhook-delivery").first();
    await expect(row).toContainText("Succeeded");
    await expect(row.getByRole("cell").first()).toHaveText("Test");
    await expect(row).toContainText("HTTP 204");
    await expect(row).toContainText(/\d+ ms/);
    expect(receiver.received).toHaveLength(1);
    expect(verified(secret, receiver.received[0]).type).toBe("webhook.test");
    expect(receiver.received[0].path).toBe("/orders");
    await expectNoAxeViolations(page, "the Webhooks page with an endpoint and a delivery");
    await page.screenshot({ path: testInfo.outputPath("webhook-tested.png"), fullPage: true });

    // Resend: a new delivery of the same message (the same webhook-id).
    await row.getByRole("button", { name: "Resend" }).click();
    await expect(item.getByTestId("webhook-news")).toHaveText(/^The resent test message was delivered/);
    await expect(item.getByTestId("webhook-delivery")).toHaveCount(2);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1].headers["webhook-id"]).toBe(receiver.received[0].headers["webhook-id"]);

    await item.getByRole("button", { name: "Show secret" }).click();
    await expect(item.getByLabel("Signing secret", { exact: true })).toHaveValue(secret);
    await item.getByRole("button", { name: "Hide secret" }).click();
    await expect(item.getByLabel("Signing secret", { exact: true })).toHaveCount(0);

    await item.getByRole("button", { name: "Disable" }).click();
    await expect(item.getByTestId("webhook-state")).toContainText(`Disabled on`);
    await expect(item.getByTestId("webhook-state")).toContainText(`Disabled by ${E2E_ADMIN.email}.`);
    await expect(item.getByTestId("webhook-news")).toContainText("Disabled: nothing is sent to it");
    await item.getByRole("button", { name: "Enable" }).click();
    await expect(item.getByTestId("webhook-state")).toHaveText("Enabled");

    // Rotating: a new secret, shown; the next message verifies with it, and with the old one for a day.
    await item.getByRole("button", { name: "Rotate secret…" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toHaveAccessibleName(`Rotate the secret of ${url}?`);
    await expect(dialog).toContainText("The old one keeps signing too for 24 hours");
    await expectNoAxeViolations(page, "the rotate confirmation");
    await dialog.getByRole("button", { name: "Rotate secret" }).click();
    await expect(dialog).toBeHidden();
    const rotated = await item.getByLabel("New signing secret", { exact: true }).inputValue();
    expect(rotated).toMatch(SECRET_SHAPE);
    expect(rotated).not.toBe(secret);
    await expect(item.getByTestId("webhook-news")).toContainText("New secret made");
    await expect(item).toContainText("Also signs until");
    await item.getByRole("button", { name: "Send test event" }).click();
    await expect(item.getByTestId("webhook-news")).toHaveText(/^The test event was delivered/);
    expect(receiver.received).toHaveLength(3);
    expect(verified(rotated, receiver.received[2]).type).toBe("webhook.test");
    expect(verified(secret, receiver.received[2]).type).toBe("webhook.test");

    await item.getByRole("button", { name: "Delete…" }).click();
    await expect(dialog).toHaveAccessibleName(`Delete ${url}?`);
    await dialog.getByRole("button", { name: "Delete endpoint" }).click();
    await expect(dialog).toBeHidden();
    await expect(item).toHaveCount(0);
    await expect(page.getByTestId("webhooks-news")).toHaveText(`Deleted ${url}: nothing more is sent to it.`);
    // Its Delete button has gone with it: the focus is on the list's heading, not lost to the page's body.
    await expect(page.getByRole("heading", { level: 2, name: "Endpoints" })).toBeFocused();
  });

  test("a URL the server refuses is explained under the field, which takes the focus", async ({ page, receiver }) => {
    await signInAs(page, E2E_ADMIN, "/admin/webhooks");
    const field = page.getByLabel("Endpoint URL");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(field).toBeFocused();
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toHaveAccessibleDescription(
      /Enter the receiver's address, such as https:\/\/shop\.example\/webhooks\./,
    );

    await field.fill("ftp://x");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(field).toHaveAccessibleDescription(/Only http and https URLs can be endpoints, not ftp\./);
    await expect(field).toBeFocused();
    await expect(page.getByRole("region", { name: /^Added / })).toHaveCount(0);
    await expectNoAxeViolations(page, "the refused URL");

    // Fixed, it is added, and the error goes.
    const url = receiver.url("/fixed");
    await addEndpoint(page, url);
    await expect(field).not.toHaveAttribute("aria-invalid");
    await expect(endpointItem(page, url)).toContainText("All events");
  });

  test("an endpoint that fails shows since when, and one the worker disabled says why", async ({
    page,
    request,
    receiver,
  }, testInfo) => {
    await signInAs(page, E2E_ADMIN, "/admin/webhooks");
    const url = receiver.url("/pets");
    await addEndpoint(page, url, ["pet.created"]);
    await page.getByRole("button", { name: "Done" }).click();
    const item = endpointItem(page, url);
    const addPet = async (name: string) => {
      const made = await request.post("/v1/pets", {
        headers: { Authorization: `Bearer ${adminApiKey()}` },
        data: { name, categoryId: 1, status: "available" },
      });
      expect(made.status()).toBe(201);
    };

    receiver.answer(500);
    await addPet(`Webhook ${Date.now().toString(36)}`);
    const row = item.getByTestId("webhook-delivery").first();
    await expect(row).toContainText("HTTP 500");
    await expect(row).toContainText("Pending");
    await expect(row.getByRole("cell").first()).toContainText("pet.created");
    await expect(row.getByRole("cell").first()).toContainText(/event \d+$/); // the feed's id, not the pet's
    await expect(row.locator("time")).toHaveCount(2); // the last attempt and the next
    await expect(item).toContainText("Failing since");

    receiver.answer(410);
    await addPet(`Webhook ${Date.now().toString(36)}`);
    await expect(item.getByTestId("webhook-state")).toContainText(
      /^Disabled on .+ UTC\s*The endpoint answered 410 Gone on .+: it asked for no more deliveries\.$/,
    );
    // The 410 went to the second pet's delivery, or to the first one's retry if that came first.
    await expect(item.getByTestId("webhook-delivery").filter({ hasText: "HTTP 410" }).first()).toContainText("Failed");
    await expectNoAxeViolations(page, "a disabled endpoint with failed and pending deliveries");
    await page.screenshot({ path: testInfo.outputPath("webhook-disabled.png"), fullPage: true });
  });

  test("a staff member who is not an admin gets the 403 page, and no Webhooks link", async ({ page }) => {
    await signInAs(page, E2E_STAFF, "/admin");
    await expect(page.getByRole("link", { name: "Catalogue" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Webhooks", exact: true })).toHaveCount(0);
    const response = await page.goto("/admin/webhooks");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { level: 1, name: "Admins only" })).toBeVisible();
    await expect(page.getByLabel("Endpoint URL")).toHaveCount(0);
    const listed = await page.request.get("/admin/api/webhooks");
    expect(listed.status()).toBe(403);
    expect(((await listed.json()) as { code: string }).code).toBe("admin_role_required");
  });
});

test.describe("the Webhooks page at phone width, by keyboard alone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("add, test, scroll the deliveries, disable, enable and delete with the keys; fits 390 px; axe clean", async ({
    page,
    receiver,
  }, testInfo) => {
    await signInAs(page, E2E_ADMIN, "/admin/webhooks");
    // How far the page reaches past the 390 px screen (a phone widens its layout viewport to what overflows).
    const overflow = () => page.evaluate(() => Math.max(document.documentElement.scrollWidth, window.innerWidth) - 390);
    const tallEnough = async (target: Locator, what: string) =>
      expect((await target.boundingBox())!.height, `${what} is at least 44 px tall`).toBeGreaterThanOrEqual(44);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await tallEnough(page.getByLabel("Endpoint URL"), "the URL input");
    await tallEnough(page.getByText("pet.created", { exact: true }), "a checkbox's label");
    await expectNoAxeViolations(page, "the Webhooks page at 390 px");

    const url = receiver.url(`/phone-${"x".repeat(60)}`);
    await tabTo(page, page.getByLabel("Endpoint URL"));
    await page.keyboard.type(url);
    await tabTo(page, page.getByRole("checkbox", { name: "category.created" }));
    await page.keyboard.press("Space");
    await expect(page.getByRole("checkbox", { name: "category.created" })).toBeChecked();
    await tabTo(page, page.getByRole("button", { name: "Add endpoint" }));
    await page.keyboard.press("Enter");
    const panel = page.getByRole("region", { name: `Added ${url}` });
    await expect(panel.getByRole("heading")).toBeFocused();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await tabTo(page, panel.getByRole("button", { name: "Done" }));
    await page.keyboard.press("Enter");
    await expect(panel).toHaveCount(0);

    const item = endpointItem(page, url);
    await expect(item).toContainText("category.created");
    for (const button of await item.getByRole("button").all()) await tallEnough(button, await button.innerText());
    await tabTo(page, item.getByRole("button", { name: "Send test event" }));
    await page.keyboard.press("Enter");
    await expect(item.getByTestId("webhook-news")).toHaveText(/^The test event was delivered/);
    await expect(item.getByTestId("webhook-delivery").first()).toContainText("Succeeded");

    // The table is wider than the phone: it scrolls inside its own box, from the keyboard too, not the page.
    const table = item.getByRole("region", { name: `Deliveries to ${url}` });
    await tabTo(page, table);
    const scrolled = () => table.evaluate((box) => box.scrollLeft);
    expect(await table.evaluate((box) => box.scrollWidth > box.clientWidth)).toBe(true);
    await page.keyboard.press("ArrowRight");
    await expect.poll(scrolled).toBeGreaterThan(0);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page, "an endpoint and its deliveries at 390 px");
    await page.screenshot({ path: testInfo.outputPath("phone-webhooks.png"), fullPage: true });

    // Disable and Enable are one button whose word changes: the focus stays on it.
    const toggle = item.getByRole("button", { name: "Disable" });
    await tabTo(page, toggle);
    await page.keyboard.press("Enter");
    await expect(item.getByTestId("webhook-state")).toContainText("Disabled on");
    await expect(item.getByRole("button", { name: "Enable" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(item.getByTestId("webhook-state")).toHaveText("Enabled");

    await tabTo(page, item.getByRole("button", { name: "Delete…" }));
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused(); // the safe choice first
    expect(await overflow()).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page, "the delete confirmation at 390 px");
    await page.keyboard.press("Tab");
    await expect(dialog.getByRole("button", { name: "Delete endpoint" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(item).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 2, name: "Endpoints" })).toBeFocused();
  });
});
