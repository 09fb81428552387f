"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { FormProblems, RequestId } from "@/components/admin/form-fields";
import { describedBy, FieldMessage, inputClass } from "@/components/ui/field";
import { focusRing } from "@/components/ui/focus-ring";
import { AdminRequestError } from "@/lib/client/admin-api";
import { byField, type FormErrors } from "@/lib/client/pet-form";
import {
  changeStaffState,
  createStaffAccount,
  fetchStaff,
  generatePassword,
  resetStaffPassword,
  setStaffRole,
  STAFF_QUERY_KEY,
  type StaffAccount,
  type StaffRole,
} from "@/lib/client/staff-api";
import { newStaffSchema, staffPasswordSchema } from "@/lib/auth/staff-schema";
import { fieldErrors } from "@/lib/http/validation";

// The Staff page's body, for admins (the page and every endpoint check the role on the server): every account
// with its role and state, the changes an admin can make to it, and a form to add one. Changes of role,
// disabling and a new password ask first; a refusal shows the server's message and the request's id. After a
// confirmed change (or an unlock) the focus goes to the account's heading, as the button pressed may be gone.

const button =
  "inline-flex min-h-11 items-center justify-center rounded-md border px-3 py-2 text-sm font-medium " +
  `aria-disabled:cursor-not-allowed aria-disabled:opacity-60 ${focusRing}`;
const plainButton = `${button} border-slate-300 bg-white hover:bg-slate-100`;
const primaryButton = `${button} border-indigo-700 bg-indigo-700 text-white hover:bg-indigo-800`;
const dangerButton = `${button} border-red-700 bg-red-700 text-white hover:bg-red-800`;
const dialogClass =
  "m-auto w-[calc(100%-2rem)] max-w-md rounded-lg bg-white p-5 text-slate-900 shadow-xl backdrop:bg-slate-900/50 " +
  "dark:backdrop:bg-black/70";

const roleName = (role: StaffRole) => (role === "admin" ? "admin" : "staff member");

function stateOf(account: StaffAccount): string {
  if (account.disabledAt) return "disabled";
  if (account.lockedAddresses > 0)
    return `locked out from ${account.lockedAddresses} address${account.lockedAddresses === 1 ? "" : "es"}`;
  return "active";
}

const day = (iso: string) => iso.slice(0, 10);

/** The changes that ask first, in the account's confirmation dialog. */
type Confirmable = "disable" | "demote" | "promote";

const confirmTitle: Record<Confirmable, (email: string) => string> = {
  disable: (email) => `Disable ${email}?`,
  demote: (email) => `Make ${email} a staff member?`,
  promote: (email) => `Make ${email} an admin?`,
};

const confirmText: Record<Confirmable, string> = {
  disable: "They are signed out everywhere and can no longer sign in, until an admin enables the account again.",
  demote: "They keep the catalogue but lose API keys, staff accounts and the activity log.",
  promote: "They will be able to manage API keys, staff accounts and see the activity log.",
};

type Outcome = { kind: "done"; message: string } | { kind: "error"; message: string; requestId?: string };

function outcomeOf(error: Error): Outcome {
  return {
    kind: "error",
    message: error.message,
    requestId: error instanceof AdminRequestError ? error.requestId : undefined,
  };
}

