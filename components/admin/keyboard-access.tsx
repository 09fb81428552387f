"use client";

import { useQueryClient } from "@tanstack/react-query";
import { usePathname, useRouter } from "next/navigation";
import { useState, useSyncExternalStore } from "react";
import { CommandPalette, type PaletteEntry } from "@/components/admin/command-palette";
import { useNotifications } from "@/components/admin/notifications";
import {
  focusField,
  focusWhenShown,
  moveRow,
  ShortcutHelp,
  toggleRowSelection,
  useShortcutKeys,
} from "@/components/admin/shortcuts";
import { signOutAndLeave } from "@/components/admin/sign-out-button";
import { Button } from "@/components/ui/button";
import { exportQuery, readView, viewHref } from "@/lib/client/catalogue-view";
import type { ShortcutId } from "@/lib/client/shortcuts";
import { THEMES, type Theme } from "@/lib/theme";

// Every admin page's keyboard access, in its header: the shortcuts (components/admin/shortcuts.tsx), their help
// and Search everything, with a button for it so that a pointer or a touch reaches it too. `pages` are the
// sections this staff member may open, as the header lists them.

/** The add form's name field and the catalogue's search and edit fields (add-pet-form, search-box, form-fields). */
const ADD_PET_FIELD = "pet-name";
const SEARCH_FIELD = "pet-search";
const EDIT_FIELD = "edit-pet-name";

const themeLabels: Record<Theme, string> = { system: "System", light: "Light", dark: "Dark" };

/** Whether this browser runs on a Mac (⌘ rather than Ctrl); false on the server and at hydration. */
function useMac(): boolean {
  return useSyncExternalStore(
    () => () => {},
    () => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent),
    () => false,
  );
}

export function KeyboardAccess({ pages }: { pages: { href: string; label: string }[] }) {
  const router = useRouter();
  const pathname = usePathname();
  const client = useQueryClient();
  const { notify } = useNotifications();
  const mac = useMac();
  const [paletteRound, setPaletteRound] = useState(0);
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const onCatalogue = pathname === "/admin";

  /** The catalogue's view on screen (with its filters), or the default one from another page. */
  const catalogueView = () => readView(new URLSearchParams(onCatalogue ? window.location.search : ""));

  const openPalette = () => {
    setPaletteRound((round) => round + 1); // a new palette each time: empty, the first option active
    setPaletteOpen(true);
  };

  /** The add form's first field; with a pet's panel open (the form's place) or from another page, after going there. */
  const newPet = () => {
    if (focusField(ADD_PET_FIELD)) return;
    router.push(viewHref({ ...catalogueView(), pet: undefined }), { scroll: false });
    focusWhenShown(ADD_PET_FIELD);
  };

  const run = (id: ShortcutId): boolean => {
    switch (id) {
      case "palette":
        openPalette();
        return true;
      case "help":
        setHelpOpen(true);
        return true;
      case "search":
        if (!focusField(SEARCH_FIELD)) openPalette();
        return true;
      case "newPet":
        newPet();
        return true;
      case "next":
        return moveRow(1);
      case "previous":
        return moveRow(-1);
      case "select":
        return toggleRowSelection();
      case "edit":
        return focusField(EDIT_FIELD, { caret: "end" });
      default:
        return false; // Enter and Esc are the link's and the panel's own
    }
  };
  useShortcutKeys(run);

  const pageEntries: PaletteEntry[] = pages.map((page) => ({
    key: `page-${page.href}`,
    label: page.label,
    detail: "page",
    run: () => router.push(page.href),
  }));
  const actions: PaletteEntry[] = [
    { key: "new-pet", label: "New pet", keywords: "add", run: newPet },
    { key: "import", label: "Import CSV", keywords: "upload file", run: () => router.push("/admin/import") },
    {
      key: "export",
      label: "Export CSV",
      keywords: "download file",
      run: () => {
        const link = document.createElement("a");
        link.href = `/admin/api/pets/export?${exportQuery(catalogueView())}`;
        link.download = "";
        link.click();
      },
    },
    { key: "shortcuts", label: "Keyboard shortcuts", keywords: "help keys", run: () => setHelpOpen(true) },
    ...THEMES.map((theme) => ({
      key: `theme-${theme}`,
      label: `Theme: ${themeLabels[theme]}`,
      keywords: "colour color dark light mode",
      // The header's theme toggle, so that it shows the choice too.
      run: () => document.querySelector<HTMLInputElement>(`input[name="theme"][value="${theme}"]`)?.click(),
    })),
    {
      key: "sign-out",
      label: "Sign out",
      keywords: "log out",
      run: () =>
        void signOutAndLeave(client).catch((error: unknown) =>
          notify({
            kind: "failure",
            message: `Sign-out failed: ${error instanceof Error ? error.message : String(error)}`,
          }),
        ),
    },
  ];

  return (
    <>
      {/* Compact, so that the header stays one row: "Search" and its keys from 1280 px, "Search" alone below, a
          magnifier on a phone (last in its row, beside Sign out); its name is "Search everything" at every width. */}
      <Button
        onClick={openPalette}
        aria-keyshortcuts="Control+K Meta+K"
        className="shrink-0 gap-2 whitespace-nowrap max-lg:order-last max-lg:min-w-11"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 lg:hidden" fill="none" stroke="currentColor">
          <circle cx="8.5" cy="8.5" r="5.5" strokeWidth="2" />
          <path d="m13 13 4.5 4.5" strokeWidth="2" strokeLinecap="round" />
        </svg>
        <span className="max-lg:sr-only">
          Search<span className="sr-only"> everything</span>
        </span>
        <kbd className="rounded border border-slate-300 bg-slate-100 px-1.5 font-mono text-xs max-xl:hidden">
          {mac ? "⌘K" : "Ctrl K"}
        </kbd>
      </Button>
      <CommandPalette
        key={paletteRound}
        open={paletteOpen}
        onClose={() => setPaletteOpen(false)}
        pages={pageEntries}
        actions={actions}
        onChoosePet={(id) => router.push(viewHref({ ...catalogueView(), pet: id }), { scroll: false })}
      />
      <ShortcutHelp open={helpOpen} onClose={() => setHelpOpen(false)} />
    </>
  );
}
