"use client";

import { useEffect, useState } from "react";
import { useNavigate, ViewLink } from "@/components/admin/catalogue-navigation";
import { focusRing } from "@/components/ui/focus-ring";
import { inputClass } from "@/components/ui/field";
import {
  FIRST_PAGE,
  readView,
  typedPetId,
  typedSearch,
  viewHref,
  viewQuery,
  type CatalogueView,
} from "@/lib/client/catalogue-view";
import { SEARCH_MAX_LENGTH } from "@/lib/pets/schema";

/** How long typing must pause before the catalogue is searched. */
const DEBOUNCE_MS = 300;

/**
 * The name search. What is typed goes to the URL's `q` once typing pauses, replacing the history entry: a search is a
 * link to share, but typing does not leave a history entry per key. A new search starts again from the first page.
 * A pet's id, "35" or "#35", is also a lookup: a link under the box opens that pet's panel (the admin app's read of
 * one pet, as a click on its name does), and so does Enter. "#35" is only an id; "35" searches names as well.
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
  const petId = typedPetId(text);
  const wanted = petId !== undefined && text.trim().startsWith("#") ? "" : typedSearch(text);
  const petHref = petId === undefined ? undefined : viewHref({ ...view, q: wanted, ...FIRST_PAGE, pet: petId });
  useEffect(() => {
    const shown = readView(new URLSearchParams(current));
    if (wanted === shown.q) return;
    const timer = setTimeout(() => {
      setSent(wanted);
      navigate(viewHref({ ...shown, q: wanted, ...FIRST_PAGE }), "replace");
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
        if (petHref) {
          setSent(wanted);
          navigate(petHref);
          return;
        }
        if (wanted === view.q) return;
        setSent(wanted);
        navigate(viewHref({ ...view, q: wanted, ...FIRST_PAGE }), "replace");
      }}
    >
      <label htmlFor="pet-search" className="block text-sm font-medium">
        Search by name or id
      </label>
      <p id="pet-search-hint" className="text-xs text-slate-600">
        A name, or a pet&apos;s id such as 35 or #35 (Enter opens that pet).
      </p>
      <input
        id="pet-search"
        type="search"
        name="q"
        value={text}
        onChange={(event) => setText(event.target.value)}
        maxLength={SEARCH_MAX_LENGTH}
        autoComplete="off"
        spellCheck={false}
        aria-describedby="pet-search-hint"
        className={inputClass(false)}
      />
      {petHref ? (
        <p className="mt-1 text-sm">
          <ViewLink
            href={petHref}
            data-testid="open-pet-by-id"
            className={`inline-flex min-h-11 items-center font-medium text-indigo-700 underline ${focusRing}`}
          >
            Open pet #{petId}
          </ViewLink>
        </p>
      ) : null}
    </form>
  );
}
