import "server-only";
import { COMMAND_LINE, recordAudit, type AuditContext } from "@/lib/audit/record";
import { config } from "@/lib/config";
import { db, type Transaction } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { staffEmailSchema, staffPasswordSchema } from "@/lib/auth/staff-schema";
import { decoyHash, hashPassword, verifyPassword, type ScryptCost } from "@/lib/auth/passwords";
import {
  admitSignIn,
  clearSignInCounts,
  lockedOutAddresses,
  lockedUntil,
  recordFailure,
  recordSuccess,
  signInKey,
  throttleAddress,
  withHashSlot,
  type ClearedSignInCounts,
} from "@/lib/auth/sign-in-throttle";
import { UNKNOWN_ADDRESS } from "@/lib/http/forwarded";
import { Refusal } from "@/lib/refusal";

// Staff accounts: created, listed and disabled by the staff tool; checked at sign-in. Repeated failed
// sign-ins for one account from one client address lock that address out of it for a growing time; the
// limits and locks are rows in the database (lib/auth/sign-in-throttle.ts), so every instance enforces
// them. The account's own failedSignIns counts failures from every address since its last success, for
// the staff tool; its lockedUntil column is no longer written (instances older than migration 0007 still
// read it).

export type StaffInfo = {
  id: number;
  email: string;
  role: StaffRole;
  createdAt: Date;
  disabledAt: Date | null;
  failedSignIns: number;
};
/**
 * An account as `staff list` shows it: with the number of client addresses locked out of it right now (their own
 * lock, or a failure there while the account is past its limit of attempts from new places).
 */
export type StaffListing = StaffInfo & { lockedAddresses: number };
export type StaffRole = "staff" | "admin";
export type SignedInStaff = { id: number; email: string; role: StaffRole };

const staffColumns = {
  id: true,
  email: true,
  role: true,
  createdAt: true,
  disabledAt: true,
  failedSignIns: true,
} as const;

// The lock's rules live with the other sign-in limits.
export { FREE_FAILURES, lockDuration } from "@/lib/auth/sign-in-throttle";

function parseEmail(input: string): string {
  const email = staffEmailSchema.safeParse(input);
  if (!email.success) throw new Refusal("invalid_body", { message: `"${input}" is not an email address.` });
  return email.data;
}

/**
 * Creates an account with its audit record (by default a staff member's, made by the command line). `hashCost` is
 * for the test harness's fixture accounts only (scripts/harness/fixtures.ts).
 */
export async function createStaff(
  emailInput: string,
  password: string,
  {
    role = "staff",
    audit = COMMAND_LINE,
    hashCost,
  }: { role?: StaffRole; audit?: AuditContext; hashCost?: ScryptCost } = {},
): Promise<StaffInfo> {
  const email = parseEmail(emailInput);
  if (await db().staff.findUnique({ where: { email }, select: { id: true } }))
    throw new Refusal("staff_exists", { message: `A staff account for ${email} already exists.` });
  const passwordHash = await hashPassword(password, hashCost);
  try {
    return await db().$transaction(async (tx) => {
      const staff = await tx.staff.create({ data: { email, passwordHash, role }, select: staffColumns });
      await recordAudit(tx, audit, {
        action: "staff.created",
        target: { type: "staff", id: staff.id, label: staff.email },
        details: { role },
      });
      return staff;
    });
  } catch (error) {
    // Created by someone else since the check above.
    if (isUniqueViolation(error))
      throw new Refusal("staff_exists", { message: `A staff account for ${email} already exists.` });
    throw error;
  }
}

export async function listStaff(now = new Date()): Promise<StaffListing[]> {
  const staff = await db().staff.findMany({ select: staffColumns, orderBy: { id: "asc" } });
  const locked = await lockedOutAddresses(
    staff.map((member) => member.email),
    now,
  );
  return staff.map((member) => ({ ...member, lockedAddresses: locked.get(member.email) ?? 0 }));
}

export async function countStaff(): Promise<number> {
  return db().staff.count();
}

