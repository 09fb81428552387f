// npm run staff -- create <email> [--role staff|admin] | list | disable <email> | enable <email>
//   | role <email> <staff|admin> | reset-password <email> | unlock <email>
// Manages the staff accounts of DATABASE_URL's database; every change is recorded in the audit trail as
// made by the command line. `create` and `reset-password` read the password from standard input — piped
// (`echo 'password' | npm run staff -- create a@b.example`, the first line) or typed at a prompt that does
// not echo — so it never sits in the shell's history or the process list.
import { parseCommandLine, printTable, runCommand, UsageError, type CommandSpec } from "@/scripts/cli";
import { openDatabase } from "@/scripts/cli-database";
import { staffEmailSchema, staffPasswordSchema } from "@/lib/auth/staff-schema";
import {
  createStaff,
  disableStaff,
  enableStaff,
  listStaff,
  resetStaffPassword,
  roleInWords,
  setStaffRole,
  unlockStaff,
  type StaffChange,
} from "@/lib/auth/staff";
import { Refusal } from "@/lib/refusal";

const tool = {
  run: "npm run staff",
  about:
    "Manages the staff accounts of DATABASE_URL's database; every change is recorded in the activity log as the\n" +
    "command line's. create and reset-password read the password from standard input: piped (the first line) or\n" +
    "typed at a prompt that does not echo, so it never sits in the shell's history or the process list.",
  opensDatabase: true,
};

/** A command taking one email. */
const onEmail = (name: string, about: string): CommandSpec => ({
  usage: "<email>",
  about,
  args: ["email"],
  missing: () => `${name} needs the account's email`,
  extra: (given) => `${name} takes one email; got ${given.map((word) => `'${word}'`).join(", ")}`,
});

const commands: Record<string, CommandSpec> = {
  create: {
    ...onEmail("create", "Creates an account (a staff member unless --role admin); the password from stdin."),
    usage: "<email> [--role staff|admin]",
    options: { role: { type: "string" } },
  },
  list: { usage: "", about: "Lists the accounts: id, email, role, created, state and failed sign-ins." },
  disable: onEmail("disable", "Refuses the account's sign-in and ends its sessions."),
  enable: onEmail("enable", "Lets a disabled account sign in again."),
  role: {
    usage: "<email> <staff|admin>",
    about: "Makes the account a staff member or an admin. The store keeps at least one enabled admin.",
    args: ["email", "role"],
    missing: (given) => (given.length === 0 ? "role needs an email and a role" : "role needs a role (staff or admin)"),
    extra: (given) =>
      `role takes an email and a role; got also ${given
        .slice(2)
        .map((word) => `'${word}'`)
        .join(", ")}`,
  },
  "reset-password": onEmail("reset-password", "Sets a new password (from stdin) and ends the account's sessions."),
  unlock: onEmail(
    "unlock",
    "Clears the account's failed sign-ins, every address's lock and its count of attempts from new places.",
  ),
};

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

/** The password for `command`, checked against the rules; `nothing` says what did not happen if it is refused. */
async function readPassword(command: string, nothing: string): Promise<string> {
  let password: string;
  if (process.stdin.isTTY) {
    password = await promptHidden("Password: ");
    if ((await promptHidden("Again: ")) !== password) throw new UsageError(`The passwords differ; ${nothing}.`);
  } else {
    let text = "";
    for await (const chunk of process.stdin) text += chunk;
    password = text.split(/\r?\n/, 1)[0];
    if (!password)
      throw new UsageError(
        "No password on standard input: pipe it in, e.g.  " +
          `printf '%s\\n' "$PASSWORD" | npm run staff -- ${command} <email>`,
      );
  }
  const valid = staffPasswordSchema.safeParse(password);
  if (!valid.success) throw new UsageError(`Refused: ${valid.error.issues[0].message}; ${nothing}.`);
  return valid.data;
}

/** What a change that changed nothing prints: it is not an error, and no record was written. */
function unchanged(change: StaffChange): change is Extract<StaffChange, { changed: false }> {
  if (change.changed) return false;
  console.log(`${change.staff.email} is ${change.already}; nothing changed.`);
  return true;
}

await runCommand(async () => {
  const { command, args, values } = parseCommandLine(tool, commands);
  const role = values.role ?? "staff";
  if (role !== "staff" && role !== "admin") throw new UsageError(`--role is staff or admin, not "${String(role)}".`);
  let newRole: "staff" | "admin" | undefined;
  if (command === "role") {
    const wanted = args[1];
    if (wanted !== "staff" && wanted !== "admin") throw new UsageError(`The role is staff or admin, not "${wanted}".`);
    newRole = wanted;
  }
  const argument = (args[0] ?? "").trim();
  if (command !== "list" && !staffEmailSchema.safeParse(argument).success)
    throw new UsageError(`"${argument}" is not an email address.`);
  await openDatabase(values);

  try {
    if (command === "create") {
      const password = await readPassword("create", "nothing was created");
      const staff = await createStaff(argument, password, { role });
      console.log(`Created ${staff.role} account ${staff.id} for ${staff.email}. They sign in at /sign-in.`);
    } else if (command === "list") {
      const staff = await listStaff();
      if (staff.length === 0)
        console.log("No staff accounts. Create the first admin with: npm run staff -- create <email> --role admin");
      else {
        const rows = staff.map((member) => [
          String(member.id),
          member.email,
          member.role,
          date(member.createdAt),
          member.disabledAt
            ? `disabled ${date(member.disabledAt)}`
            : member.lockedAddresses > 0
              ? `active, locked out from ${member.lockedAddresses} address${member.lockedAddresses === 1 ? "" : "es"}`
              : "active",
          String(member.failedSignIns),
        ]);
        const header = ["ID", "EMAIL", "ROLE", "CREATED", "STATE", "FAILED SIGN-INS"];
        printTable(header, rows);
      }
    } else if (command === "disable") {
      const disabled = await disableStaff(argument);
      if (unchanged(disabled)) return;
      console.log(
        `Disabled staff account ${disabled.staff.id} (${disabled.staff.email}); ` +
          `${disabled.endedSessions} session(s) ended. They can no longer sign in.`,
      );
    } else if (command === "enable") {
      const enabled = await enableStaff(argument);
      if (unchanged(enabled)) return;
      console.log(`Enabled staff account ${enabled.staff.id} (${enabled.staff.email}); they can sign in again.`);
    } else if (command === "role") {
      const changed = await setStaffRole(argument, newRole!);
      if (unchanged(changed)) return;
      console.log(`${changed.staff.email} is now ${roleInWords(changed.staff.role)}.`);
    } else if (command === "reset-password") {
      const password = await readPassword("reset-password", "the password was not changed");
      const reset = await resetStaffPassword(argument, password);
      console.log(
        `New password set for ${reset.staff.email}; ${reset.changed ? reset.endedSessions : 0} session(s) ended. ` +
          "They sign in with it at /sign-in.",
      );
    } else {
      const unlocked = await unlockStaff(argument);
      if (unchanged(unlocked)) return;
      console.log(
        `Unlocked ${unlocked.staff.email}: failed sign-ins cleared, ` +
          `${unlocked.unlockedAddresses} locked-out address(es) may sign in again; ` +
          `the account's ${unlocked.cleared.accountAttempts} attempts from new places in this window are forgotten.`,
      );
    }
  } catch (error) {
    if (error instanceof Refusal)
      throw new UsageError(error.code === "not_found" ? `${error.message} See: npm run staff -- list` : error.message);
    throw error;
  }
});
