import "server-only";
import { randomBytes } from "node:crypto";
import { adminAppKey, removeEarlierKeyFile } from "@/lib/auth/admin-key";
import { reachableFromOtherMachines, type Config } from "@/lib/config";
import { THE_APP } from "@/lib/audit/record";
import { countStaff, createStaff, disableStaff, listStaff } from "@/lib/auth/staff";
import { log } from "@/lib/log";

// The admin app's start-up work, run by server.ts after migrating and seeding: settle its API key
// (a bad ADMIN_API_KEY stops the app here, in one line), remove an earlier version's key file, and
// give an empty embedded database a demo staff account whose credentials are printed this once, so
// that `npm install && npm start` on a newcomer's machine ends with a sign-in.
//
// Only on loopback: the demo account's email is public and its password lands in whatever keeps the
// server's output, often a log. An instance other machines can reach (HOST beyond loopback,
// TRUSTED_PROXIES, or a public PUBLIC_ORIGIN) never gets one, and a demo account made earlier on
// loopback is disabled there, its sessions ended. Its first staff account comes from the staff tool.

export const DEMO_STAFF_EMAIL = "demo@animal-store.example";

const CREATE_STAFF =
  "No staff account exists yet. Create the first admin with:  npm run staff -- create <email> --role admin";

export async function prepareAdminApp(settings: Config): Promise<void> {
  await adminAppKey();
  removeEarlierKeyFile(settings.database);
  await settleStaff(settings);
  await warnWithoutAdmin();
}

/**
 * Staff accounts exist but none is an enabled admin (the last admin disabled with the tool, or an upgrade whose
 * only accounts were disabled): the admin-only pages are closed to everyone until the staff tool makes one.
 */
async function warnWithoutAdmin(): Promise<void> {
  const staff = await listStaff();
  if (staff.length === 0 || staff.some((member) => member.role === "admin" && !member.disabledAt)) return;
  log("warn", "no enabled admin", {
    reason: "the API keys, Staff and Activity pages are open to admins only, and no enabled account is one",
    action: "make one with: npm run staff -- role <email> admin (or create one with --role admin)",
  });
}

async function settleStaff(settings: Config): Promise<void> {
  if (reachableFromOtherMachines(settings)) return withoutDemoStaff(settings);
  if ((await countStaff()) > 0) return;
  if (settings.DEMO_SEED !== "on" || settings.database.provider !== "sqlite") {
    console.log(CREATE_STAFF);
    return;
  }
  const password = randomBytes(12).toString("base64url");
  try {
    await createStaff(DEMO_STAFF_EMAIL, password, { role: "admin", audit: THE_APP }); // the newcomer sees every page
  } catch (error) {
    if ((await countStaff()) > 0) return; // another instance created it meanwhile
    throw error;
  }
  console.log(
    [
      "Demo admin account created. Sign in to the admin app (/sign-in) with:",
      `  email:    ${DEMO_STAFF_EMAIL}`,
      `  password: ${password}`,
      "It is shown only this once. Manage staff on the Staff page (/admin/staff) or with: npm run staff -- list",
    ].join("\n"),
  );
}

async function withoutDemoStaff(settings: Config): Promise<void> {
  const staff = await listStaff();
  const demo = staff.find((member) => member.email === DEMO_STAFF_EMAIL && !member.disabledAt);
  if (demo) {
    // Even when it is the only admin: its password was printed, which is worse than no admin until one is made.
    const disabled = await disableStaff(DEMO_STAFF_EMAIL, { audit: THE_APP, allowLastAdmin: true });
    log("warn", "demo staff account disabled", {
      email: DEMO_STAFF_EMAIL,
      endedSessions: disabled.changed ? disabled.endedSessions : 0,
      reason:
        "this instance can be reached from other machines (HOST, TRUSTED_PROXIES or PUBLIC_ORIGIN) " +
        "and the demo account's password was printed when it was created",
      HOST: settings.HOST,
      TRUSTED_PROXIES: settings.TRUSTED_PROXIES.join(","),
      PUBLIC_ORIGIN: settings.PUBLIC_ORIGIN ?? "",
      action: "create staff accounts with: npm run staff -- create <email> [--role admin]",
    });
  }
  if (!staff.some((member) => member !== demo && !member.disabledAt)) {
    console.log(`${CREATE_STAFF}\n(No demo account is made on an instance other machines can reach.)`);
  }
}
