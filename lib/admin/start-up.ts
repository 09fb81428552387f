import "server-only";
import { randomBytes } from "node:crypto";
import { adminAppKey, removeEarlierKeyFile } from "@/lib/auth/admin-key";
import type { DatabaseConfig } from "@/lib/config";
import { countStaff, createStaff } from "@/lib/auth/staff";

// The admin app's start-up work, run by server.ts after migrating and seeding: settle its API key
// (a bad ADMIN_API_KEY stops the app here, in one line) and remove an earlier version's key file, and
// give an empty embedded database a demo staff account whose credentials are printed this once.

export const DEMO_STAFF_EMAIL = "demo@animal-store.example";

export async function prepareAdminApp(database: DatabaseConfig, options: { demo: boolean }): Promise<void> {
  await adminAppKey();
  removeEarlierKeyFile(database);
  if ((await countStaff()) > 0) return;
  if (!options.demo || database.provider !== "sqlite") {
    console.log("No staff account exists yet. Create one with:  npm run staff -- create <email>");
    return;
  }
  const password = randomBytes(12).toString("base64url");
  try {
    await createStaff(DEMO_STAFF_EMAIL, password);
  } catch (error) {
    if ((await countStaff()) > 0) return; // another instance created it meanwhile
    throw error;
  }
  console.log(
    [
      "Demo staff account created. Sign in to the admin app (/sign-in) with:",
      `  email:    ${DEMO_STAFF_EMAIL}`,
      `  password: ${password}`,
      "It is shown only this once. Manage staff with: npm run staff -- create <email> | list | disable <email>",
    ].join("\n"),
  );
}
