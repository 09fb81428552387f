import { chromiumAvailable, CHROMIUM } from "../playwright.config";
import { createKey, createStaff, createTestDatabase, startServer } from "../scripts/harness/servers";
import { E2E_ADMIN, E2E_STAFF } from "./staff-account";

// Starts the production server (server.ts, as `npm start` runs it) on 127.0.0.1, a free port and a
// fresh SQLite file, with the demo catalogue and two accounts created by the staff tool: a staff member
// and an admin. The admin app runs with ADMIN_API_KEY: the one secret of its own it can hold, which the
// specs watch for in everything the browser receives (and use to call /v1 themselves). The specs read
// where it is from the environment; global-teardown.ts stops it by its pid.

export default async function globalSetup(): Promise<void> {
  if (!chromiumAvailable) {
    console.warn(
      `\n*** Chromium is missing at ${CHROMIUM}: the browser tests are SKIPPED (apt-get install -y chromium). ***\n`,
    );
    return;
  }
  const database = await createTestDatabase("sqlite");
  await createStaff(database.url, E2E_STAFF.email, E2E_STAFF.password);
  await createStaff(database.url, E2E_ADMIN.email, E2E_ADMIN.password, "admin");
  const adminApiKey = await createKey(database.url, "e2e admin app");
  const server = await startServer("custom", database.url, { DEMO_SEED: "on", ADMIN_API_KEY: adminApiKey });
  process.env.E2E_ADMIN_API_KEY = adminApiKey;
  process.env.E2E_BASE_URL = server.baseUrl;
  process.env.E2E_SERVER_PID = String(server.pid);
  process.env.E2E_DATABASE_DIR = database.url.replace(/^file:/, "").replace(/\/[^/]+$/, "");
}
