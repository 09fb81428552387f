import type { BrowserContext, Page } from "@playwright/test";
import { E2E_ADMIN } from "./staff-account";
import { E2E_STAFF, expect, expectNoAxeViolations, signInAs, test } from "./support";

// How the app looks: dark mode (the system's setting, or the theme toggle's choice kept in a cookie) with no axe
// violation of any impact on any page in either scheme; the toggle by keyboard and remembered; and the phone:
// 44 × 44 px targets, nothing scrolling sideways at 360 px, and the add action in the first screen.

type Account = { email: string; password: string };
type Scheme = "light" | "dark";

/**
 * How a page is shown: the system's colour scheme (emulated) and the theme cookie the toggle sets. A forced theme
 * is tried against the opposite system setting, so it is seen to win.
 */
const MODES: { what: string; system: Scheme; cookie?: Scheme; shows: Scheme }[] = [
  { what: "system light", system: "light", shows: "light" },
  { what: "system dark", system: "dark", shows: "dark" },
  { what: "toggle light on a dark system", system: "dark", cookie: "light", shows: "light" },
  { what: "toggle dark on a light system", system: "light", cookie: "dark", shows: "dark" },
];

async function setThemeCookie(context: BrowserContext, theme: Scheme | undefined): Promise<void> {
  await context.clearCookies({ name: "theme" });
  if (theme) await context.addCookies([{ name: "theme", value: theme, url: process.env.E2E_BASE_URL! }]);
}

/** Whether the page's background is dark: its colour as the browser paints it, whatever notation the CSS used. */
async function paintedScheme(page: Page): Promise<Scheme> {
  const luminance = await page.evaluate(() => {
    const canvas = document.createElement("canvas").getContext("2d")!;
    canvas.fillStyle = getComputedStyle(document.body).backgroundColor;
    canvas.fillRect(0, 0, 1, 1);
    const [red, green, blue] = canvas.getImageData(0, 0, 1, 1).data;
    return (0.2126 * red + 0.7152 * green + 0.0722 * blue) / 255;
  });
  return luminance < 0.5 ? "dark" : "light";
}

const catalogueReady = async (page: Page) => {
  await expect(page.getByTestId("pet-row").first()).toBeVisible();
  await expect(page.getByTestId("match-count")).not.toBeEmpty();
};

/** Every page of the app, signed in as needed, in the state to check. */
const PAGES: { name: string; account?: Account; path: string; ready: (page: Page) => Promise<void> }[] = [
  {
    name: "sign-in",
    path: "/sign-in",
    ready: (page) => expect(page.getByRole("heading", { name: "Staff sign-in" })).toBeVisible(),
  },
  { name: "home", path: "/", ready: (page) => expect(page.locator("h1")).toBeVisible() },
  { name: "catalogue", account: E2E_STAFF, path: "/admin", ready: catalogueReady },
  { name: "catalogue filtered", account: E2E_STAFF, path: "/admin?status=sold", ready: catalogueReady },
  { name: "catalogue searched", account: E2E_STAFF, path: "/admin?q=a", ready: catalogueReady },
  {
    name: "catalogue with a validation error",
    account: E2E_STAFF,
    path: "/admin",
    ready: async (page) => {
      await catalogueReady(page);
      await page.getByRole("button", { name: "Add pet" }).click();
      await expect(page.locator("#pet-name")).toHaveAttribute("aria-invalid", "true");
    },
  },
  {
    name: "a pet's panel",
    account: E2E_STAFF,
    path: "/admin",
    ready: async (page) => {
      await catalogueReady(page);
      await page.getByTestId("pet-row").first().getByRole("link").click();
      await expect(page.getByTestId("pet-panel").getByRole("button", { name: "Delete this pet…" })).toBeVisible();
    },
  },
  {
    name: "orders (one open)",
    account: E2E_STAFF,
    path: "/admin/orders",
    ready: async (page) => {
      await page.getByTestId("order-row").first().getByRole("link").click();
      await expect(page.getByTestId("order-panel").getByTestId("order-timeline")).toBeVisible();
    },
  },
  {
    name: "categories (admin, a rename open)",
    account: E2E_ADMIN,
    path: "/admin/categories",
    ready: async (page) => {
      await expect(page.getByTestId("category-row").first()).toBeVisible();
      await page.getByRole("button", { name: "Rename Dogs" }).click();
      await expect(page.getByLabel("New name for “Dogs”")).toBeFocused();
    },
  },
  {
    name: "categories (staff)",
    account: E2E_STAFF,
    path: "/admin/categories",
    ready: (page) => expect(page.getByTestId("category-row").first()).toBeVisible(),
  },
  {
    name: "activity",
    account: E2E_ADMIN,
    path: "/admin/activity",
    ready: (page) => expect(page.getByRole("heading", { name: "Activity", level: 1 })).toBeVisible(),
  },
  {
    name: "API keys",
    account: E2E_ADMIN,
    path: "/admin/keys",
    ready: (page) => expect(page.getByRole("heading", { name: "API keys", level: 1 })).toBeVisible(),
  },
  {
    name: "webhooks",
    account: E2E_ADMIN,
    path: "/admin/webhooks",
    ready: (page) => expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible(),
  },
  {
    name: "staff",
    account: E2E_ADMIN,
    path: "/admin/staff",
    ready: (page) => expect(page.getByRole("heading", { name: "Staff", level: 1 })).toBeVisible(),
  },
  {
    name: "forbidden",
    account: E2E_STAFF,
    path: "/admin/keys",
    ready: (page) => expect(page.getByRole("heading", { name: "Admins only", level: 1 })).toBeVisible(),
  },
  {
    name: "docs",
    path: "/docs",
    // Swagger UI renders the whole document in the browser: on a busy machine that takes more than 10 s.
    ready: (page) => expect(page.locator("#operations-pets-listPets")).toBeVisible({ timeout: 30_000 }),
  },
];

