// What staff type into a form, kept in sessionStorage (this tab only, gone when it closes) as they type, so that
// it survives the session ending however the browser then reaches the sign-in page (the session-ended dialog,
// or a page's own redirect on the next navigation). A kept draft is put back only once the tab has signed in
// again (signInAgain marks that), once, and never sent by itself. One entry per form (the add form, a pet's edit
// form); only pet fields are kept: no form with a password or a secret keeps a draft. Signing out clears them.

const prefix = "animal-store:draft:";
const signedInAgain = "animal-store:signed-in-again";
const owner = "animal-store:draft-owner";

function storage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined; // storage refused (private mode, a sandbox): drafts are lost, as they were before
  }
}

export function saveDraft(key: string, values: Record<string, string> | undefined): void {
  try {
    if (values) storage()?.setItem(prefix + key, JSON.stringify(values));
    else storage()?.removeItem(prefix + key);
  } catch {
    // full: the draft is lost
  }
}

/** The form's kept draft, removed as it is read. */
export function takeDraft(key: string): Record<string, string> | undefined {
  try {
    const text = storage()?.getItem(prefix + key);
    if (text === null || text === undefined) return undefined;
    storage()?.removeItem(prefix + key);
    const value = JSON.parse(text) as unknown;
    if (!value || typeof value !== "object") return undefined;
    return Object.fromEntries(
      Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
    );
  } catch {
    return undefined;
  }
}

/** Sign-in succeeded: the admin page opened next may put its forms' drafts back. */
export function markSignedInAgain(): void {
  try {
    storage()?.setItem(signedInAgain, "1");
  } catch {
    // nothing will be restored
  }
}

/** Whether this page load follows a sign-in (read once per page, and cleared). */
export function takeSignedInAgain(): boolean {
  try {
    const marked = storage()?.getItem(signedInAgain) === "1";
    storage()?.removeItem(signedInAgain);
    return marked;
  } catch {
    return false;
  }
}

/** Signing out: nothing typed in this tab outlives it. */
export function clearDrafts(): void {
  const kept = storage();
  if (!kept) return;
  for (const key of Object.keys(kept)) if (key.startsWith(prefix)) kept.removeItem(key);
}

/**
 * The signed-in staff member (by id) whose page this is. Drafts kept under someone else (a shared computer: one
 * staff member's session ended, another signed in from its dialog) are dropped, never put in the other's forms.
 */
export function claimDrafts(staffId: number): void {
  const kept = storage();
  if (!kept) return;
  try {
    if (kept.getItem(owner) !== String(staffId)) {
      clearDrafts();
      kept.setItem(owner, String(staffId));
    }
  } catch {
    // storage refused: no drafts are kept either
  }
}
