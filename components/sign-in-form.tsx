"use client";

import { useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { signIn } from "@/lib/client/admin-api";
import { markSignedInAgain } from "@/lib/client/drafts";

/** A text field's value; "" when the form lacks it. */
function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

/**
 * Staff sign-in; on success the browser goes to `next` (an admin page, checked by the server page). A refusal is
 * announced (the alert) and the focus goes back to the password, selected to type again: the disabled Sign in
 * button would otherwise leave it on the page's body.
 */
export function SignInForm({ next }: { next: string }) {
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const password = useRef<HTMLInputElement>(null);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(undefined);
    try {
      await signIn(text(form, "email"), text(form, "password"));
      markSignedInAgain(); // the page opened next puts back what its forms held when the session ended
      window.location.assign(next);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
      setPending(false);
      password.current?.focus();
      password.current?.select();
    }
  }

  return (
    <form onSubmit={onSubmit} className="mt-6 space-y-4" aria-describedby={error ? "sign-in-error" : undefined}>
      <TextField id="email" label="Email" name="email" type="email" required autoComplete="username" />
      <TextField
        id="password"
        ref={password}
        label="Password"
        name="password"
        type="password"
        required
        autoComplete="current-password"
      />
      {error ? <Alert id="sign-in-error">{error}</Alert> : null}
      <Button type="submit" variant="primary" size="large" disabled={pending} className="w-full">
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
