"use client";

import { useEffect, useEffectEvent, useRef, useState, useSyncExternalStore } from "react";
import { petLinkId } from "@/components/admin/pet-table";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/dialog";
import { focusRing } from "@/components/ui/focus-ring";
import {
  SHEET_ATTRIBUTE,
  SHORTCUTS,
  singleKeyShortcut,
  SINGLE_KEYS_STORAGE,
  type Shortcut,
  type ShortcutId,
} from "@/lib/client/shortcuts";

// The admin app's keyboard shortcuts (the table is lib/client/shortcuts.ts): the key handler, the help dialog that
// `?` opens, and what the catalogue's shortcuts do to the page. A single-key shortcut fires only when the focus is
// not in a text field, a select or an editable region, no modifier but Shift (for `?`) is held, and no dialog is
// open; a staff member may turn them all off in the help dialog (WCAG 2.1.4), a choice this browser remembers.

/** Said by this tab when it changes the choice; other tabs hear `storage`. */
const SINGLE_KEYS_EVENT = "admin-single-key-shortcuts";

function singleKeysOn(): boolean {
  try {
    return window.localStorage.getItem(SINGLE_KEYS_STORAGE) !== "off";
  } catch {
    return true; // storage refused (a private window's policy): the shortcuts stay on
  }
}

function subscribeSingleKeys(callback: () => void): () => void {
  window.addEventListener("storage", callback);
  window.addEventListener(SINGLE_KEYS_EVENT, callback);
  return () => {
    window.removeEventListener("storage", callback);
    window.removeEventListener(SINGLE_KEYS_EVENT, callback);
  };
}

/** Whether single-key shortcuts are on in this browser, and the way to change it. */
export function useSingleKeys(): [boolean, (on: boolean) => void] {
  const on = useSyncExternalStore(subscribeSingleKeys, singleKeysOn, () => true);
  const set = (value: boolean) => {
    try {
      if (value) window.localStorage.removeItem(SINGLE_KEYS_STORAGE);
      else window.localStorage.setItem(SINGLE_KEYS_STORAGE, "off");
    } catch {
      // not remembered; nothing else to do
    }
    window.dispatchEvent(new Event(SINGLE_KEYS_EVENT));
  };
  return [on, set];
}

/** Whether a key pressed in `element` is typing: a text field, a select or an editable region. */
function isTyping(element: Element | null): boolean {
  if (!element) return false;
  if (element instanceof HTMLElement && element.isContentEditable) return true;
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
  return (
    element instanceof HTMLInputElement && !["checkbox", "radio", "button", "submit", "reset"].includes(element.type)
  );
}

/** Whether a modal dialog is open (the app's, or the palette): its keys are its own. */
function dialogOpen(): boolean {
  return document.querySelector(`dialog[open], [aria-modal='true']:not([${SHEET_ATTRIBUTE}])`) !== null;
}

/**
 * The shortcuts that work while a pet's panel covers a phone's screen (use-pet-panel's useSheetOnPhone), which makes
 * the page behind it inert: those acting on the open pet, and New pet, which closes it. The rest would reach
 * nothing anyone can see.
 */
const OVER_A_SHEET = new Set<ShortcutId>(["edit", "newPet"]);

function sheetOpen(): boolean {
  return document.querySelector(`[${SHEET_ATTRIBUTE}]`) !== null;
}

/**
 * Runs `run(id)` for the shortcuts pressed: Ctrl+K and ⌘K anywhere but in a dialog, the single keys as said above.
 * `run` answers whether it did anything; only then is the key's default (typing, scrolling) prevented.
 */
export function useShortcutKeys(run: (id: ShortcutId) => boolean): void {
  const onKeyDown = useEffectEvent((event: KeyboardEvent) => {
    if (event.defaultPrevented || event.isComposing || dialogOpen()) return;
    const target = event.target instanceof Element ? event.target : null;
    if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === "k") {
      if (!sheetOpen() && run("palette")) event.preventDefault();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey || isTyping(target)) return;
    const shortcut = singleKeyShortcut(event.key);
    if (!shortcut || (event.shiftKey && shortcut.id !== "help") || !singleKeysOn()) return;
    if (sheetOpen() && !OVER_A_SHEET.has(shortcut.id)) return;
    if (run(shortcut.id)) event.preventDefault();
  });
  useEffect(() => {
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);
}

// What the catalogue's shortcuts do, on the page as it is: each answers whether there was anything to do.

/** The rows of the catalogue's table: each holds its pet's name link. */
function tableRows(): HTMLTableRowElement[] {
  const links = document.querySelectorAll<HTMLElement>(`tbody a[id^="${petLinkId("")}"]`);
  return [...links].flatMap((link) => link.closest("tr") ?? []);
}

/** The row holding the focus: the current row, which j and k move and x and Enter act on. */
function currentRow(rows: HTMLTableRowElement[]): number {
  return rows.findIndex((row) => row.contains(document.activeElement));
}

