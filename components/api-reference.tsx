"use client";

import Script from "next/script";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { accessibleDocsPlugin } from "@/components/api-reference-plugin";
import { withThisServer } from "@/lib/client/api-servers";

type SwaggerUIBundle = (options: {
  spec: unknown;
  domNode: HTMLElement;
  deepLinking: boolean;
  tryItOutEnabled: boolean;
  validatorUrl: null;
  syntaxHighlight: { theme: string };
  plugins: unknown[];
}) => unknown;

const noSubscription = () => () => {};

/** This server's API base URL: known in the browser only (the server renders the bare path). */
export function ThisServerApi() {
  return useSyncExternalStore(
    noSubscription,
    () => `${window.location.origin}/v1`,
    () => "/v1",
  );
}

/**
 * Swagger UI (swagger-ui-dist: its script served by /docs/assets, its CSS imported by app/docs/docs.css)
 * rendering the live OpenAPI document, with this server first among the servers so that "Try it out" calls
 * the server the page came from (the CSP's connect-src 'self' allows exactly that), and the fixes of
 * api-reference-plugin.ts and app/docs/docs.css.
 */
export function ApiReference({ specUrl }: { specUrl: string }) {
  const container = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");

  // Swagger UI's dark theme is a class on <html>. It follows the app's theme (<html data-theme>, from the theme
  // cookie): dark, light, or the system's colour scheme, also when that changes while this page is open.
  useEffect(() => {
    const root = document.documentElement;
    const systemDark = window.matchMedia("(prefers-color-scheme: dark)");
    const follow = () => {
      const theme = root.dataset.theme;
      root.classList.toggle("dark-mode", theme === "dark" || (theme !== "light" && systemDark.matches));
    };
    follow();
    systemDark.addEventListener("change", follow);
    const themeChanges = new MutationObserver(follow);
    themeChanges.observe(root, { attributes: true, attributeFilter: ["data-theme"] });
    return () => {
      systemDark.removeEventListener("change", follow);
      themeChanges.disconnect();
      root.classList.remove("dark-mode");
    };
  }, []);

  async function start() {
    const bundle = (window as unknown as { SwaggerUIBundle?: SwaggerUIBundle }).SwaggerUIBundle;
    try {
      const response = await fetch(specUrl);
      if (!bundle || !container.current || !response.ok) throw new Error(`the document answered ${response.status}`);
      // The document's `webhooks` (what a webhook endpoint receives) is left out of this view: Swagger UI 5 puts it
      // under an <h2> between the tags' <h3>s and the schemas' <h4>, which breaks the page's heading order. The
      // description says where it is.
      const { webhooks: _webhooks, ...document } = (await response.json()) as Record<string, unknown>;
      bundle({
        spec: withThisServer(document, window.location.origin),
        domNode: container.current,
        deepLinking: true,
        // Every operation opens ready to execute: no "Try it out" click first.
        tryItOutEnabled: true,
        validatorUrl: null,
        // Swagger UI's default code theme (agate) has 3.4 : 1 numbers; obsidian's colours all reach 4.5 : 1.
        syntaxHighlight: { theme: "obsidian" },
        plugins: [accessibleDocsPlugin],
      });
      setState("ready");
    } catch {
      setState("failed");
    }
  }

  return (
    <>
      {state !== "ready" && (
        <main className="docs-loading">
          <h1>API reference</h1>
          <p role="status">
            {state === "loading" ? "Loading the API reference…" : "The API reference could not be loaded. "}
            {state === "failed" && <a href={specUrl}>Read the OpenAPI document itself.</a>}
          </p>
        </main>
      )}
      {/* Swagger UI renders its own <main> (the operations) in here. */}
      <div ref={container} />
      <Script src="/docs/assets/swagger-ui-bundle.js" strategy="afterInteractive" onReady={() => void start()} />
    </>
  );
}