export function StaffAccounts({ signedInId }: { signedInId: number }) {
  const query = useQuery({ queryKey: STAFF_QUERY_KEY, queryFn: fetchStaff });
  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <section aria-labelledby="accounts-title">
        <h2 id="accounts-title" className="text-lg font-semibold">
          Accounts
        </h2>
        {query.isPending ? (
          <p className="mt-3 text-slate-600">Loading accounts…</p>
        ) : query.isError ? (
          <div role="alert" className="mt-3 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
            <p>The accounts could not be loaded: {query.error.message}</p>
            {query.error instanceof AdminRequestError ? <RequestId id={query.error.requestId} /> : null}
            <button type="button" onClick={() => void query.refetch()} className={`${plainButton} mt-2`}>
              Try again
            </button>
          </div>
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
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<Outcome>();
  const confirm = useRef<HTMLDialogElement>(null);
  const [confirming, setConfirming] = useState<Confirmable>();
  const heading = useRef<HTMLHeadingElement>(null);
  const passwordDialog = useRef<HTMLDialogElement>(null);
  const titleId = `staff-${account.id}-email`;

  const change = useMutation({
    mutationFn: (what: { kind: "disable" | "enable" | "unlock" } | { kind: "role"; role: StaffRole }) =>
      what.kind === "role" ? setStaffRole(account.id, what.role) : changeStaffState(account.id, what.kind),
    onSuccess: async (changed, what) => {
      const messages = {
        disable: `${changed.email} is disabled and signed out everywhere.`,
        enable: `${changed.email} can sign in again.`,
        unlock: `${changed.email} is unlocked: failed sign-ins cleared.`,
        role: `${changed.email} is now ${changed.role === "admin" ? "an admin" : "a staff member"}.`,
      };
      setOutcome({ kind: "done", message: messages[what.kind] });
      await queryClient.invalidateQueries({ queryKey: STAFF_QUERY_KEY });
    },
    onError: (error) => setOutcome(outcomeOf(error)),
    onSettled: (changed, _error, what) => {
      const confirmed = confirm.current?.open ?? false;
      // Closing puts the focus back on the button that opened the dialog; once the change is made that button
      // may be gone (Disable… becomes Enable, Unlock goes), so the focus moves on to the account's heading.
      confirm.current?.close();
      if (changed && (confirmed || what.kind === "unlock")) heading.current?.focus();
    },
  });

  const run = (what: Parameters<typeof change.mutate>[0]) => {
    if (change.isPending) return;
    setOutcome(undefined);
    change.mutate(what);
  };
  const ask = (what: Confirmable) => {
    setOutcome(undefined);
    setConfirming(what);
    confirm.current?.showModal();
  };

  const otherRole: StaffRole = account.role === "admin" ? "staff" : "admin";
  const state = stateOf(account);

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
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600">Role</dt>
        <dd data-testid="staff-role">{account.role}</dd>
        <dt className="text-slate-600">State</dt>
        <dd data-testid="staff-state">{state}</dd>
        <dt className="text-slate-600">Failed sign-ins</dt>
        <dd>{account.failedSignIns}</dd>
        <dt className="text-slate-600">Created</dt>
        <dd>
          <time dateTime={account.createdAt}>{day(account.createdAt)}</time>
        </dd>
      </dl>
      <div className="mt-3 flex flex-wrap gap-2">
        <button
          type="button"
          aria-disabled={change.isPending}
          onClick={() => ask(otherRole === "staff" ? "demote" : "promote")}
          className={plainButton}
        >
          {otherRole === "admin" ? "Make admin…" : "Make staff member…"}
        </button>
        {account.disabledAt ? (
          <button
            type="button"
            aria-disabled={change.isPending}
            onClick={() => run({ kind: "enable" })}
            className={plainButton}
          >
            Enable
          </button>
        ) : (
          <button type="button" aria-disabled={change.isPending} onClick={() => ask("disable")} className={plainButton}>
            Disable…
          </button>
        )}
        {account.lockedAddresses > 0 ? (
          <button
            type="button"
            aria-disabled={change.isPending}
            onClick={() => run({ kind: "unlock" })}
            className={plainButton}
          >
            Unlock
          </button>
        ) : null}
        <button
          type="button"
          onClick={() => {
            setOutcome(undefined);
            passwordDialog.current?.showModal();
          }}
          className={plainButton}
        >
          Reset password…
        </button>
      </div>
      <p role="status" className="mt-2 min-h-5 text-sm text-emerald-800">
        {outcome?.kind === "done" ? outcome.message : ""}
      </p>
      {outcome?.kind === "error" ? (
        <div role="alert" className="mt-2 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
          <p>{outcome.message}</p>
          {outcome.requestId ? <RequestId id={outcome.requestId} testId="staff-request-id" /> : null}
        </div>
      ) : null}
      <dialog
        ref={confirm}
        aria-labelledby={`${titleId}-confirm-title`}
        aria-describedby={`${titleId}-confirm-text`}
        className={dialogClass}
      >
        <h2 id={`${titleId}-confirm-title`} className="text-lg font-semibold break-all">
          {confirmTitle[confirming ?? "disable"](account.email)}
        </h2>
        <p id={`${titleId}-confirm-text`} className="mt-2 text-sm text-slate-700">
          {confirmText[confirming ?? "disable"]}
          {isYou ? " This is your own account." : ""}
        </p>
        <div className="mt-4 flex flex-wrap justify-end gap-2">
          <button type="button" onClick={() => confirm.current?.close()} className={plainButton}>
            Cancel
          </button>
          <button
            type="button"
            aria-disabled={change.isPending}
            onClick={() =>
              run(
                confirming === "disable"
                  ? { kind: "disable" }
                  : { kind: "role", role: confirming === "promote" ? "admin" : "staff" },
              )
            }
            className={confirming === "promote" ? primaryButton : dangerButton}
          >
            {confirming === "disable" ? "Disable" : `Make ${roleName(confirming === "promote" ? "admin" : "staff")}`}
          </button>
        </div>
      </dialog>
      <PasswordDialog dialog={passwordDialog} account={account} onDone={setOutcome} />
    </li>
  );
}

/**
 * A new password for an account: typed twice, or generated and shown once with a copy button. Setting it ends
 * the account's sessions.
 */
function PasswordDialog({
  dialog,
  account,
  onDone,
}: {
  dialog: React.RefObject<HTMLDialogElement | null>;
  account: StaffAccount;
  onDone: (outcome: Outcome) => void;
}) {
  const id = useId();
  const [password, setPassword] = useState("");
  const [again, setAgain] = useState("");
  const [generated, setGenerated] = useState(false);
  const [copied, setCopied] = useState(false);
  const [errors, setErrors] = useState<FormErrors<"password" | "again">>({});
  const [requestId, setRequestId] = useState<string>();
  const queryClient = useQueryClient();

  const close = () => {
    setPassword("");
    setAgain("");
    setGenerated(false);
    setCopied(false);
    setErrors({});
    setRequestId(undefined);
    dialog.current?.close();
  };

  const mutation = useMutation({
    mutationFn: (newPassword: string) => resetStaffPassword(account.id, newPassword),
    onSuccess: async (changed) => {
      close();
      onDone({ kind: "done", message: `New password set for ${changed.email}; their sessions were ended.` });
      await queryClient.invalidateQueries({ queryKey: STAFF_QUERY_KEY });
    },
    onError: (error) => {
      setErrors(
        error instanceof AdminRequestError && error.errors?.length
          ? byField(["password"] as const, error.errors)
          : { form: [error.message] },
      );
      setRequestId(error instanceof AdminRequestError ? error.requestId : undefined);
    },
  });

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (mutation.isPending) return;
    setRequestId(undefined);
    const result = staffPasswordSchema.safeParse(password);
    if (!result.success) return setErrors({ password: [result.error.issues[0].message] });
    if (!generated && again !== password) return setErrors({ again: ["the two passwords differ"] });
    setErrors({});
    mutation.mutate(password);
  }

  return (
    <dialog ref={dialog} aria-labelledby={`${id}-title`} className={dialogClass} onClose={close}>
      <form onSubmit={onSubmit} noValidate className="grid gap-3">
        <h2 id={`${id}-title`} className="text-lg font-semibold break-all">
          New password for {account.email}
        </h2>
        <p className="text-sm text-slate-700">
          They are signed out everywhere and sign in with the new password. Type it twice, or generate one.
        </p>
        <FormProblems
          id={`${id}-problems`}
          errors={errors}
          requestId={requestId}
          requestIdTestId="password-request-id"
        />
        {generated ? (
          <div>
            <label htmlFor={`${id}-generated`} className="block text-sm font-medium">
              Generated password (shown only now)
            </label>
            <div className="mt-1 flex gap-2">
              <input
                id={`${id}-generated`}
                readOnly
                value={password}
                className={`${inputClass(false)} mt-0 font-mono`}
                onFocus={(event) => event.currentTarget.select()}
              />
              <button
                type="button"
                className={plainButton}
                onClick={() => {
                  void navigator.clipboard?.writeText(password).then(() => setCopied(true));
                }}
              >
                {copied ? "Copied" : "Copy"}
              </button>
            </div>
          </div>
        ) : (
          <>
            <div>
              <label htmlFor={`${id}-password`} className="block text-sm font-medium">
                New password
              </label>
              <input
                id={`${id}-password`}
                type="password"
                autoComplete="new-password"
                value={password}
                onChange={(event) => setPassword(event.target.value)}
                aria-invalid={errors.password ? true : undefined}
                aria-describedby={describedBy(`${id}-hint`, errors.password && `${id}-password-error`)}
                className={inputClass(Boolean(errors.password))}
              />
              <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
                At least 12 characters.
              </p>
              <FieldMessage id={`${id}-password-error`} messages={errors.password} />
            </div>
            <div>
              <label htmlFor={`${id}-again`} className="block text-sm font-medium">
                The same again
              </label>
              <input
                id={`${id}-again`}
                type="password"
                autoComplete="new-password"
                value={again}
                onChange={(event) => setAgain(event.target.value)}
                aria-invalid={errors.again ? true : undefined}
                aria-describedby={describedBy(errors.again && `${id}-again-error`)}
                className={inputClass(Boolean(errors.again))}
              />
              <FieldMessage id={`${id}-again-error`} messages={errors.again} />
            </div>
          </>
        )}
        <div className="flex flex-wrap justify-end gap-2">
          {generated ? null : (
            <button
              type="button"
              className={plainButton}
              onClick={() => {
                setPassword(generatePassword());
                setGenerated(true);
                setErrors({});
              }}
            >
              Generate one
            </button>
          )}
          <button type="button" onClick={close} className={plainButton}>
            Cancel
          </button>
          <button type="submit" aria-disabled={mutation.isPending} className={dangerButton}>
            {mutation.isPending ? "Setting…" : "Set password"}
          </button>
        </div>
      </form>
    </dialog>
  );
}

