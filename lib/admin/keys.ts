import "server-only";
import type { KeyView } from "@/lib/auth/api-key-schema";
import { listApiKeys, type ApiKeyInfo } from "@/lib/auth/api-keys";
import type { SignedInStaff } from "@/lib/auth/staff";
import type { AuditContext } from "@/lib/audit/record";
import { clientAddress } from "@/lib/http/forwarded";
import { getPetCalls, type CallSummary } from "@/lib/v1/call-counts";

// The keys page's data: each key as the admin endpoints show it, with its getPet calls. A key's secret is
// never in a view; only the answer to its creation carries it, once.

const iso = (value: Date | null) => value?.toISOString() ?? null;

export function keyView(info: ApiKeyInfo, calls: CallSummary = { last30Days: 0, lastCallAt: null }): KeyView {
  return {
    id: info.id,
    name: info.name,
    prefix: info.prefix,
    purpose: info.purpose,
    createdAt: info.createdAt.toISOString(),
    createdBy: info.createdBy,
    lastUsedAt: iso(info.lastUsedAt),
    revokedAt: iso(info.revokedAt),
    getPet: { last30Days: calls.last30Days, lastCallAt: iso(calls.lastCallAt) },
  };
}

/** Every key, oldest first, with its getPet calls. */
export async function keyListing(): Promise<KeyView[]> {
  const keys = await listApiKeys();
  const calls = await getPetCalls(keys.map((key) => key.id));
  return keys.map((key) => keyView(key, calls.get(key.id)));
}

/** One key's view with its getPet calls. */
export async function keyViewWithCalls(info: ApiKeyInfo): Promise<KeyView> {
  return keyView(info, (await getPetCalls([info.id])).get(info.id));
}

/** The audit trail's "who" for a change a signed-in staff member makes through an admin endpoint. */
export function staffAuditContext(staff: SignedInStaff, request: Request, requestId: string): AuditContext {
  return {
    actor: { type: "staff", id: staff.id, label: staff.email },
    clientAddress: clientAddress(request),
    requestId,
  };
}
