// The admin app's keyboard shortcuts, in one table: the key handler (components/admin/keyboard.tsx) acts on these
// entries, the help dialog lists them, and scripts/generate-docs.ts writes the table in docs/staff.md from them.

export type ShortcutId =
  "help" | "palette" | "search" | "newPet" | "next" | "previous" | "open" | "select" | "edit" | "close";

export type Shortcut = {
  id: ShortcutId;
  /** The keys as the help shows them, each in its own <kbd>: ["Ctrl", "K"]. */
  keys: string[];
  /** What `event.key` is for a single-key shortcut (undefined for one the handler does not match on `key` alone). */
  key?: string;
  /** What it does, in staff words. */
  does: string;
  /** "single" keys are character keys, which a staff member can turn off (WCAG 2.1.4); "always" are not. */
  kind: "single" | "always";
  /** Where it works: on every admin page, or on the catalogue. */
  where: "everywhere" | "catalogue";
  /** Shown only when the catalogue's rows have selection checkboxes. */
  needsSelection?: true;
};

export const SHORTCUTS: readonly Shortcut[] = [
  {
    id: "palette",
    keys: ["Ctrl", "K"],
    does: "Search everything: a pet by name or id, a page, an action (⌘K on a Mac)",
    kind: "always",
    where: "everywhere",
  },
  { id: "help", keys: ["?"], key: "?", does: "Show the keyboard shortcuts", kind: "single", where: "everywhere" },
  {
    id: "newPet",
    keys: ["n"],
    key: "n",
    does: "New pet: the add form's first field (from another page, the catalogue's)",
    kind: "single",
    where: "everywhere",
  },
  {
    id: "search",
    keys: ["/"],
    key: "/",
    does: "Search the catalogue by name or id (on another page, Search everything)",
    kind: "single",
    where: "everywhere",
  },
  { id: "next", keys: ["j"], key: "j", does: "Next row of the table", kind: "single", where: "catalogue" },
  { id: "previous", keys: ["k"], key: "k", does: "Previous row of the table", kind: "single", where: "catalogue" },
  { id: "open", keys: ["Enter"], does: "Open the current row's pet", kind: "always", where: "catalogue" },
  {
    id: "select",
    keys: ["x"],
    key: "x",
    does: "Select the current row, or clear its selection",
    kind: "single",
    where: "catalogue",
    needsSelection: true,
  },
  {
    id: "edit",
    keys: ["e"],
    key: "e",
    does: "Edit the open pet's name and category",
    kind: "single",
    where: "catalogue",
  },
  {
    id: "close",
    keys: ["Esc"],
    does: "Close the open pet (not while a changed field or a dialog has the focus)",
    kind: "always",
    where: "catalogue",
  },
];

/** The single-key shortcut `key` stands for, if any. */
export function singleKeyShortcut(key: string): Shortcut | undefined {
  return SHORTCUTS.find((shortcut) => shortcut.kind === "single" && shortcut.key === key);
}

/** Where the choice to turn single-key shortcuts off is kept, in this browser (localStorage). */
export const SINGLE_KEYS_STORAGE = "admin-single-key-shortcuts";

/** The attribute a pet's panel carries while it covers a phone's screen: most shortcuts then wait (shortcuts.tsx). */
export const SHEET_ATTRIBUTE = "data-sheet";
