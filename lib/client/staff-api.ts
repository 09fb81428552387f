import { z } from "zod";
import { callFor } from "@/lib/client/admin-api";
import { stringifyJson } from "@/lib/http/json";
import { staffJsonSchema, type NewStaff, type StaffJson } from "@/lib/auth/staff-schema";

// The browser's side of the Staff page's endpoints (app/admin/api/staff/…), for admins. A refusal throws the
// AdminRequestError of lib/client/admin-api.ts, with the server's message and the request id.

export type StaffRole = "staff" | "admin";

/** An account as the Staff page shows it: read with the endpoints' schema, locked out of no address if not said. */
export type StaffAccount = StaffJson & { lockedAddresses: number };

const staffAccountSchema = staffJsonSchema.transform((json): StaffAccount => ({
  ...json,
  lockedAddresses: json.lockedAddresses ?? 0,
}));

async function account(path: string, init: RequestInit): Promise<StaffAccount> {
  return (await callFor(staffAccountSchema, path, init)).body;
}

const sendJson = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json" },
  body: stringifyJson(body),
});

export const STAFF_QUERY_KEY = ["staff"] as const;

export async function fetchStaff(): Promise<StaffAccount[]> {
  return (await callFor(z.array(staffAccountSchema), "/admin/api/staff")).body;
}

export async function createStaffAccount(newStaff: NewStaff): Promise<StaffAccount> {
  return account("/admin/api/staff", sendJson("POST", newStaff));
}

export async function setStaffRole(id: number, role: StaffRole): Promise<StaffAccount> {
  return account(`/admin/api/staff/${id}/role`, sendJson("PUT", { role }));
}

export async function resetStaffPassword(id: number, password: string): Promise<StaffAccount> {
  return account(`/admin/api/staff/${id}/password`, sendJson("PUT", { password }));
}

/** disable, enable or unlock: a change with no body. */
export async function changeStaffState(id: number, change: "disable" | "enable" | "unlock"): Promise<StaffAccount> {
  return account(`/admin/api/staff/${id}/${change}`, { method: "POST" });
}

/**
 * A password for someone else to type once: 20 letters and digits (about 119 bits), from getRandomValues. Letters
 * that look alike (l, 1, I, O, 0) are left out, since it is read off a screen.
 */
export function generatePassword(): string {
  const alphabet = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  const limit = 256 - (256 % alphabet.length); // no bias: bytes past the last whole round are drawn again
  let password = "";
  while (password.length < 20) {
    for (const byte of crypto.getRandomValues(new Uint8Array(32)))
      if (byte < limit && password.length < 20) password += alphabet[byte % alphabet.length];
  }
  return password;
}
