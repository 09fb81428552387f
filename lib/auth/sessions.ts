import "server-only";
import { randomBytes } from "node:crypto";
import { db } from "@/lib/db/client";
import type { SignedInStaff } from "@/lib/auth/staff";
import { sha256Hex } from "@/lib/hash";

// Staff sessions. The browser holds a random 256-bit token in an httpOnly cookie; the database holds
// only its SHA-256 as the session's id. Ending a session deletes the row, so the token stops working
// on every instance at once, wherever a copy of the cookie is. Expired rows are deleted by
// lib/housekeeping.ts.

export const SESSION_COOKIE = "animal_store_session";
export const SESSION_LIFETIME_MS = 12 * 60 * 60_000;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function sessionId(token: string): string {
  return sha256Hex(token);
}

export async function startSession(staffId: number, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
  await db().staffSession.create({
    data: { id: sessionId(token), staffId, createdAt: now, expiresAt },
    select: { id: true },
  });
  return { token, expiresAt };
}

/** The signed-in staff member of a session token; undefined when it is unknown, expired, ended or disabled. */
export async function sessionStaff(token: string | undefined, now = new Date()): Promise<SignedInStaff | undefined> {
  if (!token || !TOKEN_PATTERN.test(token)) return undefined;
  const session = await db().staffSession.findUnique({
    where: { id: sessionId(token) },
    select: { expiresAt: true, staff: { select: { id: true, email: true, role: true, disabledAt: true } } },
  });
  if (!session || session.expiresAt <= now || session.staff.disabledAt) return undefined;
  const { id, email, role } = session.staff;
  return { id, email, role };
}

export async function endSession(token: string | undefined): Promise<void> {
  if (!token || !TOKEN_PATTERN.test(token)) return;
  await db().staffSession.deleteMany({ where: { id: sessionId(token) } });
}
