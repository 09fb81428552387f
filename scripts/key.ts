// npm run key -- create <name> | list | revoke <id or prefix>
// Manages the API keys of DATABASE_URL's database. `create` prints the key once, alone on the last line.
// `list` says which key is the admin app's (FOR "admin app"; at most one of them is active), who made each key,
// and its getPet calls: GETPET 30D over the last 30 UTC days, LAST GETPET the last one (getPet goes away on its
// sunset; lib/v1/call-counts.ts). Creating and revoking are recorded in the audit trail as the command line's.
import { parseCommandLine, printTable, runCommand, UsageError } from "@/scripts/cli";
import { openDatabase } from "@/scripts/cli-database";
import { createApiKey, listApiKeys, revokeApiKey } from "@/lib/auth/api-keys";
import { keyNameSchema } from "@/lib/auth/api-key-schema";
import { COMMAND_LINE } from "@/lib/audit/record";
import { getPetCalls } from "@/lib/v1/call-counts";

const tool = {
  run: "npm run key",
  about:
    "Manages the API keys of DATABASE_URL's database (SQLite's data/animal-store.db by default).\n" +
    "Creating and revoking are recorded in the activity log as the command line's.",
  opensDatabase: true,
};

const commands = {
  create: {
    usage: "<name>",
    about: "Creates a key and prints it once, alone on the last line. Quote a name with spaces.",
    args: ["name"],
    missing: () => "create needs a name for the key",
    extra: (given: string[]) => `create takes one name; quote a name with spaces: "${given.join(" ")}"`,
  },
  list: {
    usage: "",
    about: "Lists every key: id, name, whose, prefix, creator, last use, state and getPet calls over 30 days.",
  },
  revoke: {
    usage: "<id or prefix>",
    about: "Revokes a key: requests with it are refused from now on. Revoking it again changes nothing.",
    args: ["id or prefix"],
    missing: () => "revoke needs a key id or prefix",
    extra: (given: string[]) => `revoke takes one key id or prefix; got ${given.map((word) => `'${word}'`).join(", ")}`,
  },
};

const date = (value: Date | null) => (value ? value.toISOString().replace(/\.\d+Z$/, "Z") : "never");

await runCommand(async () => {
  const { command, args, values } = parseCommandLine(tool, commands);
  const argument = (args[0] ?? "").trim();
  const name = command === "create" ? keyNameSchema.safeParse(argument) : undefined;
  if (name && !name.success) throw new UsageError(`Invalid key name: ${name.error.issues[0].message}.`);
  await openDatabase(values);

  if (name?.success) {
    const { info, key } = await createApiKey(name.data, COMMAND_LINE);
    console.log(`Created API key ${info.id} "${info.name}" (prefix ${info.prefix}). It is shown only this once:`);
    console.log(key);
  } else if (command === "list") {
    const keys = await listApiKeys();
    if (keys.length === 0) console.log("No API keys. Create one with: npm run key -- create <name>");
    else {
      const calls = await getPetCalls(keys.map((key) => key.id));
      const rows = keys.map((key) => {
        const getPet = calls.get(key.id)!;
        return [
          String(key.id),
          key.name,
          key.purpose === "admin_app" ? "admin app" : "clients",
          key.prefix,
          date(key.createdAt),
          key.createdBy ?? "unknown",
          date(key.lastUsedAt),
          key.revokedAt ? `revoked ${date(key.revokedAt)}` : "active",
          String(getPet.last30Days),
          date(getPet.lastCallAt),
        ];
      });
      const header = [
        "ID",
        "NAME",
        "FOR",
        "PREFIX",
        "CREATED",
        "CREATED BY",
        "LAST USED",
        "STATE",
        "GETPET 30D",
        "LAST GETPET",
      ];
      printTable(header, rows);
    }
  } else {
    const revocation = await revokeApiKey(argument, COMMAND_LINE);
    if (!revocation) throw new UsageError(`No API key has id or prefix "${argument}". See: npm run key -- list`);
    const { key, outcome } = revocation;
    if (outcome === "already_revoked") {
      console.log(
        `API key ${key.id} "${key.name}" (prefix ${key.prefix}) was already revoked on ${date(key.revokedAt)}; ` +
          "nothing changed.",
      );
    } else {
      console.log(
        `Revoked API key ${key.id} "${key.name}" (prefix ${key.prefix}); ` +
          (key.purpose === "admin_app"
            ? "it was the admin app's: its next request uses a new one (unless ADMIN_API_KEY names this key)."
            : "requests with it are refused from now on."),
      );
    }
  }
});
