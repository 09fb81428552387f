// What staff typed into a form, kept in sessionStorage (this tab only, gone when it closes) while they sign in
// again after their session ended, and put back once, when the form is shown again. One entry per form (the add
// form, a pet's edit form). Only pet fields are kept: no form with a password keeps a draft.

const prefix = "animal-store:draft:";

export function saveDraft(key: string, values: Record<string, string> | undefined): void {
  try {
    if (values) sessionStorage.setItem(prefix + key, JSON.stringify(values));
    else sessionStorage.removeItem(prefix + key);
  } catch {
    // Storage refused (private mode, full): the draft is lost, as it was before drafts were kept.
  }
}

/** The form's kept draft, removed as it is read: it is restored once, never again on a later reload. */
export function takeDraft(key: string): Record<string, string> | undefined {
  try {
    const text = sessionStorage.getItem(prefix + key);
    if (text === null) return undefined;
    sessionStorage.removeItem(prefix + key);
    const value = JSON.parse(text) as unknown;
    if (!value || typeof value !== "object") return undefined;
    return Object.fromEntries(
      Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
    );
  } catch {
    return undefined;
  }
}
