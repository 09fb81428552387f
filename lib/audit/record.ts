import "server-only";
import type { Transaction } from "@/lib/db/client";
import { stringifyJson } from "@/lib/http/json";

// Writing the audit trail. Every change calls recordAudit with the transaction that makes the change, so the
// record commits or rolls back with it: there is never a change without its record nor a record without its
// change. The rows are append-only (the 0008 migrations refuse UPDATE); lib/audit/activity.ts reads them.

/** Who made a change. `label` is the email or key name as it is now: the record keeps it when it changes. */
export type Actor =
  | { type: "staff"; id: number; label: string }
  | { type: "api_key"; id: number; label: string }
  | { type: "cli"; label: string }
  | { type: "system"; label: string }
  | { type: "visitor"; label: string };

/** Who made a change, and from where: the client's address and the request's id, when it came over HTTP. */
export type AuditContext = { actor: Actor; clientAddress?: string; requestId?: string };

export const AUDIT_ACTIONS = [
  "pet.created",
  "pet.updated",
  "pet.deleted",
  "pet.restored",
  "api_key.created",
  "api_key.revoked",
  "api_key.made_admin_app",
  "staff.created",
  "staff.disabled",
  "staff.enabled",
  "staff.role_changed",
  "staff.password_reset",
  "staff.unlocked",
  "staff.signed_in",
  "staff.sign_in_failed",
  "category.created",
  "category.renamed",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export type AuditTargetType = "pet" | "api_key" | "staff" | "category";

export type AuditEntry = {
  action: AuditAction;
  target: { type: AuditTargetType; id?: number | bigint | string; label?: string };
  /** Serialised as JSON (bigints digit for digit): a pet change's before and after, a new role… */
  details?: unknown;
};

/** The command-line tools, run on the server by someone with its shell. */
export const COMMAND_LINE: AuditContext = { actor: { type: "cli", label: "command line" } };
/** The app itself: the admin app's own key, the demo account made at first start. */
export const THE_APP: AuditContext = { actor: { type: "system", label: "the app" } };

/** Appends one record of a change, inside the transaction that makes the change. */
export async function recordAudit(tx: Transaction, context: AuditContext, entry: AuditEntry): Promise<void> {
  const { actor } = context;
  await tx.auditEvent.create({
    data: {
      actorType: actor.type,
      actorId: "id" in actor ? actor.id : null,
      actorLabel: actor.label,
      action: entry.action,
      targetType: entry.target.type,
      targetId: entry.target.id === undefined ? null : String(entry.target.id),
      targetLabel: entry.target.label ?? null,
      details: entry.details === undefined ? null : stringifyJson(entry.details),
      clientAddress: context.clientAddress ?? null,
      requestId: context.requestId ?? null,
    },
    select: { id: true },
  });
}
