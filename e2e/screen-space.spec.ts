import type { Page } from "@playwright/test";
import { E2E_ADMIN } from "./staff-account";
import { expect, expectNoAxeViolations, signIn, signInAs, test } from "./support";

// Screen space (issue 24 item 6), measured in the browser: one header row at desktop widths; the first pet row
// within the first screen of a 390 × 844 phone; the add form reachable while a pet is open; notifications never
// over the control in use; and no layout shift when a pet opens on a phone (Cumulative Layout Shift of that
// interaction, from a PerformanceObserver of 'layout-shift' entries, at most 0.1, "good" by Web Vitals).

/** The top and bottom of every item of the header's rows, rounded to the pixel. */
async function headerItems(page: Page): Promise<{ text: string; top: number; bottom: number }[]> {
  return page.locator("header").evaluate((header) =>
    [...header.querySelectorAll<HTMLElement>("a, button, span, [role=radiogroup], nav")]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        // The skip link waits above the top edge until focused; text for screen readers only is a 1 px box.
        return box.width > 1 && box.height > 1 && box.bottom > 0;
      })
      .map((element) => {
        const box = element.getBoundingClientRect();
        return { text: element.textContent?.trim().slice(0, 20) ?? "", top: box.top, bottom: box.bottom };
      }),
  );
}

/**
 * Starts summing layout shifts from now on. Every shift counts, even within 500 ms of a key press or a tap (which
 * CLS excuses): opening a pet is an input, and the shifts that follow it are what a staff member sees.
 */
async function watchLayoutShift(page: Page): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    const state = window as unknown as { shift: number };
    state.shift = 0;
    new PerformanceObserver((list) => {
      type Shift = PerformanceEntry & {
        value: number;
        sources: { node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
      };
      for (const entry of list.getEntries() as Shift[]) {
        state.shift += entry.value;
        // What moved, for the test's log when the sum is too high.
        const moved = entry.sources.map((source) => {
          const node = source.node instanceof Element ? source.node : source.node?.parentElement;
          const { y: from } = source.previousRect;
          const { y: to } = source.currentRect;
          return `${node?.tagName}.${node?.className.toString().slice(0, 40)} ${Math.round(from)}→${Math.round(to)}`;
        });
        console.log(`layout shift ${entry.value.toFixed(3)}: ${moved.join("; ")}`);
      }
    }).observe({ type: "layout-shift", buffered: false });
  });
  return () => page.evaluate(() => (window as unknown as { shift: number }).shift);
}

/** Whether two boxes overlap. */
function overlaps(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/**
 * Adds a pet from the keyboard (its notification stays), then puts controls where the notification would be: at the
 * foot of the screen, scrolled there. The notification never overlaps the control that has the focus.
 */
async function notificationStaysClear(page: Page): Promise<void> {
  await signIn(page);
  await page.getByLabel("Name", { exact: true }).fill(`Spacious ${Date.now().toString(36)}`);
  await page.getByLabel("Category", { exact: true }).selectOption({ index: 1 });
  const add = page.getByRole("button", { name: "Add pet" });
  await add.focus();
  await page.keyboard.press("Enter");
  const shown = page.getByTestId("notification").first();
  await expect(shown).toBeVisible();
  const focusedBox = () =>
    page.evaluate(() => {
      const box = document.activeElement!.getBoundingClientRect();
      return { x: box.x, y: box.y, width: box.width, height: box.height };
    });
  expect(overlaps((await shown.boundingBox())!, await focusedBox())).toBe(false);
  for (const target of [page.getByLabel("Name", { exact: true }), add, page.getByRole("link", { name: "Next" })]) {
    await target.focus();
    await target.evaluate((element) => {
      const box = element.getBoundingClientRect();
      window.scrollBy(0, box.bottom - window.innerHeight + 8);
    });
    await expect.poll(async () => overlaps((await shown.boundingBox())!, await focusedBox())).toBe(false);
  }
  await expectNoAxeViolations(page, "a notification out of the focused control's way");
}

test.describe("screen space at desktop widths (1280 × 800)", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  for (const account of ["staff", "admin"] as const) {
    test(`the header is one row for ${account === "admin" ? "an admin (seven sections)" : "a staff member"}`, async ({
      page,
    }) => {
      if (account === "admin") await signInAs(page, E2E_ADMIN, "/admin");
      else await signIn(page);
      await expect(page.getByTestId("pet-row").first()).toBeVisible();
      const items = await headerItems(page);
      expect(items.length).toBeGreaterThan(4);
      const tops = items.map((item) => item.top);
      const bottoms = items.map((item) => item.bottom);
      // One row: every item overlaps every other vertically, so none sits below another.
      expect(Math.max(...tops), JSON.stringify(items)).toBeLessThan(Math.min(...bottoms));
      const header = (await page.locator("header").boundingBox())!;
      expect(header.height).toBeLessThanOrEqual(72);
      // From 1024 px on (lg): still one row, and nothing scrolls sideways.
      for (const width of [1024, 1152]) {
        await page.setViewportSize({ width, height: 800 });
        const narrower = await headerItems(page);
        expect(
          Math.max(...narrower.map((item) => item.top)),
          `at ${width} px: ${JSON.stringify(narrower)}`,
        ).toBeLessThan(Math.min(...narrower.map((item) => item.bottom)));
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `at ${width} px`).toBeLessThanOrEqual(
          width,
        );
      }
    });
  }

  test("the add form is one click away while a pet is open", async ({ page }) => {
    await signIn(page);
    await page.getByTestId("pet-row").first().getByRole("link").click();
    await expect(page.getByTestId("pet-panel")).toBeVisible();
    const add = page.getByRole("button", { name: "Add a pet" });
    await expect(add).toBeVisible();
    await add.click();
    // The pet's panel gives the form its place back, and the form's first field has the focus.
    const name = page.getByLabel("Name", { exact: true });
    await expect(name).toBeFocused();
    await expect(name).toBeInViewport();
    await expect(page.getByTestId("pet-panel")).toHaveCount(0);
    await expectNoAxeViolations(page, "the add form reached from an open pet");
  });

  test("a notification never covers the control that has the focus", async ({ page }) => {
    await notificationStaysClear(page);
  });
});

