"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useEffectEvent, useId, useRef, useState } from "react";
import { Modal } from "@/components/ui/dialog";
import { inputClass } from "@/components/ui/field";
import { fetchPet, fetchPetPage } from "@/lib/client/admin-api";
import { typedPetId, typedSearch } from "@/lib/client/catalogue-view";
import type { Pet } from "@/lib/pets/schema";

// Search everything (Ctrl+K, ⌘K, or the header's button): one text field that finds pets by name (the catalogue's
// list endpoint, searched by name) or by id ("35" or "#35", as the catalogue's search box reads it), the pages this
// staff member may open and the app's actions, by name. An ARIA 1.2 combobox: the focus stays in the field, the
// arrow keys move the active option (aria-activedescendant), Enter chooses it, Escape closes the dialog. Enter pressed
// while the pets for the text in the field are still being looked up chooses once they have arrived.

/** How long typing must pause before pets are looked up. */
const DEBOUNCE_MS = 250;
/** How many pets a name finds, at most. */
const PETS_SHOWN = 6;

export type PaletteEntry = {
  /** Unique among the entries; part of the option's id. */
  key: string;
  label: string;
  /** Shown after the label, dimmer: a pet's id and status. */
  detail?: string;
  /** More words it is found by. */
  keywords?: string;
  run: () => void;
};

type Group = { name: "Pets" | "Pages" | "Actions"; entries: PaletteEntry[] };

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The pets `text` finds: by id when it is one ("35", "#35"), by name unless it is "#…". */
function usePetMatches(text: string) {
  const live = text.trim();
  const typed = useDebounced(live, DEBOUNCE_MS);
  const id = typedPetId(typed);
  const name = typed.startsWith("#") ? "" : typedSearch(typed);
  const byId = useQuery({
    queryKey: ["palette", "pet", id],
    queryFn: () => fetchPet(id!),
    enabled: id !== undefined,
  });
  const byName = useQuery({
    queryKey: ["palette", "pets", name],
    queryFn: () => fetchPetPage(new URLSearchParams({ q: name, sort: "name", limit: String(PETS_SHOWN) }).toString()),
    enabled: name !== "",
  });
  // The pets an older text found are no answer to the one in the field: none are shown until its own have arrived.
  const settled = typed === live;
  const pets: Pet[] = [];
  if (settled && id !== undefined && byId.data) pets.push(byId.data.pet);
  for (const pet of settled && name ? (byName.data?.pets ?? []) : []) if (String(pet.id) !== id) pets.push(pet);
  const searching = !settled || (id !== undefined && byId.isFetching) || (name !== "" && byName.isFetching);
  const failed = (name !== "" && byName.isError) || (id !== undefined && byId.isError && !isNotFound(byId.error));
  return { pets, searching, failed };
}

function isNotFound(error: unknown): boolean {
  return typeof error === "object" && error !== null && "status" in error && error.status === 404;
}

function matches(entry: PaletteEntry, text: string): boolean {
  const words = text.trim().toLowerCase();
  return `${entry.label} ${entry.keywords ?? ""}`.toLowerCase().includes(words);
}

export const PALETTE_TITLE_ID = "command-palette-title";