test.describe("every page in both colour schemes", () => {
  for (const { name, account, path, ready } of PAGES) {
    test(`${name}: no axe violations, system light and dark, and with the toggle's theme`, async ({
      page,
      context,
    }) => {
      test.slow(); // four axe runs
      if (account) {
        // The forbidden page is a staff member's answer at an admin page: sign in at the catalogue instead.
        await signInAs(page, account, account === E2E_STAFF && path.startsWith("/admin/") ? "/admin" : path);
      }
      for (const mode of MODES) {
        await page.emulateMedia({ colorScheme: mode.system });
        await setThemeCookie(context, mode.cookie);
        await page.goto(path);
        await ready(page);
        await expect(page.locator("html")).toHaveAttribute("data-theme", mode.cookie ?? "system");
        expect(await paintedScheme(page), `${name}, ${mode.what}`).toBe(mode.shows);
        if (path === "/docs") {
          await expect(page.locator("html")).toHaveClass(mode.shows === "dark" ? /dark-mode/ : /^(?!.*dark-mode)/);
        }
        await expectNoAxeViolations(page, `${name}, ${mode.what}`);
      }
    });
  }
});

test.describe("the theme toggle", () => {
  test("works by keyboard, applies at once, and is remembered across reloads, pages and sign-in", async ({
    page,
    context,
  }) => {
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto("/sign-in");
    const theme = page.getByRole("group", { name: "Theme" });
    await expect(theme.getByRole("radio", { name: "System" })).toBeChecked();
    expect(await paintedScheme(page)).toBe("light");

    // Tab reaches the chosen radio; the arrow keys choose the next.
    for (let presses = 0; presses < 10; presses++) {
      await page.keyboard.press("Tab");
      if (await theme.getByRole("radio", { name: "System" }).evaluate((radio) => radio === document.activeElement)) {
        break;
      }
    }
    await expect(theme.getByRole("radio", { name: "System" })).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await expect(theme.getByRole("radio", { name: "Light" })).toBeChecked();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
    await page.keyboard.press("ArrowRight");
    await expect(theme.getByRole("radio", { name: "Dark" })).toBeChecked();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    expect(await paintedScheme(page)).toBe("dark");

    // Remembered: a reload, and the HTML the server sends a new page (so no light flash before any script).
    await page.reload();
    await expect(page.getByRole("group", { name: "Theme" }).getByRole("radio", { name: "Dark" })).toBeChecked();
    expect(await paintedScheme(page)).toBe("dark");
    const html = await (await context.request.get("/sign-in")).text();
    expect(html).toMatch(/<html[^>]* data-theme="dark"/);

    // A new page of the same browser, and after signing in: the admin header's toggle shows it too.
    const other = await context.newPage();
    await other.emulateMedia({ colorScheme: "light" });
    await signInAs(other, E2E_STAFF, "/admin");
    const headerTheme = other.getByRole("banner").getByRole("group", { name: "Theme" });
    await expect(headerTheme.getByRole("radio", { name: "Dark" })).toBeChecked();
    expect(await paintedScheme(other)).toBe("dark");

    // Back to System by keyboard: the page follows the system setting again, also when it changes.
    await headerTheme.getByRole("radio", { name: "Dark" }).focus();
    await other.keyboard.press("ArrowRight"); // wraps round to the first
    await expect(headerTheme.getByRole("radio", { name: "System" })).toBeChecked();
    await expect(other.locator("html")).toHaveAttribute("data-theme", "system");
    expect(await paintedScheme(other)).toBe("light");
    await other.emulateMedia({ colorScheme: "dark" });
    expect(await paintedScheme(other)).toBe("dark");
    await other.reload();
    await expect(other.locator("html")).toHaveAttribute("data-theme", "system");
    expect((await context.cookies()).find((cookie) => cookie.name === "theme")?.value).toBe("system");
    await other.close();
  });

  test("an unknown theme cookie is the system setting", async ({ page, context }) => {
    await context.addCookies([{ name: "theme", value: "<purple>", url: process.env.E2E_BASE_URL! }]);
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto("/sign-in");
    await expect(page.locator("html")).toHaveAttribute("data-theme", "system");
    await expect(page.getByRole("radio", { name: "System" })).toBeChecked();
    expect(await paintedScheme(page)).toBe("dark");
  });
});

