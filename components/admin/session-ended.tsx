"use client";

import { createContext, useContext, useEffect, useEffectEvent, useLayoutEffect, useRef } from "react";
import { claimDrafts, saveDraft, takeDraft, takeSignedInAgain } from "@/lib/client/drafts";
import { Button, buttonClass } from "@/components/ui/button";
import { Modal } from "@/components/ui/dialog";
import { SESSION_ENDED } from "@/lib/pets/staff-messages";

// When an admin request answers 401 (the session ended: expired, signed out elsewhere, account disabled), the
// page stays: a dialog says so and links to sign-in with `next` = this very URL. The add form and an open edit
// form keep what they hold in sessionStorage as it is typed (lib/client/drafts.ts), and put it back (never send
// it) when shown again after sign-in, whichever way the browser got there.

type Drafts = {
  /** Whether this page was opened by signing in again: forms may put their kept drafts back. */
  restoring: () => boolean;
  /** The session ended (a 401 was seen): forms keep their drafts even as they close. */
  ended: () => boolean;
};

export const DraftsContext = createContext<Drafts | undefined>(undefined);

/** The page's draft state; `endSession` marks the session ended. */
export function createDrafts(): Drafts & { endSession: () => void } {
  let restoring: boolean | undefined;
  let ended = false;
  return {
    // Read on first use, in the browser (never while rendering on the server).
    restoring: () => (restoring ??= takeSignedInAgain()),
    ended: () => ended,
    endSession: () => {
      ended = true;
    },
  };
}

/**
 * Keeps a form's typed values as they change, and after a sign-in puts a kept draft back once, when the form
 * mounts. `values` is what it holds now (undefined: nothing typed, and the kept draft is dropped); `restore` puts
 * a draft back into its inputs. With `dropOnClose`, closing the form (a pet's panel) drops its draft, unless the
 * session has ended.
 */
export function useDraft(
  key: string,
  values: Record<string, string> | undefined,
  restore: (draft: Record<string, string>) => void,
  { dropOnClose = false } = {},
): void {
  const drafts = useContext(DraftsContext);
  const onRestore = useEffectEvent(restore);
  // Declared before the saving effect: on mount the kept draft is read before the empty form would drop it.
  useEffect(() => {
    if (!drafts?.restoring()) return;
    const draft = takeDraft(key);
    if (draft) onRestore(draft);
  }, [key, drafts]);
  const text = values && JSON.stringify(values);
  useEffect(() => {
    saveDraft(key, text === undefined ? undefined : (JSON.parse(text) as Record<string, string>));
  }, [key, text]);
  useEffect(() => {
    if (!dropOnClose) return;
    return () => {
      if (!drafts?.ended()) saveDraft(key, undefined);
    };
  }, [key, drafts, dropOnClose]);
}

/**
 * Rendered by every admin page's header with the signed-in staff member: drafts someone else kept in this tab are
 * dropped before any form reads them (layout effects all run before the forms' effects).
 */
export function DraftOwner({ staffId }: { staffId: number }) {
  useLayoutEffect(() => claimDrafts(staffId), [staffId]);
  return null;
}

/** The sign-in page's address that comes back to this page afterwards, saying why sign-in is asked for. */
export function signInAgainHref(): string {
  const here = window.location.pathname + window.location.search;
  return `/sign-in?${new URLSearchParams({ next: here, reason: "session-ended" }).toString()}`;
}

/** The modal that says the session ended; open while `signInHref` is set, closed by its button or Escape. */
export function SessionEndedDialog({ signInHref, onClose }: { signInHref: string | undefined; onClose: () => void }) {
  const link = useRef<HTMLAnchorElement>(null);
  return (
    <Modal
      open={signInHref !== undefined}
      onClose={onClose}
      titleId="session-ended-title"
      descriptionId="session-ended-text"
      initialFocus={link}
      size="small"
      testId="session-ended"
    >
      <h2 id="session-ended-title" className="text-lg font-semibold">
        Session ended
      </h2>
      <p id="session-ended-text" className="mt-2 text-sm text-slate-700">
        {SESSION_ENDED}
      </p>
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <Button onClick={onClose}>Stay on this page</Button>
        {/* A full navigation, not a client one: no page or data of the ended session stays in memory. */}
        <a ref={link} href={signInHref ?? "/sign-in"} className={buttonClass({ variant: "primary" })}>
          Sign in again
        </a>
      </div>
    </Modal>
  );
}
