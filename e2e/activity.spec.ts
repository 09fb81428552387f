import fs from "node:fs";
import type { APIRequestContext, Browser, Locator, Page } from "@playwright/test";
import { E2E_ADMIN } from "./staff-account";
import { adminApiKey, E2E_STAFF, expect, expectNoAxeViolations, signInAs, test } from "./support";

// The activity log in the browser (issue 11): a pet's History shows a change another staff member made, and a
// change made in the panel joins it at once; an admin filters the Activity page (the URL keeps the filters),
// pages it by keyboard, and exports the filtered records as CSV; the page passes axe and fits a 390 px screen.
// Every pet here is made here, through /v1, so the demo catalogue the other specs count on stays as it is.

type MadePet = { id: string; name: string };

let made = 0;
function uniqueName(stem: string): string {
  made += 1;
  return `${stem} ${Date.now().toString(36)}${made}`;
}

async function makePet(request: APIRequestContext, name: string): Promise<MadePet> {
  const response = await request.post("/v1/pets", {
    headers: { Authorization: `Bearer ${adminApiKey()}` },
    data: { name, categoryId: 6, status: "available" },
  });
  expect(response.status()).toBe(201);
  const body = (await response.json()) as { id: number };
  return { id: String(body.id), name };
}

/** A page of its own browser context: another person's browser. */
async function personOf(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  return context.newPage();
}

function panelOf(page: Page): Locator {
  return page.getByTestId("pet-panel");
}

function statusButton(page: Page, status: string): Locator {
  return panelOf(page)
    .getByRole("group", { name: "Set the status" })
    .getByRole("button", { name: status, exact: true });
}

/** Presses Tab until `target` has the focus; fails if it is never reached. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let presses = 0; presses < 60; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error("the element was never reached by Tab");
}

/** How a record's exact time reads, the admin app's one format: "24 Nov 2026, 08:05 UTC" (the browser's zone). */
const EXACT_TIME = /^\d{1,2} [A-Z][a-z]{2,3} \d{4}, \d{2}:\d{2} \S+$/;

/** The Activity page's live status, and that the list of records is not in any live region itself. */
async function expectStatus(page: Page, text: string | RegExp): Promise<void> {
  const status = page.getByRole("status").filter({ hasText: text });
  await expect(status).toHaveText(text);
  await expect(status).toHaveCount(1);
  const list = page.getByTestId("activity");
  if ((await list.count()) > 0) {
    const live = await list.evaluate((element) =>
      Boolean(element.closest('[aria-live], [role="status"], [role="log"], [role="alert"]')),
    );
    expect(live, "the list of records is outside every live region").toBe(false);
  }
}

function catalogueOf(pet: MadePet): string {
  return `/admin?${new URLSearchParams({ limit: "20", q: pet.name, pet: pet.id })}`;
}

test("a pet's History shows the status another staff member set, and a change made in the panel", async ({
  browser,
  baseURL,
  request,
}) => {
  const pet = await makePet(request, uniqueName("Quokka"));
  const admin = await personOf(browser, baseURL);
  const staff = await personOf(browser, baseURL);
  try {
    await signInAs(admin, E2E_ADMIN, catalogueOf(pet));
    await expect(statusButton(admin, "sold")).toHaveAttribute("aria-disabled", "false");
    await statusButton(admin, "sold").click();
    await expect(statusButton(admin, "sold")).toHaveAttribute("aria-pressed", "true");
    await expect(panelOf(admin).getByTestId("pet-history-summary").first()).toHaveText(
      `${E2E_ADMIN.email} marked ${pet.name} (#${pet.id}) sold`,
    );

    await signInAs(staff, E2E_STAFF, catalogueOf(pet));
    const history = panelOf(staff).getByRole("region", { name: "History" });
    await expect(history.getByTestId("pet-history-summary")).toHaveText([
      `${E2E_ADMIN.email} marked ${pet.name} (#${pet.id}) sold`,
      new RegExp(` added ${pet.name} \\(#${pet.id}\\)$`),
    ]);
    await expect(history.locator("time").first()).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}T/);
    // The exact time is shown, not only in a title keyboard and touch users cannot reach.
    await expect(history.getByTestId("record-exact-time").first()).toBeVisible();
    await expect(history.getByTestId("record-exact-time").first()).toHaveText(EXACT_TIME);

    await expect(statusButton(staff, "pending")).toHaveAttribute("aria-disabled", "false");
    await statusButton(staff, "pending").click();
    await expect(history.getByTestId("pet-history-summary").first()).toHaveText(
      `${E2E_STAFF.email} marked ${pet.name} (#${pet.id}) pending`,
    );
    await expect(history.getByTestId("pet-history-summary")).toHaveCount(3);
  } finally {
    await admin.context().close();
    await staff.context().close();
  }
});

