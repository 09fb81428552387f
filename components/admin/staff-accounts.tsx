"use client";

import { useRef, useState } from "react";
import { AddStaffForm } from "@/components/admin/add-staff-form";
import { RequestId } from "@/components/admin/form-fields";
import { PasswordDialog } from "@/components/admin/staff-password-dialog";
import { useAccountChanges, useStaffAccounts, type Confirmable } from "@/components/admin/use-staff-accounts";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { DateTime } from "@/components/ui/date-time";
import { ConfirmDialog } from "@/components/ui/dialog";
import { focusRing } from "@/components/ui/focus-ring";
import { AdminRequestError } from "@/lib/client/admin-api";
import type { StaffAccount } from "@/lib/client/staff-api";

// The Staff page's body, for admins (the page and every endpoint check the role on the server): every account
// with its role and state, the changes an admin can make to it, and a form to add one. Changes of role,
// disabling and a new password ask first; a refusal shows the server's message and the request's id.

function stateOf(account: StaffAccount): string {
  if (account.disabledAt) return "disabled";
  if (account.lockedAddresses > 0)
    return `locked out from ${account.lockedAddresses} address${account.lockedAddresses === 1 ? "" : "es"}`;
  return "active";
}

const confirmTitle: Record<Confirmable, (email: string) => string> = {
  disable: (email) => `Disable ${email}?`,
  demote: (email) => `Make ${email} a staff member?`,
  promote: (email) => `Make ${email} an admin?`,
};

const confirmText: Record<Confirmable, string> = {
  disable: "They are signed out everywhere and can no longer sign in, until an admin enables the account again.",
  demote: "They keep the catalogue but lose API keys, webhooks, staff accounts and the activity log.",
  promote: "They will be able to manage API keys, webhooks and staff accounts, and see the activity log.",
};

const confirmLabel: Record<Confirmable, string> = {
  disable: "Disable",
  demote: "Make staff member",
  promote: "Make admin",
};

export function StaffAccounts({ signedInId }: { signedInId: number }) {
  const query = useStaffAccounts();
  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <section aria-labelledby="accounts-title">
        <h2 id="accounts-title" className="text-lg font-semibold">
          Accounts
        </h2>
        {query.isPending ? (
          <p className="mt-3 text-slate-600">Loading accounts…</p>
        ) : query.isError ? (
          <Alert className="mt-3">
            <p>The accounts could not be loaded: {query.error.message}</p>
            {query.error instanceof AdminRequestError ? <RequestId id={query.error.requestId} /> : null}
            <Button onClick={() => void query.refetch()} className="mt-2">
              Try again
            </Button>
          </Alert>
        ) : (
          <ul className="mt-3 grid gap-4" aria-label="Staff accounts">
            {query.data.map((account) => (
              <AccountCard key={account.id} account={account} isYou={account.id === signedInId} />
            ))}
          </ul>
        )}
      </section>
      <AddStaffForm />
    </div>
  );
}

/** One account: what it is, and the changes an admin may make to it. */
function AccountCard({ account, isYou }: { account: StaffAccount; isYou: boolean }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const changes = useAccountChanges(account, heading);
  const { outcome, confirming } = changes;
  const [settingPassword, setSettingPassword] = useState(false);
  const titleId = `staff-${account.id}-email`;
  const asked = confirming ?? "disable";

  return (
    <li
      aria-labelledby={titleId}
      className="rounded-lg border border-slate-200 bg-white p-4"
      data-testid="staff-account"
    >
      <h3 id={titleId} ref={heading} tabIndex={-1} className={`font-medium break-all ${focusRing}`}>
        {account.email}
        {isYou ? <span className="ml-2 text-sm font-normal text-slate-600">(you)</span> : null}
      </h3>
      <AccountFacts account={account} />
      <AccountActions
        account={account}
        changes={changes}
        onSetPassword={() => {
          changes.setOutcome(undefined);
          setSettingPassword(true);
        }}
      />
      <p role="status" className="mt-2 min-h-5 text-sm text-emerald-800">
        {outcome?.kind === "done" ? outcome.message : ""}
      </p>
      {outcome?.kind === "error" ? (
        <Alert className="mt-2">
          <p>{outcome.message}</p>
          {outcome.requestId ? <RequestId id={outcome.requestId} testId="staff-request-id" /> : null}
        </Alert>
      ) : null}
      <ConfirmDialog
        open={confirming !== undefined}
        idPrefix={`${titleId}-confirm`}
        title={<span className="break-all">{confirmTitle[asked](account.email)}</span>}
        description={`${confirmText[asked]}${isYou ? " This is your own account." : ""}`}
        confirmLabel={confirmLabel[asked]}
        tone={asked === "promote" ? "primary" : "danger"}
        pending={changes.pending}
        onConfirm={changes.confirm}
        onCancel={changes.confirmClosed}
      />
      <PasswordDialog
        open={settingPassword}
        account={account}
        onDone={changes.setOutcome}
        onClose={() => setSettingPassword(false)}
      />
    </li>
  );
}

function AccountFacts({ account }: { account: StaffAccount }) {
  return (
    <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
      <dt className="text-slate-600">Role</dt>
      <dd data-testid="staff-role">{account.role}</dd>
      <dt className="text-slate-600">State</dt>
      <dd data-testid="staff-state">{stateOf(account)}</dd>
      <dt className="text-slate-600">Failed sign-ins</dt>
      <dd>{account.failedSignIns}</dd>
      <dt className="text-slate-600">Created</dt>
      <dd>
        <DateTime at={account.createdAt} />
      </dd>
    </dl>
  );
}

function AccountActions({
  account,
  changes,
  onSetPassword,
}: {
  account: StaffAccount;
  changes: ReturnType<typeof useAccountChanges>;
  onSetPassword: () => void;
}) {
  const { pending, run, ask } = changes;
  return (
    <div className="mt-3 flex flex-wrap gap-2">
      <Button aria-disabled={pending} onClick={() => ask(account.role === "admin" ? "demote" : "promote")}>
        {account.role === "admin" ? "Make staff member…" : "Make admin…"}
      </Button>
      {account.disabledAt ? (
        <Button aria-disabled={pending} onClick={() => run({ kind: "enable" })}>
          Enable
        </Button>
      ) : (
        <Button aria-disabled={pending} onClick={() => ask("disable")}>
          Disable…
        </Button>
      )}
      {account.lockedAddresses > 0 ? (
        <Button aria-disabled={pending} onClick={() => run({ kind: "unlock" })}>
          Unlock
        </Button>
      ) : null}
      <Button onClick={onSetPassword}>Reset password…</Button>
    </div>
  );
}
