"use client";

import { useEffect, useRef } from "react";
import { FormProblems } from "@/components/admin/form-fields";
import { useAddStaff, type AddedAccount } from "@/components/admin/use-staff-accounts";
import { Button } from "@/components/ui/button";
import { CopyField } from "@/components/ui/copy-field";
import { FieldHint, inputClass, TextField } from "@/components/ui/field";
import { focusRing } from "@/components/ui/focus-ring";
import { generatePassword } from "@/lib/client/staff-api";

/**
 * Adding an account, validated in the browser by the endpoint's own schema; a refused input takes the focus. A
 * generated password stays shown after Add, with a Copy button, until the admin says they have copied it.
 */
export function AddStaffForm() {
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const form = useAddStaff((field) => (field === "password" ? passwordInput : emailInput).current?.focus());
  const { added, errors } = form;

  return (
    <section aria-labelledby="add-staff-title" className="self-start rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="add-staff-title" className="text-lg font-semibold">
        Add an account
      </h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          form.submit();
        }}
        noValidate
        className="mt-3 grid gap-3"
      >
        <FormProblems
          id="add-staff-problems"
          errors={errors}
          requestId={form.requestId}
          requestIdTestId="add-request-id"
        />
        <TextField
          id="staff-email"
          label="Email"
          errors={errors.email}
          ref={emailInput}
          type="email"
          autoComplete="off"
          value={form.email}
          onChange={(event) => form.setEmail(event.target.value)}
        />
        <div>
          <label htmlFor="staff-role" className="block text-sm font-medium">
            Role
          </label>
          <select
            id="staff-role"
            value={form.role}
            onChange={(event) => form.setRole(event.target.value === "admin" ? "admin" : "staff")}
            aria-describedby="staff-role-hint"
            className={inputClass(false)}
          >
            <option value="staff">Staff: the catalogue</option>
            <option value="admin">Admin: also API keys, staff and activity</option>
          </select>
          <FieldHint id="staff-role-hint">
            An admin can do everything on these pages, including making other admins.
          </FieldHint>
        </div>
        <TextField
          id="staff-password"
          label="Initial password"
          hint="At least 12 characters. Give it to them privately; an admin can set a new one here at any time."
          errors={errors.password}
          ref={passwordInput}
          type="text"
          autoComplete="off"
          spellCheck={false}
          value={form.password}
          onChange={(event) => form.setPassword(event.target.value)}
          inputClassName="font-mono"
          beside={
            <Button onClick={() => form.generate(generatePassword())} className="mt-1">
              Generate
            </Button>
          }
        />
        <Button type="submit" variant="primary" aria-disabled={form.pending}>
          {form.pending ? "Adding…" : "Add account"}
        </Button>
        <p role="status" className="min-h-5 text-sm text-emerald-800" data-testid="staff-added">
          {added
            ? `Added ${added.account.email} as ${added.account.role === "admin" ? "an admin" : "a staff member"}. ` +
              "They sign in at /sign-in with the password you gave them."
            : ""}
        </p>
      </form>
      {form.uncopied.map((shown) => (
        <GeneratedPasswordPanel
          key={String(shown.account.id)}
          added={shown}
          onCopied={() => form.passwordCopied(shown.account.id)}
        />
      ))}
    </section>
  );
}

/**
 * The generated password of an account just added, with its Copy button, until "I have copied it" takes it away
 * and puts the focus on the new account's heading in the list. Adding another account meanwhile shows its panel
 * below this one: neither is lost unseen.
 */
function GeneratedPasswordPanel({ added, onCopied }: { added: AddedAccount; onCopied: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const email = added.account.email;
  const titleId = `added-password-title-${added.account.id}`;
  return (
    <section aria-labelledby={titleId} className="mt-4 space-y-3 rounded-lg border-2 border-amber-500 bg-amber-50 p-4">
      <h3 id={titleId} ref={heading} tabIndex={-1} className={`font-semibold break-all ${focusRing}`}>
        Password for {email}
      </h3>
      <p className="text-sm font-medium text-amber-900">
        Copy it now and give it to them privately: it is shown only this once.
      </p>
      <CopyField label="Initial password (shown only now)" value={added.generatedPassword ?? ""} />
      <Button
        variant="primary"
        size="large"
        onClick={() => {
          onCopied();
          document.getElementById(`staff-${added.account.id}-email`)?.focus();
        }}
      >
        I have copied it
      </Button>
    </section>
  );
}