test.describe("screen space on a phone (390 × 844)", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the first pet row is within the first screen", async ({ page }) => {
    await signIn(page);
    const row = page.getByTestId("pet-row").first();
    await expect(row).toBeVisible();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const box = (await row.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    await expectNoAxeViolations(page, "the catalogue's first screen at 390 px");
  });

  test("a notification never covers the control that has the focus, at the foot of a phone's screen", async ({
    page,
  }) => {
    await notificationStaysClear(page);
  });

  test("an open pet covers the screen as a dialog: Tab stays in it, and closing gives the page back", async ({
    page,
  }) => {
    await signIn(page);
    const link = page.getByTestId("pet-row").first().getByRole("link");
    await link.focus();
    await page.keyboard.press("Enter");
    const sheet = page.getByRole("dialog", { name: /.+/ }).and(page.getByTestId("pet-panel"));
    await expect(sheet).toBeVisible();
    await expect(sheet).toHaveAttribute("aria-modal", "true");
    await expect(sheet.getByRole("button", { name: "Delete this pet…" })).toBeVisible();
    // Around the whole sheet and back: the focus never reaches the table or the header it covers.
    for (let presses = 0; presses < 40; presses++) {
      await page.keyboard.press("Tab");
      const inside = await page.evaluate(() => {
        const active = document.activeElement;
        const panel = document.querySelector('[data-testid="pet-panel"]');
        return !active || active === document.body || Boolean(panel?.contains(active));
      });
      expect(inside, `Tab ${presses + 1} stays in the sheet`).toBe(true);
    }
    await expectNoAxeViolations(page, "a pet open as a sheet at 390 px");
    // The keys that act on the open pet work over it; one reaching the covered page does nothing.
    const heading = sheet.getByRole("heading", { level: 2 });
    await heading.focus();
    await page.keyboard.press("/");
    await expect(heading).toBeFocused();
    await page.keyboard.press("e");
    await expect(page.locator("#edit-pet-name")).toBeFocused();
    await sheet.getByRole("link", { name: "Close" }).click();
    await expect(page.getByTestId("pet-panel")).toHaveCount(0);
    await expect(page.getByTestId("pet-row").first().getByRole("link")).toBeVisible();
    expect(await page.evaluate(() => document.querySelectorAll("[inert]").length)).toBe(0);
  });

  test("opening a pet shifts nothing: layout shift of the opening at most 0.1", async ({ page }) => {
    page.on("console", (message) => {
      if (message.text().startsWith("layout shift")) console.log(message.text());
    });
    await signIn(page);
    await expect(page.getByTestId("pet-row").first()).toBeVisible();
    await expect(page.getByTestId("match-count")).not.toBeEmpty();
    const shift = await watchLayoutShift(page);
    await page.getByTestId("pet-row").first().getByRole("link").focus();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("pet-panel").getByRole("button", { name: "Delete this pet…" })).toBeVisible();
    await page.waitForTimeout(500);
    const score = await shift();
    console.log(`layout shift when a pet opens at 390 px: ${score.toFixed(3)}`);
    expect(score).toBeLessThanOrEqual(0.1);
    await expectNoAxeViolations(page, "a pet open at 390 px");
  });
});
