"use client";

import { useEffect, useRef } from "react";

/** Why the sign-in page was opened, when the app sent the browser there: `?reason=`. */
export type SignInReason = "signed-out" | "session-ended";

const reasons: Record<SignInReason, string> = {
  "signed-out": "You have signed out.",
  "session-ended": "Your session has ended. Sign in again to continue where you were; what you typed is kept.",
};

/**
 * Why sign-in is asked for, above the form: a status message that takes the focus when the page opens, so a
 * screen reader reads it first and the next Tab reaches the email.
 */
export function SignInNotice({ reason }: { reason: SignInReason }) {
  const notice = useRef<HTMLParagraphElement>(null);
  useEffect(() => notice.current?.focus(), []);
  return (
    <p
      ref={notice}
      id="sign-in-reason"
      role="status"
      tabIndex={-1}
      className={
        "mt-6 rounded-md border border-indigo-200 bg-indigo-50 p-3 text-sm text-indigo-950 " +
        "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      }
    >
      {reasons[reason]}
    </p>
  );
}