/** How an account is named: by its email (the staff tool) or its id (the Staff page). */
export type StaffAccount = string | number;

/**
 * The outcome of a change to an account: made (with its audit record), or nothing to do because the account
 * is already so — `already` says how ("already disabled"), and nothing was written.
 */
export type StaffChange<Extra = object> =
  ({ changed: true; staff: StaffInfo } & Extra) | { changed: false; staff: StaffInfo; already: string };

type Options = { audit?: AuditContext };

/**
 * The account, its row held until the transaction ends (PostgreSQL; SQLite has one writer at a time): two changes
 * of one account at once (two admins pressing Enable, the Staff page and the staff tool) run one after the other,
 * so the second sees the first's result and records nothing when nothing is left to change.
 */
async function findAccount(tx: Transaction, account: StaffAccount) {
  const where = typeof account === "number" ? { id: account } : { email: parseEmail(account) };
  if (config().database.provider === "postgresql") {
    if ("id" in where) await tx.$queryRaw`SELECT id FROM staff WHERE id = ${where.id} FOR UPDATE`;
    else await tx.$queryRaw`SELECT id FROM staff WHERE email = ${where.email} FOR UPDATE`;
  }
  const staff = await tx.staff.findUnique({ where, select: staffColumns });
  if (!staff)
    throw new Refusal("not_found", {
      message:
        typeof account === "number"
          ? `No staff account has the id ${account}.`
          : `No staff account has the email "${account}".`,
    });
  return staff;
}

/**
 * Holds the enabled admins' rows until the transaction ends (PostgreSQL; SQLite has one writer at a time),
 * so that two admins demoting or disabling each other at once cannot both pass the last-admin check.
 */
async function lockEnabledAdmins(tx: Transaction): Promise<void> {
  if (config().database.provider === "postgresql")
    await tx.$queryRaw`SELECT id FROM staff WHERE role = 'admin' AND disabled_at IS NULL ORDER BY id FOR UPDATE`;
}

async function refuseLosingLastAdmin(tx: Transaction, before: StaffInfo, doing: string): Promise<void> {
  if (before.role !== "admin" || before.disabledAt) return;
  if ((await tx.staff.count({ where: { role: "admin", disabledAt: null } })) === 0)
    throw new Refusal("last_admin", {
      message:
        `Refused: ${before.email} is the last enabled admin, so ${doing} would leave nobody able to manage ` +
        "keys and staff. Make another account an admin first.",
    });
}

const staffTarget = (staff: StaffInfo) => ({ type: "staff" as const, id: staff.id, label: staff.email });

/**
 * Disables the account and ends its sessions, with its staff.disabled record. Refused for the last enabled
 * admin, unless `allowLastAdmin` (the app disabling its own demo account on an instance others can reach).
 */
export async function disableStaff(
  account: StaffAccount,
  { audit = COMMAND_LINE, allowLastAdmin = false }: Options & { allowLastAdmin?: boolean } = {},
): Promise<StaffChange<{ endedSessions: number }>> {
  return db().$transaction(async (tx) => {
    await lockEnabledAdmins(tx);
    const before = await findAccount(tx, account);
    if (before.disabledAt) return { changed: false, staff: before, already: "already disabled" };
    const staff = await tx.staff.update({
      where: { id: before.id },
      data: { disabledAt: new Date() },
      select: staffColumns,
    });
    if (!allowLastAdmin) await refuseLosingLastAdmin(tx, before, "disabling it");
    const { count } = await tx.staffSession.deleteMany({ where: { staffId: before.id } });
    await recordAudit(tx, audit, {
      action: "staff.disabled",
      target: staffTarget(staff),
      details: { endedSessions: count },
    });
    return { changed: true, staff, endedSessions: count };
  });
}

/** Lets a disabled account sign in again, with its staff.enabled record. */
export async function enableStaff(account: StaffAccount, { audit = COMMAND_LINE }: Options = {}): Promise<StaffChange> {
  return db().$transaction(async (tx) => {
    const before = await findAccount(tx, account);
    if (!before.disabledAt) return { changed: false, staff: before, already: "already enabled" };
    const staff = await tx.staff.update({ where: { id: before.id }, data: { disabledAt: null }, select: staffColumns });
    await recordAudit(tx, audit, { action: "staff.enabled", target: staffTarget(staff) });
    return { changed: true, staff };
  });
}

