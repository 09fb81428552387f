"use client";

import { useEffect, useState } from "react";
import { useNavigate } from "@/components/admin/catalogue-navigation";
import { inputClass } from "@/components/ui/field";
import { readView, typedSearch, viewHref, viewQuery, type CatalogueView } from "@/lib/client/catalogue-view";
import { SEARCH_MAX_LENGTH } from "@/lib/pets/schema";

/** How long typing must pause before the catalogue is searched. */
const DEBOUNCE_MS = 300;

/**
 * The name search. What is typed goes to the URL's `q` once typing pauses, replacing the history entry: a search is a
 * link to share, but typing does not leave a history entry per key. A new search starts again from the first page.
 */
export function SearchBox({ view }: { view: CatalogueView }) {
  const navigate = useNavigate();
  const [text, setText] = useState(view.q);
  // The q this box last put in the URL, and the URL's q it last saw: a q that changes to anything but what this
  // box sent came from elsewhere (Back, a link) and replaces the text; its own arriving late must not.
  const [sent, setSent] = useState(view.q);
  const [seen, setSeen] = useState(view.q);
  if (view.q !== seen) {
    setSeen(view.q);
    if (view.q !== sent) {
      setSent(view.q);
      setText(view.q);
    }
  }

  const current = viewQuery(view);
  const wanted = typedSearch(text);
  useEffect(() => {
    const shown = readView(new URLSearchParams(current));
    if (wanted === shown.q) return;
    const timer = setTimeout(() => {
      setSent(wanted);
      navigate(viewHref({ ...shown, q: wanted, cursors: [] }), "replace");
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [wanted, current, navigate]);

  return (
    <form
      role="search"
      className="mt-4"
      onSubmit={(event) => {
        // Enter searches at once.
        event.preventDefault();
        if (wanted === view.q) return;
        setSent(wanted);
        navigate(viewHref({ ...view, q: wanted, cursors: [] }), "replace");
      }}
    >
      <label htmlFor="pet-search" className="block text-sm font-medium">
        Search by name
      </label>
      <input
        id="pet-search"
        type="search"
        name="q"
        value={text}
        onChange={(event) => setText(event.target.value)}
        maxLength={SEARCH_MAX_LENGTH}
        autoComplete="off"
        spellCheck={false}
        className={inputClass(false)}
      />
    </form>
  );
}
