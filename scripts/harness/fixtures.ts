import { COMMAND_LINE } from "@/lib/audit/record";
import { createApiKey } from "@/lib/auth/api-keys";
import { createStaff as createStaffAccount, type StaffRole } from "@/lib/auth/staff";
import { databaseConfig } from "@/lib/config";
import { withDatabase } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";

// The shared fixtures of the node:test files, an API key and a staff account on a test database, made in the test
// process by the store functions the key and staff tools call, after migrating the database as they do, and recorded
// as the command line's, as the tools record them. A tool's run costs a Node start and over half a second of CPU;
// where a tool is the subject, the tests run it (runScript, createKeyWithTool and createStaffWithTool in servers.ts).

/**
 * A fixture account's scrypt cost. verifyPassword takes the parameters from the stored hash, so each sign-in of a
 * fixture account costs about a millisecond instead of the tenth of a second (and 32 MiB) of a real account's: the
 * suite signs in hundreds of times. Accounts made through the staff tool or the Staff page keep the real cost.
 */
const FIXTURE_COST = { N: 2 ** 10, r: 8, p: 1 };

/** Creates an API key as `npm run key -- create <name>` does and returns it. */
export async function createKey(databaseUrl: string, name = "test"): Promise<string> {
  const database = databaseConfig(databaseUrl);
  await migrate(database);
  return withDatabase(database, async () => (await createApiKey(name, COMMAND_LINE)).key);
}

/** Creates a staff account as `npm run staff -- create <email> --role <role>` does, with a fixture's hash cost. */
export async function createStaff(
  databaseUrl: string,
  email: string,
  password: string,
  role: StaffRole = "staff",
): Promise<void> {
  const database = databaseConfig(databaseUrl);
  await migrate(database);
  await withDatabase(database, () => createStaffAccount(email, password, { role, hashCost: FIXTURE_COST }));
}
