"use client";

import { useState } from "react";
import { signIn } from "@/lib/client/admin-api";

const focusRing = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600";

/** A text field's value; "" when the form lacks it. */
function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

/** Staff sign-in; on success the browser goes to `next` (an admin page, checked by the server page). */
export function SignInForm({ next }: { next: string }) {
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(undefined);
    try {
      await signIn(text(form, "email"), text(form, "password"));
      window.location.assign(next);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="mt-6 space-y-4" aria-describedby={error ? "sign-in-error" : undefined}>
      <div>
        <label htmlFor="email" className="block text-sm font-medium">
          Email
        </label>
        <input
          id="email"
          name="email"
          type="email"
          required
          autoComplete="username"
          className={`mt-1 block min-h-11 w-full rounded-md border border-slate-300 bg-white px-3 py-2 ${focusRing}`}
        />
      </div>
      <div>
        <label htmlFor="password" className="block text-sm font-medium">
          Password
        </label>
        <input
          id="password"
          name="password"
          type="password"
          required
          autoComplete="current-password"
          className={`mt-1 block min-h-11 w-full rounded-md border border-slate-300 bg-white px-3 py-2 ${focusRing}`}
        />
      </div>
      {error ? (
        <p
          id="sign-in-error"
          role="alert"
          className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900"
        >
          {error}
        </p>
      ) : null}
      <button
        type="submit"
        disabled={pending}
        className={
          "min-h-11 w-full rounded-md bg-indigo-700 px-4 py-2 font-medium text-white " +
          "hover:bg-indigo-800 disabled:opacity-60 " +
          focusRing
        }
      >
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
