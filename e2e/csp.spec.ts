import type { Page } from "@playwright/test";
import { expect, signInWithForm, test } from "./support";

// No page breaks its own Content-Security-Policy, not even in a probe whose failure is swallowed: zod 4 tests
// whether `new Function("")` is allowed, which fires a securitypolicyviolation (and "Refused to evaluate" in the
// console) unless zod runs jitless (instrumentation-client.ts). Both signals are collected from the first script on.

type Violation = { directive: string; blocked: string; source: string };

async function watchViolations(page: Page): Promise<{ events: Violation[]; console: string[] }> {
  const events: Violation[] = [];
  const console: string[] = [];
  await page.exposeFunction("reportCspViolation", (violation: Violation) => events.push(violation));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as { reportCspViolation: (violation: Violation) => void }).reportCspViolation;
      report({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        source: `${event.sourceFile}:${event.lineNumber}`,
      });
    });
  });
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to /i.test(message.text())) console.push(message.text());
  });
  return { events, console };
}

test.describe("Content-Security-Policy", () => {
  test("sign-in, the catalogue and the API reference log no CSP violation, eval included", async ({ page }) => {
    const seen = await watchViolations(page);

    await page.goto("/sign-in");
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
    await signInWithForm(page);
    // zod probes when a schema is built, that is when the catalogue's modules load: the page itself is the test.
    await page.getByTestId("pet-row").first().getByRole("link").first().click();
    await expect(page).toHaveURL(/[?&]pet=/);
    await page.goto("/docs");
    await expect(page.locator(".opblock-summary").first()).toBeVisible();
    // The events are delivered asynchronously: give a late one the time to arrive before concluding.
    await page.waitForTimeout(500);

    expect(seen.events).toEqual([]);
    expect(seen.console).toEqual([]);
  });
});
