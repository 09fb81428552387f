"use client";

import { createContext, useContext, useEffect, useEffectEvent, useRef } from "react";
import { saveDraft, takeDraft } from "@/lib/client/drafts";
import { SESSION_ENDED } from "@/lib/pets/staff-messages";

// When an admin request answers 401 (the session ended: expired, signed out elsewhere, account disabled), the
// page stays: a dialog says so and links to sign-in with `next` = this very URL, and every open form's typed
// values are kept in sessionStorage, to be put back (not sent) when the form is shown again after sign-in.

type Drafts = {
  /** A form's current values, read when the session ends; undefined when it holds nothing worth keeping. */
  register: (key: string, read: () => Record<string, string> | undefined) => () => void;
};

export const DraftsContext = createContext<Drafts | undefined>(undefined);

/** The registry of open forms, and a function saving all their drafts. */
export function createDrafts(): Drafts & { saveAll: () => void } {
  const forms = new Map<string, () => Record<string, string> | undefined>();
  return {
    register: (key, read) => {
      forms.set(key, read);
      return () => {
        if (forms.get(key) === read) forms.delete(key);
      };
    },
    saveAll: () => forms.forEach((read, key) => saveDraft(key, read())),
  };
}

/**
 * Keeps a form's typed values if the session ends, and restores them once when the form mounts again.
 * `values` is what it holds now (undefined: nothing typed); `restore` puts a kept draft back into its inputs.
 */
export function useDraft(
  key: string,
  values: Record<string, string> | undefined,
  restore: (draft: Record<string, string>) => void,
): void {
  const drafts = useContext(DraftsContext);
  const latest = useRef(values);
  useEffect(() => {
    latest.current = values;
  });
  const onRestore = useEffectEvent(restore);
  useEffect(() => {
    const draft = takeDraft(key);
    if (draft) onRestore(draft);
    return drafts?.register(key, () => latest.current);
  }, [key, drafts]);
}

/** The sign-in page's address that comes back to this page afterwards, saying why sign-in is asked for. */
export function signInAgainHref(): string {
  const here = window.location.pathname + window.location.search;
  return `/sign-in?${new URLSearchParams({ next: here, reason: "session-ended" }).toString()}`;
}

/** The modal that says the session ended; open while `signInHref` is set, closed by its button or Escape. */
export function SessionEndedDialog({
  signInHref,
  onClose,
  onLeave,
}: {
  signInHref: string | undefined;
  onClose: () => void;
  /** Before following the sign-in link: the drafts are saved again, with what was typed since. */
  onLeave: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const link = useRef<HTMLAnchorElement>(null);
  const open = signInHref !== undefined;
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      link.current?.focus();
    } else if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      onClose={onClose}
      aria-labelledby="session-ended-title"
      aria-describedby="session-ended-text"
      data-testid="session-ended"
      className={
        "m-auto w-[calc(100%-2rem)] max-w-sm rounded-lg bg-white p-5 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
      }
    >
      <h2 id="session-ended-title" className="text-lg font-semibold">
        Session ended
      </h2>
      <p id="session-ended-text" className="mt-2 text-sm text-slate-700">
        {SESSION_ENDED}
      </p>
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <button
          type="button"
          onClick={() => dialog.current?.close()}
          className={
            "inline-flex min-h-11 items-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm " +
            "font-medium hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 " +
            "focus-visible:outline-indigo-600"
          }
        >
          Stay on this page
        </button>
        {/* A full navigation, not a client one: no page or data of the ended session stays in memory. */}
        <a
          ref={link}
          href={signInHref ?? "/sign-in"}
          onClick={onLeave}
          className={
            "inline-flex min-h-11 items-center rounded-md bg-indigo-700 px-3 py-2 text-sm font-medium text-white " +
            "hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 " +
            "focus-visible:outline-indigo-600"
          }
        >
          Sign in again
        </a>
      </div>
    </dialog>
  );
}
