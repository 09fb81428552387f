import "server-only";
import { COMMAND_LINE, recordAudit, type AuditContext } from "@/lib/audit/record";
import { db } from "@/lib/db/client";
import { staffEmailSchema } from "@/lib/auth/staff-schema";
import { decoyHash, hashPassword, verifyPassword } from "@/lib/auth/passwords";
import {
  admitSignIn,
  lockedUntil,
  recordFailure,
  recordSuccess,
  signInKey,
  throttleAddress,
  withHashSlot,
} from "@/lib/auth/sign-in-throttle";
import { UNKNOWN_ADDRESS } from "@/lib/http/forwarded";

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
/** An account as `staff list` shows it: with the number of client addresses locked out of it right now. */
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

export class StaffError extends Error {}

function parseEmail(input: string): string {
  const email = staffEmailSchema.safeParse(input);
  if (!email.success) throw new StaffError(`"${input}" is not an email address.`);
  return email.data;
}

/** Creates an account with its audit record (by default a staff member's, made by the command line). */
export async function createStaff(
  emailInput: string,
  password: string,
  { role = "staff", audit = COMMAND_LINE }: { role?: StaffRole; audit?: AuditContext } = {},
): Promise<StaffInfo> {
  const email = parseEmail(emailInput);
  if (await db().staff.findUnique({ where: { email }, select: { id: true } }))
    throw new StaffError(`A staff account for ${email} already exists.`);
  const passwordHash = await hashPassword(password);
  return db().$transaction(async (tx) => {
    const staff = await tx.staff.create({ data: { email, passwordHash, role }, select: staffColumns });
    await recordAudit(tx, audit, {
      action: "staff.created",
      target: { type: "staff", id: staff.id, label: staff.email },
      details: { role },
    });
    return staff;
  });
}

export async function listStaff(now = new Date()): Promise<StaffListing[]> {
  const staff = await db().staff.findMany({ select: staffColumns, orderBy: { id: "asc" } });
  const locks = await db().signInLock.groupBy({
    by: ["email"],
    where: { email: { in: staff.map((member) => member.email) }, lockedUntil: { gt: BigInt(now.getTime()) } },
    _count: { _all: true },
  });
  const locked = new Map(locks.map((lock) => [lock.email, lock._count._all]));
  return staff.map((member) => ({ ...member, lockedAddresses: locked.get(member.email) ?? 0 }));
}

export async function countStaff(): Promise<number> {
  return db().staff.count();
}

/** Disables the account and ends its sessions; undefined when no account has that email. */
export async function disableStaff(
  emailInput: string,
): Promise<{ staff: StaffInfo; endedSessions: number } | undefined> {
  const email = parseEmail(emailInput);
  const found = await db().staff.findUnique({ where: { email }, select: { id: true, disabledAt: true } });
  if (!found) return undefined;
  return db().$transaction(async (tx) => {
    const staff = await tx.staff.update({
      where: { id: found.id },
      data: { disabledAt: found.disabledAt ?? new Date() },
      select: staffColumns,
    });
    const { count } = await tx.staffSession.deleteMany({ where: { staffId: found.id } });
    return { staff, endedSessions: count };
  });
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
  if (!staff || staff.disabledAt || !matches) {
    await recordFailure(key, address, now);
    // The account's own count, across addresses, is what `staff list` shows.
    if (staff) await db().staff.update({ where: { id: staff.id }, data: { failedSignIns: { increment: 1 } } });
    return undefined;
  }
  // A concurrent failure may have locked this address while the password was being hashed: the success
  // only counts if it is still unlocked at this very update, and the account still enabled.
  if (!(await recordSuccess(key, address, now))) return undefined;
  const { count } = await db().staff.updateMany({
    where: { id: staff.id, disabledAt: null },
    data: { failedSignIns: 0 },
  });
  if (count === 0) return undefined;
  return { id: staff.id, email: staff.email, role: staff.role };
}

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
): Promise<SignedInStaff | undefined> {
  const address = throttleAddress(clientAddress);
  const attempt = await admitSignIn(emailInput, address, now);
  let staff: SignedInStaff | undefined;
  try {
    staff = await signIn(emailInput, password, now, address);
  } catch (error) {
    await attempt.giveBack();
    throw error;
  }
  if (staff) await attempt.giveBack();
  return staff;
}
