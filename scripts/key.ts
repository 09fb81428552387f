// npm run key -- create <name> | list | revoke <id or prefix>
// Manages the API keys of DATABASE_URL's database. `create` prints the key once, alone on the last line.
// `list` says which key is the admin app's (FOR "admin app"; at most one of them is active).
import { printTable, runCommand, UsageError } from "@/scripts/cli";
import { createApiKey, listApiKeys, revokeApiKey } from "@/lib/auth/api-keys";
import { config } from "@/lib/config";
import { migrate } from "@/lib/db/migrate";

const usage = "usage: npm run key -- create <name> | list | revoke <id or prefix>";

const date = (value: Date | null) => (value ? value.toISOString().replace(/\.\d+Z$/, "Z") : "never");

await runCommand(async () => {
  const [command, ...rest] = process.argv.slice(2);
  const argument = rest.join(" ").trim();
  if (!["create", "list", "revoke"].includes(command ?? "") || (command !== "list" && !argument))
    throw new UsageError(usage);
  await migrate(config().database); // the tool works on a database the server has never seen

  if (command === "create") {
    const { info, key } = await createApiKey(argument);
    console.log(`Created API key ${info.id} "${info.name}" (prefix ${info.prefix}). It is shown only this once:`);
    console.log(key);
  } else if (command === "list") {
    const keys = await listApiKeys();
    if (keys.length === 0) console.log("No API keys. Create one with: npm run key -- create <name>");
    else {
      const rows = keys.map((key) => [
        String(key.id),
        key.name,
        key.purpose === "admin_app" ? "admin app" : "clients",
        key.prefix,
        date(key.createdAt),
        date(key.lastUsedAt),
        key.revokedAt ? `revoked ${date(key.revokedAt)}` : "active",
      ]);
      const header = ["ID", "NAME", "FOR", "PREFIX", "CREATED", "LAST USED", "STATE"];
      printTable(header, rows);
    }
  } else {
    const revoked = await revokeApiKey(argument);
    if (!revoked) throw new UsageError(`No API key has id or prefix "${argument}". See: npm run key -- list`);
    console.log(
      `Revoked API key ${revoked.id} "${revoked.name}" (prefix ${revoked.prefix}); ` +
        (revoked.purpose === "admin_app"
          ? "it was the admin app's: its next request uses a new one (unless ADMIN_API_KEY names this key)."
          : "requests with it are refused from now on."),
    );
  }
});