const newFields = ["email", "role", "password"] as const;

/** Adding an account, validated in the browser by the endpoint's own schema. */
function AddStaffForm() {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<StaffRole>("staff");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<FormErrors<(typeof newFields)[number]>>({});
  const [requestId, setRequestId] = useState<string>();
  const [added, setAdded] = useState<StaffAccount>();
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);

  const mutation = useMutation({
    mutationFn: createStaffAccount,
    onSuccess: async (account) => {
      setAdded(account);
      setEmail("");
      setRole("staff");
      setPassword("");
      await queryClient.invalidateQueries({ queryKey: STAFF_QUERY_KEY });
    },
    onError: (error) => {
      const found =
        error instanceof AdminRequestError && error.errors?.length
          ? byField(newFields, error.errors)
          : { form: [error.message] };
      setErrors(found);
      setRequestId(error instanceof AdminRequestError ? error.requestId : undefined);
      (found.password ? passwordInput : emailInput).current?.focus();
    },
  });

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (mutation.isPending) return;
    setAdded(undefined);
    setRequestId(undefined);
    const result = newStaffSchema.safeParse({ email, role, password });
    if (!result.success) {
      const found = byField(newFields, fieldErrors(result.error));
      setErrors(found);
      (found.email ? emailInput : passwordInput).current?.focus();
      return;
    }
    setErrors({});
    mutation.mutate(result.data);
  }

  return (
    <section aria-labelledby="add-staff-title" className="self-start rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="add-staff-title" className="text-lg font-semibold">
        Add an account
      </h2>
      <form onSubmit={onSubmit} noValidate className="mt-3 grid gap-3">
        <FormProblems id="add-staff-problems" errors={errors} requestId={requestId} requestIdTestId="add-request-id" />
        <div>
          <label htmlFor="staff-email" className="block text-sm font-medium">
            Email
          </label>
          <input
            id="staff-email"
            ref={emailInput}
            type="email"
            autoComplete="off"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={describedBy(errors.email && "staff-email-error")}
            className={inputClass(Boolean(errors.email))}
          />
          <FieldMessage id="staff-email-error" messages={errors.email} />
        </div>
        <div>
          <label htmlFor="staff-role" className="block text-sm font-medium">
            Role
          </label>
          <select
            id="staff-role"
            value={role}
            onChange={(event) => setRole(event.target.value === "admin" ? "admin" : "staff")}
            aria-describedby="staff-role-hint"
            className={inputClass(false)}
          >
            <option value="staff">Staff: the catalogue</option>
            <option value="admin">Admin: also API keys, staff and activity</option>
          </select>
          <p id="staff-role-hint" className="mt-1 text-xs text-slate-600">
            An admin can do everything on these pages, including making other admins.
          </p>
        </div>
        <div>
          <label htmlFor="staff-password" className="block text-sm font-medium">
            Initial password
          </label>
          <div className="flex gap-2">
            <input
              id="staff-password"
              ref={passwordInput}
              type="text"
              autoComplete="off"
              spellCheck={false}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              aria-invalid={errors.password ? true : undefined}
              aria-describedby={describedBy("staff-password-hint", errors.password && "staff-password-error")}
              className={`${inputClass(Boolean(errors.password))} font-mono`}
            />
            <button type="button" onClick={() => setPassword(generatePassword())} className={`${plainButton} mt-1`}>
              Generate
            </button>
          </div>
          <p id="staff-password-hint" className="mt-1 text-xs text-slate-600">
            At least 12 characters. Give it to them privately; an admin can set a new one here at any time.
          </p>
          <FieldMessage id="staff-password-error" messages={errors.password} />
        </div>
        <button type="submit" aria-disabled={mutation.isPending} className={primaryButton}>
          {mutation.isPending ? "Adding…" : "Add account"}
        </button>
        <p role="status" className="min-h-5 text-sm text-emerald-800" data-testid="staff-added">
          {added
            ? `Added ${added.email} as ${added.role === "admin" ? "an admin" : "a staff member"}. ` +
              "They sign in at /sign-in with the password you gave them."
            : ""}
        </p>
      </form>
    </section>
  );
}