test("an admin filters the Activity page, keeps the filters in the URL, and exports them as CSV", async ({
  page,
  request,
}) => {
  const pet = await makePet(request, uniqueName("=Tapir"));
  for (const status of ["pending", "sold"]) {
    const response = await request.patch(`/v1/pets/${pet.id}`, {
      headers: { Authorization: `Bearer ${adminApiKey()}`, "Content-Type": "application/merge-patch+json" },
      data: { status },
    });
    expect(response.status()).toBe(200);
  }
  await signInAs(page, E2E_ADMIN, "/admin/activity");
  await expect(page.getByRole("heading", { name: "Activity", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Activity" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("activity-record").first()).toBeVisible();
  await expectStatus(page, /^\d+ records?, newest first\.$/);
  await expectNoAxeViolations(page, "the Activity page");

  await page.getByLabel("Pet id").fill(pet.id);
  await page.getByLabel("What").selectOption("pet.updated");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL((url) => url.searchParams.get("pet") === pet.id);
  expect(new URL(page.url()).searchParams.get("action")).toBe("pet.updated");
  const summaries = page.getByTestId("activity-summary");
  await expect(summaries).toHaveText([
    new RegExp(` marked ${pet.name} \\(#${pet.id}\\) sold$`),
    new RegExp(` marked ${pet.name} \\(#${pet.id}\\) pending$`),
  ]);
  await expectStatus(page, "2 records matching these filters, newest first.");
  const time = page.getByTestId("activity-record").first().locator("time");
  await expect(time).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}T/);
  await expect(time.getByTestId("record-exact-time")).toBeVisible();
  await expect(time.getByTestId("record-exact-time")).toHaveText(EXACT_TIME);
  await expectNoAxeViolations(page, "the Activity page, filtered");

  // The URL is the state: a reload shows the same records, the filters still chosen.
  await page.reload();
  await expect(summaries).toHaveCount(2);
  await expect(page.getByLabel("Pet id")).toHaveValue(pet.id);
  await expect(page.getByLabel("What")).toHaveValue("pet.updated");

  const exportLink = page.getByRole("link", { name: /Export CSV/ });
  await expect(exportLink).toHaveAttribute("href", `/admin/api/activity/export?action=pet.updated&pet=${pet.id}`);
  const [download] = await Promise.all([page.waitForEvent("download"), exportLink.click()]);
  expect(download.suggestedFilename()).toMatch(/^activity-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = fs.readFileSync(await download.path(), "utf8");
  const lines = csv.trimEnd().split("\r\n");
  expect(lines[0]).toBe(
    "id,at,actor_type,actor_id,actor,action,target_type,target_id,target,summary,client_address,request_id,details",
  );
  expect(lines).toHaveLength(3);
  for (const line of lines.slice(1)) {
    expect(line).toContain(`,pet.updated,pet,${pet.id},'${pet.name},`);
  }

  // Clearing the filters goes back to every record.
  await page.getByRole("link", { name: "Clear" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/admin/activity" && url.search === "");
  await expect(page.getByLabel("Pet id")).toHaveValue("");
});

test("a pet id that is not one is explained under the field and never sent; actions are named in words", async ({
  page,
}) => {
  const asked: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/admin/api/activity?") && request.url().includes("pet=")) asked.push(request.url());
  });
  await signInAs(page, E2E_ADMIN, "/admin/activity");
  await expect(page.getByTestId("activity-record").first()).toBeVisible();

  // Every action the log knows has words, none its code (api_key.made_admin_app…).
  const actions = await page.getByLabel("What").locator("option").allInnerTexts();
  expect(actions).toContain("Made the admin app's key");
  expect(actions.filter((label) => /[._]/.test(label))).toEqual([]);

  const field = page.getByLabel("Pet id");
  await field.fill("Rex");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(field).toBeFocused();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(/A pet id is a whole number of 1 or more, such as 12: digits only\./);
  await expect(page).toHaveURL((url) => !url.searchParams.has("pet"));
  await expect(page.getByText(/Invalid query/)).toHaveCount(0);
  await expectNoAxeViolations(page, "the pet id filter refused");

  // A link naming one is told the same, and the server is not asked either.
  await page.goto("/admin/activity?pet=Rex");
  await expect(page.getByLabel("Pet id")).toHaveAccessibleDescription(/A pet id is a whole number/);
  await expect(page.getByText(/Invalid query/)).toHaveCount(0);
  expect(asked).toEqual([]);
});

test("the Activity page's filters and paging work by keyboard alone", async ({ page, request }) => {
  const pet = await makePet(request, uniqueName("Okapi"));
  for (const status of ["pending", "sold", "available"]) {
    const response = await request.patch(`/v1/pets/${pet.id}`, {
      headers: { Authorization: `Bearer ${adminApiKey()}`, "Content-Type": "application/merge-patch+json" },
      data: { status },
    });
    expect(response.status()).toBe(200);
  }
  await signInAs(page, E2E_ADMIN, "/admin/activity?limit=2");
  await expect(page.getByTestId("activity-record")).toHaveCount(2);

  await tabTo(page, page.getByLabel("Pet id"));
  await page.keyboard.type(pet.id);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL((url) => url.searchParams.get("pet") === pet.id);
  const summaries = page.getByTestId("activity-summary");
  await expect(summaries).toHaveText([/ marked .* available$/, / marked .* sold$/]);

  // The "Who" select by keyboard: the first choice after "Anyone" is a staff account, who changed nothing here.
  await tabTo(page, page.getByLabel("Who"));
  await page.keyboard.press("ArrowDown");
  await tabTo(page, page.getByRole("button", { name: "Filter" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL((url) => (url.searchParams.get("actor") ?? "").startsWith("staff:"));
  await expect(page.getByText("No records match these filters.")).toBeVisible();
  await expectStatus(page, "No records match these filters.");
  await tabTo(page, page.getByRole("link", { name: "Clear" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL((url) => url.search === "");

  await page.goto(`/admin/activity?limit=2&pet=${pet.id}`);
  await expect(summaries).toHaveText([/ available$/, / sold$/]);
  await tabTo(page, page.getByRole("link", { name: "Older" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL((url) => url.searchParams.has("cursor"));
  await expect(summaries).toHaveText([/ pending$/, new RegExp(` added ${pet.name} \\(#${pet.id}\\)$`)]);
  await expectStatus(page, "2 older records matching these filters, newest first.");
  await expect(page.getByRole("link", { name: "Older" })).toHaveCount(0);
  await tabTo(page, page.getByRole("link", { name: "Newest" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL((url) => !url.searchParams.has("cursor") && url.searchParams.get("pet") === pet.id);
  await expect(summaries).toHaveText([/ available$/, / sold$/]);
});

test.describe("in a browser whose time zone is Berlin", () => {
  test.use({ timezoneId: "Europe/Berlin" });

  test("times read in that zone, named, with no hydration mismatch", async ({ page }) => {
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" && /hydrat/i.test(message.text())) problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    await signInAs(page, E2E_ADMIN, "/admin/activity");
    const exact = page.getByTestId("record-exact-time").first();
    // November in Berlin is CET (summer: CEST).
    await expect(exact).toHaveText(/^\d{1,2} [A-Z][a-z]{2,3} \d{4}, \d{2}:\d{2} CES?T$/);
    const at = await page.getByTestId("activity-record").first().locator("time").getAttribute("datetime");
    const berlin = new Intl.DateTimeFormat("en-GB", {
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZone: "Europe/Berlin",
    }).format(new Date(at!));
    await expect(exact).toContainText(`, ${berlin} `);
    expect(problems).toEqual([]);
  });
});

test.describe("the Activity page at phone width", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("fits 390 px, has 44 px targets and no axe violations", async ({ page, request }, testInfo) => {
    const pet = await makePet(request, uniqueName("Pangolin with a rather long name to wrap"));
    await signInAs(page, E2E_ADMIN, `/admin/activity?pet=${pet.id}`);
    await expect(page.getByTestId("activity-record")).toHaveCount(1);
    await expect(page.getByTestId("record-exact-time")).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const targets = [
      page.getByLabel("Who"),
      page.getByLabel("What"),
      page.getByLabel("Pet id"),
      page.getByRole("button", { name: "Filter" }),
      page.getByRole("link", { name: "Clear" }),
      page.getByRole("link", { name: /Export CSV/ }),
      page.getByRole("link", { name: `Open pet #${pet.id}` }),
    ];
    for (const target of targets) {
      const box = (await target.boundingBox())!;
      expect(box.height, `${await target.textContent()} is at least 44 px tall`).toBeGreaterThanOrEqual(44);
    }
    await expectNoAxeViolations(page, "the Activity page at 390 px");
    await page.screenshot({ path: testInfo.outputPath("phone-activity.png"), fullPage: true });
    await page.getByRole("link", { name: `Open pet #${pet.id}` }).tap();
    await expect(page).toHaveURL((url) => url.pathname === "/admin" && url.searchParams.get("pet") === pet.id);
    await expect(panelOf(page)).toBeVisible();
  });
});