export function CommandPalette({
  open,
  onClose,
  pages,
  actions,
  onChoosePet,
}: {
  open: boolean;
  onClose: () => void;
  pages: PaletteEntry[];
  actions: PaletteEntry[];
  onChoosePet: (id: string) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState("");
  const [active, setActive] = useState<string>();
  // Enter was pressed while the pets for the text were still being looked up: the first entry is chosen once they
  // are in, so that a pet is not passed over for a page, nor the pet of an older text chosen.
  const enterPending = useRef(false);
  const ids = useId();
  const optionId = (key: string) => `${ids}-option-${key}`;
  const listId = `${ids}-list`;
  const { pets, searching, failed } = usePetMatches(text);

  const groups: Group[] = [
    {
      name: "Pets" as const,
      entries: pets.map((pet) => ({
        key: `pet-${String(pet.id)}`,
        label: pet.name,
        detail: `#${String(pet.id)}${pet.status ? `, ${pet.status}` : ""}`,
        run: () => onChoosePet(String(pet.id)),
      })),
    },
    { name: "Pages" as const, entries: pages.filter((entry) => matches(entry, text)) },
    { name: "Actions" as const, entries: actions.filter((entry) => matches(entry, text)) },
  ].filter((group) => group.entries.length > 0);
  const entries = groups.flatMap((group) => group.entries);
  // The active option is kept by its key while the results change around it; the first one otherwise.
  const current = entries.find((entry) => entry.key === active) ?? entries[0];

  // Once the dialog has closed and given the focus back: an entry that moves the focus (New pet) may then.
  const choose = (entry: PaletteEntry) => {
    onClose();
    setTimeout(entry.run, 0);
  };
  const chooseFirst = useEffectEvent(() => {
    enterPending.current = false;
    if (entries[0]) choose(entries[0]);
  });
  useEffect(() => {
    if (open && !searching && enterPending.current) chooseFirst();
  }, [open, searching]);
  const move = (step: number) => {
    enterPending.current = false;
    if (entries.length === 0) return;
    const at = current ? entries.indexOf(current) : -1;
    const next = entries[(at + step + entries.length) % entries.length];
    setActive(next.key);
    document.getElementById(optionId(next.key))?.scrollIntoView({ block: "nearest" });
  };

  const status = failed
    ? "Pets could not be searched; pages and actions still can."
    : searching
      ? "Searching pets…"
      : entries.length === 0
        ? "Nothing matches."
        : `${entries.length} ${entries.length === 1 ? "result" : "results"}.`;

  return (
    <Modal open={open} onClose={onClose} titleId={PALETTE_TITLE_ID} initialFocus={input} size="large" testId="palette">
      <h2 id={PALETTE_TITLE_ID} className="text-lg font-semibold">
        Search everything
      </h2>
      <label htmlFor={`${ids}-input`} className="mt-2 block text-sm font-medium">
        A pet&apos;s name or id, a page, an action
      </label>
      <input
        ref={input}
        id={`${ids}-input`}
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={entries.length > 0}
        aria-controls={listId}
        aria-activedescendant={current ? optionId(current.key) : undefined}
        aria-describedby={`${ids}-status`}
        value={text}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => {
          setText(event.target.value);
          setActive(undefined);
          enterPending.current = false;
        }}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown" || event.key === "ArrowUp") {
            event.preventDefault();
            move(event.key === "ArrowDown" ? 1 : -1);
          } else if (event.key === "Enter") {
            event.preventDefault();
            // An option made active by the arrow keys or the pointer is chosen at once; the first waits for the pets.
            if (current && current.key === active) choose(current);
            else if (searching) enterPending.current = true;
            else if (current) choose(current);
          }
        }}
        className={inputClass(false)}
      />
      <p id={`${ids}-status`} role="status" className="mt-1 min-h-5 text-xs text-slate-600">
        {status}
      </p>
      {entries.length > 0 ? (
        <div
          id={listId}
          role="listbox"
          aria-label="Results"
          className="mt-2 max-h-[60vh] overflow-y-auto rounded-md border border-slate-200"
        >
          {groups.map((group) => (
            <div key={group.name} role="group" aria-labelledby={`${ids}-${group.name}`}>
              <div
                id={`${ids}-${group.name}`}
                className="bg-slate-100 px-3 py-1 text-xs font-semibold tracking-wide text-slate-700 uppercase"
              >
                {group.name}
              </div>
              {group.entries.map((entry) => (
                // eslint-disable-next-line jsx-a11y/click-events-have-key-events -- the field chooses by keyboard
                <div
                  key={entry.key}
                  id={optionId(entry.key)}
                  role="option"
                  aria-selected={entry === current}
                  // The focus stays in the field (aria-activedescendant); a pointer chooses with a click.
                  tabIndex={-1}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => choose(entry)}
                  onMouseMove={() => entry !== current && setActive(entry.key)}
                  className={
                    "flex min-h-11 cursor-pointer items-center gap-2 px-3 py-2 text-sm break-words " +
                    (entry === current ? "bg-indigo-700 text-white" : "text-slate-900")
                  }
                >
                  <span className="min-w-0 font-medium">{entry.label}</span>
                  {entry.detail ? (
                    <span className={entry === current ? "text-white" : "text-slate-600"}>{entry.detail}</span>
                  ) : null}
                </div>
              ))}
            </div>
          ))}
        </div>
      ) : null}
    </Modal>
  );
}
