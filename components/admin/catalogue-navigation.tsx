"use client";

import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { createContext, useCallback, useContext, useOptimistic, useTransition, type ComponentProps } from "react";
import { readView, type CatalogueView } from "@/lib/client/catalogue-view";

// Moving between views of the catalogue. Every admin page checks the session on the server, so a navigation waits
// for the server before the URL (and useSearchParams) changes. Until then the view shown is the one asked for
// (useOptimistic): the filter, the panel and the list's request follow a click at once, and a second control used
// meanwhile (the page size just after a filter) builds on the first instead of undoing it.

export type Navigate = (href: string, how?: "push" | "replace") => void;

const NavigateContext = createContext<Navigate | null>(null);

/** The view the URL names, or the one a navigation under way is going to. */
export function useCatalogueNavigation(): { view: CatalogueView; navigate: Navigate } {
  const searchParams = useSearchParams();
  const router = useRouter();
  const [query, setQuery] = useOptimistic(searchParams.toString());
  const [, startTransition] = useTransition();
  // The same function from render to render, so a debounce timer that depends on it is not restarted by one.
  const navigate = useCallback<Navigate>(
    (href, how = "push") =>
      startTransition(() => {
        setQuery(new URL(href, "http://catalogue.invalid").search.slice(1));
        if (how === "replace") router.replace(href, { scroll: false });
        else router.push(href, { scroll: false });
      }),
    [router, setQuery],
  );
  return { view: readView(new URLSearchParams(query)), navigate };
}

export const CatalogueNavigation = NavigateContext.Provider;

export function useNavigate(): Navigate {
  const navigate = useContext(NavigateContext);
  if (!navigate) throw new Error("useNavigate is used outside the catalogue");
  return navigate;
}

/**
 * A link to another view of the catalogue: a plain click navigates through useNavigate; a click that opens a new
 * tab or window is left to the browser.
 */
export function ViewLink({ href, onClick, ...props }: ComponentProps<typeof Link> & { href: string }) {
  const navigate = useNavigate();
  return (
    <Link
      {...props}
      href={href}
      scroll={false}
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented || event.button !== 0) return;
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(href);
      }}
    />
  );
}
