import { chromiumAvailable, CHROMIUM } from "../playwright.config";

// Says once, loudly, when the browser tests cannot run. Each worker starts its own server (e2e/support.ts).

export default function globalSetup(): void {
  if (!chromiumAvailable) {
    console.warn(
      `\n*** Chromium is missing at ${CHROMIUM}: the browser tests are SKIPPED (apt-get install -y chromium). ***\n`,
    );
  }
}
