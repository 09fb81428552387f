import "server-only";
import { db } from "@/lib/db/client";
import { staffEmailSchema } from "@/lib/auth/staff-schema";
import { decoyHash, hashPassword, verifyPassword } from "@/lib/auth/passwords";

// Staff accounts: created, listed and disabled by the staff tool; checked at sign-in. Repeated failed
// sign-ins for one account lock it for a growing time. The counter and the lock are columns of the
// account, so every instance of the app enforces the same lock.

export type StaffInfo = {
  id: number;
  email: string;
  createdAt: Date;
  disabledAt: Date | null;
  failedSignIns: number;
  lockedUntil: Date | null;
};
export type SignedInStaff = { id: number; email: string };

const staffColumns = {
  id: true,
  email: true,
  createdAt: true,
  disabledAt: true,
  failedSignIns: true,
  lockedUntil: true,
} as const;

/** Failures allowed before the first lock; each failure after it doubles the lock, up to the cap. */
export const FREE_FAILURES = 5;
const FIRST_LOCK_MS = 60_000;
const MAX_LOCK_MS = 60 * 60_000;

export function lockDuration(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(FIRST_LOCK_MS * 2 ** (failures - FREE_FAILURES), MAX_LOCK_MS);
}

export class StaffError extends Error {}

function parseEmail(input: string): string {
  const email = staffEmailSchema.safeParse(input);
  if (!email.success) throw new StaffError(`"${input}" is not an email address.`);
  return email.data;
}

export async function createStaff(emailInput: string, password: string): Promise<StaffInfo> {
  const email = parseEmail(emailInput);
  if (await db().staff.findUnique({ where: { email }, select: { id: true } }))
    throw new StaffError(`A staff account for ${email} already exists.`);
  const passwordHash = await hashPassword(password);
  return db().staff.create({ data: { email, passwordHash }, select: staffColumns });
}

export async function listStaff(): Promise<StaffInfo[]> {
  return db().staff.findMany({ select: staffColumns, orderBy: { id: "asc" } });
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
 * The account when the email and password match an enabled, unlocked account; undefined otherwise,
 * whatever the reason, so an answer never tells whether an email has an account. The password is
 * hashed in every case (against a decoy for an unknown email) so the time taken does not tell either.
 * A wrong password counts towards the lock; attempts while locked are refused without counting.
 */
export async function signIn(
  emailInput: string,
  password: string,
  now = new Date(),
): Promise<SignedInStaff | undefined> {
  const email = staffEmailSchema.safeParse(emailInput);
  const staff = email.success
    ? await db().staff.findUnique({
        where: { email: email.data },
        select: { id: true, email: true, passwordHash: true, disabledAt: true, failedSignIns: true, lockedUntil: true },
      })
    : null;
  const matches = await verifyPassword(password, staff?.passwordHash ?? (await decoyHash()));
  if (!staff || staff.disabledAt) return undefined;
  if (staff.lockedUntil && staff.lockedUntil > now) return undefined;
  if (!matches) {
    // An atomic increment: concurrent failures on several instances are all counted.
    const { failedSignIns } = await db().staff.update({
      where: { id: staff.id },
      data: { failedSignIns: { increment: 1 } },
      select: { failedSignIns: true },
    });
    const lock = lockDuration(failedSignIns);
    if (lock > 0)
      await db().staff.update({ where: { id: staff.id }, data: { lockedUntil: new Date(now.getTime() + lock) } });
    return undefined;
  }
  // The lock may have been set by a concurrent attempt while this password was being hashed: the
  // success only counts if the account is still enabled and unlocked at this very update.
  const { count } = await db().staff.updateMany({
    where: { id: staff.id, disabledAt: null, OR: [{ lockedUntil: null }, { lockedUntil: { lte: now } }] },
    data: { failedSignIns: 0, lockedUntil: null },
  });
  if (count === 0) return undefined;
  return { id: staff.id, email: staff.email };
}
