// npm run staff -- create <email> | list | disable <email>
// Manages the staff accounts of DATABASE_URL's database. `create` reads the password from standard
// input — piped (`echo 'password' | npm run staff -- create a@b.example`, the first line) or typed at a
// prompt that does not echo — so it never sits in the shell's history or the process list.
import { printTable, runCommand, UsageError } from "@/scripts/cli";
import { config } from "@/lib/config";
import { migrate } from "@/lib/db/migrate";
import { staffEmailSchema, staffPasswordSchema } from "@/lib/auth/staff-schema";
import { createStaff, disableStaff, listStaff, StaffError } from "@/lib/auth/staff";

const usage =
  "usage: npm run staff -- create <email> [--role staff|admin] | list | disable <email>   " +
  "(create reads the password from standard input)";

const date = (value: Date | null) => (value ? value.toISOString().replace(/\.\d+Z$/, "Z") : "");

/** Reads one line from the terminal without echoing it. */
function promptHidden(question: string): Promise<string> {
  const input = process.stdin;
  return new Promise((resolve, reject) => {
    input.setRawMode(true); // before the prompt: nothing typed after it may be echoed
    process.stderr.write(question);
    let value = "";
    const finish = (error?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.off("data", onData);
      process.stderr.write("\n");
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const character of chunk) {
        if (character === "\r" || character === "\n") return finish();
        if (character === "\u0003" || character === "\u0004") return finish(new UsageError("Cancelled."));
        if (character === "\u007f" || character === "\b") value = [...value].slice(0, -1).join("");
        else if (character >= " ") value += character;
      }
    };
    input.setEncoding("utf8");
    input.on("data", onData);
    input.resume();
  });
}

async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) {
    const password = await promptHidden("Password: ");
    if ((await promptHidden("Again: ")) !== password)
      throw new UsageError("The passwords differ; nothing was created.");
    return password;
  }
  let text = "";
  for await (const chunk of process.stdin) text += chunk;
  const password = text.split(/\r?\n/, 1)[0];
  if (!password)
    throw new UsageError(
      "No password on standard input: pipe it in, e.g.  printf '%s\\n' \"$PASSWORD\" | npm run staff -- create <email>",
    );
  return password;
}

await runCommand(async () => {
  const [command, ...words] = process.argv.slice(2);
  const roleAt = words.indexOf("--role");
  const role = roleAt === -1 ? "staff" : words[roleAt + 1];
  if (role !== "staff" && role !== "admin") throw new UsageError(`--role is staff or admin, not "${role ?? ""}".`);
  const rest = roleAt === -1 ? words : words.filter((_, index) => index !== roleAt && index !== roleAt + 1);
  const argument = rest.join(" ").trim();
  if (!["create", "list", "disable"].includes(command ?? "") || (command !== "list" && !argument))
    throw new UsageError(usage);
  await migrate(config().database); // the tool works on a database the server has never seen

  try {
    if (command === "create") {
      if (!staffEmailSchema.safeParse(argument).success) throw new UsageError(`"${argument}" is not an email address.`);
      const password = staffPasswordSchema.safeParse(await readPassword());
      if (!password.success) throw new UsageError(`Refused: ${password.error.issues[0].message}; nothing was created.`);
      const staff = await createStaff(argument, password.data, { role });
      console.log(`Created ${staff.role} account ${staff.id} for ${staff.email}. They sign in at /sign-in.`);
    } else if (command === "list") {
      const staff = await listStaff();
      if (staff.length === 0) console.log("No staff accounts. Create one with: npm run staff -- create <email>");
      else {
        const rows = staff.map((member) => [
          String(member.id),
          member.email,
          date(member.createdAt),
          member.disabledAt
            ? `disabled ${date(member.disabledAt)}`
            : member.lockedAddresses > 0
              ? `active, locked out from ${member.lockedAddresses} address${member.lockedAddresses === 1 ? "" : "es"}`
              : "active",
          String(member.failedSignIns),
        ]);
        const header = ["ID", "EMAIL", "CREATED", "STATE", "FAILED SIGN-INS"];
        printTable(header, rows);
      }
    } else {
      const disabled = await disableStaff(argument);
      if (!disabled) throw new UsageError(`No staff account has the email "${argument}". See: npm run staff -- list`);
      console.log(
        `Disabled staff account ${disabled.staff.id} (${disabled.staff.email}); ` +
          `${disabled.endedSessions} session(s) ended. They can no longer sign in.`,
      );
    }
  } catch (error) {
    if (error instanceof StaffError) throw new UsageError(error.message);
    throw error;
  }
});
