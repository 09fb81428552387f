"use client";

import { useEffect, useRef, useState } from "react";
import { signIn } from "@/lib/client/admin-api";
import { markSignedInAgain } from "@/lib/client/drafts";

const focusRing = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600";

/** A text field's value; "" when the form lacks it. */
function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

/** Why the sign-in page was opened, when the app sent the browser there: `?reason=`. */
export type SignInReason = "signed-out" | "session-ended";

const reasons: Record<SignInReason, string> = {
  "signed-out": "You have signed out.",
  "session-ended": "Your session has ended. Sign in again to continue where you were; what you typed is kept.",
};

/**
 * Staff sign-in; on success the browser goes to `next` (an admin page, checked by the server page). With a
 * `reason`, a status message above the form says why sign-in is asked for, and takes the focus, so a screen
 * reader reads it first and the next Tab reaches the email.
 */
export function SignInForm({ next, reason }: { next: string; reason?: SignInReason }) {
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const notice = useRef<HTMLParagraphElement>(null);
  useEffect(() => notice.current?.focus(), []);

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
    }
  }

  return (
    <>
      {reason ? (
        <p
          ref={notice}
          id="sign-in-reason"
          role="status"
          tabIndex={-1}
          className={`mt-6 rounded-md border border-indigo-200 bg-indigo-50 p-3 text-sm text-indigo-950 ${focusRing}`}
        >
          {reasons[reason]}
        </p>
      ) : null}
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
            className={`mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 ${focusRing}`}
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
            className={`mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 ${focusRing}`}
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
            "w-full rounded-md bg-indigo-700 px-4 py-2 font-medium text-white " +
            "hover:bg-indigo-800 disabled:opacity-60 " +
            focusRing
          }
        >
          {pending ? "Signing in…" : "Sign in"}
        </button>
      </form>
    </>
  );
}
