"use client";

import { useRef } from "react";
import { FormProblems } from "@/components/admin/form-fields";
import { useAddStaff } from "@/components/admin/use-staff-accounts";
import { Button } from "@/components/ui/button";
import { FieldHint, inputClass, TextField } from "@/components/ui/field";
import { generatePassword } from "@/lib/client/staff-api";

/** Adding an account, validated in the browser by the endpoint's own schema; a refused input takes the focus. */
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
            <Button onClick={() => form.setPassword(generatePassword())} className="mt-1">
              Generate
            </Button>
          }
        />
        <Button type="submit" variant="primary" aria-disabled={form.pending}>
          {form.pending ? "Adding…" : "Add account"}
        </Button>
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