/** Gives the account a role, with its staff.role_changed record; the last enabled admin keeps theirs. */
export async function setStaffRole(
  account: StaffAccount,
  role: StaffRole,
  { audit = COMMAND_LINE }: Options = {},
): Promise<StaffChange> {
  return db().$transaction(async (tx) => {
    await lockEnabledAdmins(tx);
    const before = await findAccount(tx, account);
    if (before.role === role) return { changed: false, staff: before, already: `already ${roleInWords(role)}` };
    const staff = await tx.staff.update({ where: { id: before.id }, data: { role }, select: staffColumns });
    await refuseLosingLastAdmin(tx, before, "making it a staff member");
    await recordAudit(tx, audit, {
      action: "staff.role_changed",
      target: staffTarget(staff),
      details: { before: before.role, after: role },
    });
    return { changed: true, staff };
  });
}

export function roleInWords(role: StaffRole): string {
  return role === "admin" ? "an admin" : "a staff member";
}

/**
 * Sets a new password (staffPasswordSchema's rules) and ends the account's sessions, with its
 * staff.password_reset record (which never holds the password). Always a change: a reset is never a no-op.
 */
export async function resetStaffPassword(
  account: StaffAccount,
  password: string,
  { audit = COMMAND_LINE }: Options = {},
): Promise<StaffChange<{ endedSessions: number }>> {
  const valid = staffPasswordSchema.safeParse(password);
  if (!valid.success) throw new Refusal("invalid_body", { message: valid.error.issues[0].message });
  const passwordHash = await hashPassword(valid.data);
  return db().$transaction(async (tx) => {
    const before = await findAccount(tx, account);
    const staff = await tx.staff.update({ where: { id: before.id }, data: { passwordHash }, select: staffColumns });
    const { count } = await tx.staffSession.deleteMany({ where: { staffId: before.id } });
    await recordAudit(tx, audit, {
      action: "staff.password_reset",
      target: staffTarget(staff),
      details: { endedSessions: count },
    });
    return { changed: true, staff, endedSessions: count };
  });
}

/**
 * Clears every count that can refuse the account to its staff member, with its staff.unlocked record: the
 * failures and lock of every address (so every lock), its attempts from new places in this window, and its
 * own failedSignIns (clearSignInCounts). Nothing to do when none of them counts anything.
 */
export async function unlockStaff(
  account: StaffAccount,
  { audit = COMMAND_LINE, now = new Date() }: Options & { now?: Date } = {},
): Promise<StaffChange<{ unlockedAddresses: number; cleared: ClearedSignInCounts }>> {
  return db().$transaction(async (tx) => {
    const before = await findAccount(tx, account);
    const cleared = await clearSignInCounts(before.email, now, tx);
    if (cleared.failedAddresses === 0 && cleared.accountAttempts === 0 && before.failedSignIns === 0)
      return { changed: false, staff: before, already: "not locked out and has no failed sign-ins" };
    const staff = await tx.staff.update({ where: { id: before.id }, data: { failedSignIns: 0 }, select: staffColumns });
    await recordAudit(tx, audit, {
      action: "staff.unlocked",
      target: staffTarget(staff),
      details: { ...cleared, failedSignIns: before.failedSignIns },
    });
    return { changed: true, staff, unlockedAddresses: cleared.lockedAddresses, cleared };
  });
}

/**
 * What the activity log keeps of an email typed at sign-in that names no account: its first character and its
 * domain ("n…@example.com"), or "(not an email address)". People type a password into the email field, or paste
 * a key there; kept verbatim, it would sit in the log, and its CSV, for as long as the log is kept.
 */
