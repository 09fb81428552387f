import { expect, signInWithForm, test } from "./support";

// The pages' security headers, and that the pages still work under their Content-Security-Policy.

test.describe("security headers", () => {
  test("every page sends a nonce CSP that forbids framing, plus nosniff and a strict referrer policy", async ({
    page,
  }) => {
    const nonces = new Set<string>();
    for (const path of ["/sign-in", "/docs", "/"]) {
      const response = await page.goto(path);
      const headers = response!.headers();
      const policy = headers["content-security-policy"] ?? "";
      expect(policy, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
      expect(policy, path).toContain("frame-ancestors 'none'");
      expect(policy, path).toContain("object-src 'none'");
      expect(headers["x-content-type-options"], path).toBe("nosniff");
      expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
      expect(headers["x-frame-options"], path).toBe("DENY");
      nonces.add(/'nonce-([^']+)'/.exec(policy)![1]);
    }
    expect(nonces.size, "a fresh nonce per response").toBe(3);
  });

  test("the admin app and the API reference run without a single CSP violation", async ({ page }) => {
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to (load|execute|apply)/i.test(message.text()))
        violations.push(message.text());
    });
    await signInWithForm(page);
    await page.getByRole("link", { name: "pending" }).click();
    await expect(page.getByTestId("pet-row").first()).toBeVisible();
    await page.goto("/docs");
    await expect(page.getByText("listPets").or(page.getByText("List pets")).first()).toBeVisible();
    expect(violations).toEqual([]);
  });
});
