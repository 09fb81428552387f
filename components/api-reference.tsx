"use client";

import Script from "next/script";
import { useRef } from "react";

type SwaggerUIBundle = (options: {
  url: string;
  domNode: HTMLElement;
  deepLinking: boolean;
  tryItOutEnabled: boolean;
}) => unknown;

/** Swagger UI (swagger-ui-dist, served by /docs/assets) rendering the live OpenAPI document. */
export function ApiReference({ specUrl }: { specUrl: string }) {
  const container = useRef<HTMLDivElement>(null);
  return (
    <>
      {/* eslint-disable-next-line @next/next/no-css-tags -- Swagger UI's CSS, served like its script */}
      <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
      <div ref={container} />
      <Script
        src="/docs/assets/swagger-ui-bundle.js"
        strategy="afterInteractive"
        onReady={() => {
          const bundle = (window as unknown as { SwaggerUIBundle?: SwaggerUIBundle }).SwaggerUIBundle;
          if (bundle && container.current)
            bundle({ url: specUrl, domNode: container.current, deepLinking: true, tryItOutEnabled: false });
        }}
      />
    </>
  );
}