export function maskedEmail(input: string): string {
  const email = staffEmailSchema.safeParse(input);
  if (!email.success) return "(not an email address)";
  const at = email.data.lastIndexOf("@");
  return `${[...email.data][0]}…${email.data.slice(at)}`;
}

/**
 * The account when the email and password match an enabled account; undefined otherwise, whatever the
 * reason, so an answer never tells whether an email has an account. The password is hashed in every case
 * (against a decoy for an unknown email) so the time taken does not tell either, except while the email
 * is locked from this address: then nothing is hashed or counted, for accounts and unknown emails alike.
 * Any other attempt that does not sign in counts towards that lock. At most MAX_CONCURRENT_HASHES hashes
 * run at once; past the queue this throws the 429 instead (see lib/auth/sign-in-throttle.ts).
 */
export async function signIn(
  emailInput: string,
  password: string,
  now = new Date(),
  address: string = UNKNOWN_ADDRESS,
  request: SignInRequest = {},
): Promise<SignedInStaff | undefined> {
  const key = signInKey(emailInput);
  if (await lockedUntil(key, address, now)) return undefined;
  const email = staffEmailSchema.safeParse(emailInput);
  const staff = email.success
    ? await db().staff.findUnique({
        where: { email: email.data },
        select: { id: true, email: true, role: true, passwordHash: true, disabledAt: true },
      })
    : null;
  const matches = await withHashSlot(async () => verifyPassword(password, staff?.passwordHash ?? (await decoyHash())));
  const from = {
    clientAddress: request.clientAddress ?? (address === UNKNOWN_ADDRESS ? undefined : address),
    requestId: request.requestId,
  };
  if (!staff || staff.disabledAt || !matches) {
    await db().$transaction(async (tx) => {
      await recordFailure(key, address, now, tx);
      // The account's own count, across addresses, is what `staff list` shows.
      if (staff) await tx.staff.update({ where: { id: staff.id }, data: { failedSignIns: { increment: 1 } } });
      await recordAudit(
        tx,
        { actor: { type: "visitor", label: staff ? staff.email : maskedEmail(emailInput) }, ...from },
        {
          action: "staff.sign_in_failed",
          target: staff
            ? { type: "staff", id: staff.id, label: staff.email }
            : { type: "staff", label: maskedEmail(emailInput) },
          details: { reason: !staff ? "unknown_email" : staff.disabledAt ? "account_disabled" : "wrong_password" },
        },
      );
    });
    return undefined;
  }
  return db().$transaction(async (tx) => {
    // A concurrent failure may have locked this address while the password was being hashed: the success
    // only counts if it is still unlocked at this very update, and the account still enabled.
    if (!(await recordSuccess(key, address, now, tx))) return undefined;
    const { count } = await tx.staff.updateMany({
      where: { id: staff.id, disabledAt: null },
      data: { failedSignIns: 0 },
    });
    if (count === 0) return undefined;
    await recordAudit(
      tx,
      { actor: { type: "staff", id: staff.id, label: staff.email }, ...from },
      { action: "staff.signed_in", target: { type: "staff", id: staff.id, label: staff.email } },
    );
    return { id: staff.id, email: staff.email, role: staff.role };
  });
}

/** Where a sign-in attempt came from, for its audit record: the client's address and the request's id. */
export type SignInRequest = { clientAddress?: string; requestId?: string };

/**
 * Sign-in as the admin app's endpoint makes it: the limits first (a 429 before anything is hashed), then
 * signIn. An attempt that signs in, or is refused before its password is checked, is given back to the
 * limits, so they count failures.
 */
export async function signInFrom(
  clientAddress: string,
  emailInput: string,
  password: string,
  now = new Date(),
  requestId?: string,
): Promise<SignedInStaff | undefined> {
  const address = throttleAddress(clientAddress);
  const attempt = await admitSignIn(emailInput, address, now);
  let staff: SignedInStaff | undefined;
  try {
    staff = await signIn(emailInput, password, now, address, { clientAddress, requestId });
  } catch (error) {
    await attempt.giveBack();
    throw error;
  }
  if (staff) await attempt.giveBack();
  return staff;
}
