"use client";

import { useEffect, useId, useRef } from "react";
import { FormProblems } from "@/components/admin/form-fields";
import { usePasswordReset, type Outcome } from "@/components/admin/use-staff-accounts";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/dialog";
import { TextField } from "@/components/ui/field";
import { generatePassword, type StaffAccount } from "@/lib/client/staff-api";

/**
 * A new password for an account: typed twice, or generated and shown once with a copy button. Setting it ends
 * the account's sessions. A generated password set before it was copied stays shown, with the focus on Copy, until
 * "I have copied it" closes the dialog. Closing it, however, forgets what was typed.
 */
export function PasswordDialog({
  open,
  account,
  onDone,
  onClose,
}: {
  open: boolean;
  account: StaffAccount;
  onDone: (outcome: Outcome) => void;
  onClose: () => void;
}) {
  const id = useId();
  const copyButton = useRef<HTMLButtonElement>(null);
  const form = usePasswordReset(account, (outcome, stayOpen) => {
    onDone(outcome);
    if (!stayOpen) onClose();
  });
  const close = () => {
    form.reset();
    onClose();
  };
  // Set password has gone from under the focus: Copy takes it.
  useEffect(() => {
    if (form.saved) copyButton.current?.focus();
  }, [form.saved]);

  return (
    <Modal open={open} onClose={close} titleId={`${id}-title`}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          form.submit();
        }}
        noValidate
        className="grid gap-3"
      >
        <h2 id={`${id}-title`} className="text-lg font-semibold break-all">
          New password for {account.email}
        </h2>
        {form.saved ? (
          <p role="status" className="text-sm font-medium text-amber-900">
            Password set. Copy it now: it is shown only this once.
          </p>
        ) : (
          <p className="text-sm text-slate-700">
            They are signed out everywhere and sign in with the new password. Type it twice, or generate one.
          </p>
        )}
        <FormProblems
          id={`${id}-problems`}
          errors={form.errors}
          requestId={form.requestId}
          requestIdTestId="password-request-id"
        />
        {form.generated ? (
          <TextField
            id={`${id}-generated`}
            label="Generated password (shown only now)"
            readOnly
            value={form.password}
            inputClassName="font-mono"
            onFocus={(event) => event.currentTarget.select()}
            beside={
              <Button ref={copyButton} onClick={form.copy} className="mt-1">
                {form.copied ? "Copied" : "Copy"}
              </Button>
            }
          />
        ) : (
          <TypedPassword id={id} form={form} />
        )}
        {form.saved ? (
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="primary" onClick={close}>
              I have copied it
            </Button>
          </div>
        ) : (
          <div className="flex flex-wrap justify-end gap-2">
            {form.generated ? null : <Button onClick={() => form.generate(generatePassword())}>Generate one</Button>}
            <Button onClick={close}>Cancel</Button>
            <Button type="submit" variant="danger" aria-disabled={form.pending}>
              {form.pending ? "Setting…" : "Set password"}
            </Button>
          </div>
        )}
      </form>
    </Modal>
  );
}

function TypedPassword({ id, form }: { id: string; form: ReturnType<typeof usePasswordReset> }) {
  return (
    <>
      <TextField
        id={`${id}-password`}
        label="New password"
        hint="At least 12 characters."
        errors={form.errors.password}
        type="password"
        autoComplete="new-password"
        value={form.password}
        onChange={(event) => form.setPassword(event.target.value)}
      />
      <TextField
        id={`${id}-again`}
        label="The same again"
        errors={form.errors.again}
        type="password"
        autoComplete="new-password"
        value={form.again}
        onChange={(event) => form.setAgain(event.target.value)}
      />
    </>
  );
}