/**
 * The interactive elements that show and are smaller than 44 × 44 px, each as "what (w × h)". Fails if fewer than
 * `atLeast` were measured, so a page that did not render cannot pass.
 */
async function smallTargets(page: Page, atLeast: number): Promise<string[]> {
  const { measured, small } = await page.evaluate(() => {
    const selector =
      "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], " +
      "[tabindex]:not([tabindex='-1'])";
    const small: string[] = [];
    let measured = 0;
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      if (box.width === 0 || box.height === 0 || style.visibility === "hidden") continue; // not shown
      measured++;
      if (box.width < 44 || box.height < 44) {
        const label = element.getAttribute("aria-label") ?? element.textContent?.trim() ?? "";
        const what = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""} "${label.slice(0, 30)}"`;
        small.push(`${what} (${Math.round(box.width)} × ${Math.round(box.height)})`);
      }
    }
    return { measured, small };
  });
  expect(measured, "interactive elements measured").toBeGreaterThanOrEqual(atLeast);
  return small;
}

const horizontalOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test.describe("on a phone (390 × 844)", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the sign-in page's targets are 44 × 44 px or more", async ({ page }) => {
    await page.goto("/sign-in");
    await expect(page.getByRole("radio", { name: "System" })).toBeVisible();
    expect(await smallTargets(page, 6)).toEqual([]);
  });

  test("the catalogue's and a pet panel's targets are 44 × 44 px or more, and the add action is in view", async ({
    page,
  }) => {
    await signInAs(page, E2E_STAFF, "/admin");
    await catalogueReady(page);
    await expect(page.getByRole("link", { name: "Next" })).toBeVisible();
    expect(await smallTargets(page, 35), "the catalogue").toEqual([]);

    // The add action is in the first screen, above the table; it takes the focus to the form below the table.
    const add = page.getByRole("button", { name: "Add a pet" });
    const box = (await add.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    expect(box.y).toBeLessThan((await page.getByRole("table").boundingBox())!.y);
    await add.tap();
    await expect(page.getByLabel("Name", { exact: true })).toBeFocused();
    await expect(page.getByLabel("Name", { exact: true })).toBeInViewport();

    // A validation error shown, and then a pet's panel.
    await page.getByRole("button", { name: "Add pet" }).tap();
    await expect(page.locator("#pet-name")).toHaveAttribute("aria-invalid", "true");
    expect(await smallTargets(page, 35), "the catalogue with errors").toEqual([]);
    await page.getByTestId("pet-row").first().getByRole("link").tap();
    await expect(page.getByTestId("pet-panel").getByRole("button", { name: "Delete this pet…" })).toBeVisible();
    expect(await smallTargets(page, 35), "a pet's panel").toEqual([]);
  });
});

test.describe("at 360 px wide", () => {
  test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

  for (const { name, account, path, ready } of PAGES) {
    test(`${name}: nothing scrolls sideways but the table in its own box`, async ({ page }) => {
      if (account) await signInAs(page, account, account === E2E_STAFF && path.startsWith("/admin/") ? "/admin" : path);
      await page.goto(path);
      await ready(page);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    });
  }
});