/** j and k: the focus to the next (previous) row's name link; from outside the table, to its first (last) row. */
export function moveRow(step: 1 | -1): boolean {
  const rows = tableRows();
  if (rows.length === 0) return false;
  const at = currentRow(rows);
  const next = at < 0 ? (step > 0 ? 0 : rows.length - 1) : Math.min(rows.length - 1, Math.max(0, at + step));
  rows[next].querySelector<HTMLElement>(`a[id^="${petLinkId("")}"]`)?.focus();
  return true;
}

/** The selection checkbox of the current row, when the table has them. */
function rowCheckbox(row: Element | undefined): HTMLInputElement | null {
  return row?.querySelector<HTMLInputElement>('input[type="checkbox"]') ?? null;
}

/** x: the current row's selection checkbox pressed, when there is one. */
export function toggleRowSelection(): boolean {
  const rows = tableRows();
  const checkbox = rowCheckbox(rows[currentRow(rows)]);
  if (!checkbox) return false;
  checkbox.click();
  return true;
}

/** Whether the table on the page has selection checkboxes (x is then listed in the help). */
function tableSelects(): boolean {
  return tableRows().some((row) => rowCheckbox(row) !== null);
}

/**
 * Focuses the element with `id`; whether it is on the page and took the focus. A text field's text is selected
 * (a search to type over), or with `caret: "end"` the caret put after it (a name to change).
 */
export function focusField(id: string, { caret }: { caret?: "end" } = {}): boolean {
  const field = document.getElementById(id);
  if (!field) return false;
  field.focus();
  if (field instanceof HTMLInputElement) {
    if (caret === "end") field.setSelectionRange(field.value.length, field.value.length);
    else field.select();
  }
  return document.activeElement === field;
}

/**
 * Focuses the element with `id` once it is on the page (after a navigation under way), giving up after `ms`. Kept
 * outside any component: the page that asked may be replaced meanwhile.
 */
export function focusWhenShown(id: string, ms = 5_000): void {
  const until = Date.now() + ms;
  const attempt = () => {
    if (focusField(id)) return;
    if (Date.now() < until) requestAnimationFrame(attempt);
  };
  attempt();
}

// The help dialog.

export const SHORTCUT_HELP_TITLE_ID = "shortcut-help-title";

const groups: { where: Shortcut["where"]; title: string }[] = [
  { where: "everywhere", title: "On every page" },
  { where: "catalogue", title: "In the catalogue" },
];

/** The shortcuts and the switch for the single-key ones; `x` only when the table on the page can select rows. */
export function ShortcutHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  const close = useRef<HTMLButtonElement>(null);
  const [singleKeys, setSingleKeys] = useSingleKeys();
  const [selects, setSelects] = useState(false);
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setSelects(tableSelects());
  }
  return (
    <Modal open={open} onClose={onClose} titleId={SHORTCUT_HELP_TITLE_ID} initialFocus={close} testId="shortcut-help">
      <h2 id={SHORTCUT_HELP_TITLE_ID} className="text-lg font-semibold">
        Keyboard shortcuts
      </h2>
      {groups.map((group) => (
        <section key={group.where} aria-labelledby={`shortcuts-${group.where}`} className="mt-4">
          <h3 id={`shortcuts-${group.where}`} className="text-sm font-semibold">
            {group.title}
          </h3>
          <dl className="mt-2 space-y-2 text-sm">
            {SHORTCUTS.filter((each) => each.where === group.where && (!each.needsSelection || selects)).map((each) => (
              <div key={each.id} className="flex gap-3">
                <dt className="w-20 shrink-0">
                  {each.keys.map((key, index) => (
                    <span key={key}>
                      {index > 0 ? " + " : ""}
                      <kbd className="rounded border border-slate-300 bg-slate-100 px-1.5 py-0.5 font-mono text-xs">
                        {key}
                      </kbd>
                    </span>
                  ))}
                </dt>
                <dd className={each.kind === "single" && !singleKeys ? "text-slate-600 line-through" : undefined}>
                  {each.does}
                  {each.kind === "single" && !singleKeys ? <span className="sr-only"> (turned off)</span> : null}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
      <div className="mt-4 border-t border-slate-200 pt-3">
        <label className="flex min-h-11 items-center gap-3 text-sm font-medium">
          <input
            type="checkbox"
            checked={singleKeys}
            onChange={(event) => setSingleKeys(event.target.checked)}
            aria-describedby="single-keys-hint"
            className={`size-5 ${focusRing}`}
          />
          Single-key shortcuts
        </label>
        <p id="single-keys-hint" className="text-xs text-slate-600">
          The keys without Ctrl or ⌘. Off, only Ctrl+K (⌘K), Enter and Esc stay; this browser remembers the choice.
        </p>
      </div>
      <div className="mt-4 flex justify-end">
        <Button ref={close} onClick={onClose}>
          Close
        </Button>
      </div>
    </Modal>
  );
}
