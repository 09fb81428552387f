import type { Metadata, Viewport } from "next";
import { requestTheme } from "@/lib/theme-server";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Animal Store", template: "%s · Animal Store" },
  description: "The store's animal catalogue: the /v1 API and the staff admin app.",
};

// Every page is rendered per request, so each carries the fresh CSP nonce that proxy.ts makes, and the theme the
// browser chose (its cookie) is on <html> from the first byte: no flash of the wrong colours.
export const dynamic = "force-dynamic";

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en" data-theme={await requestTheme()}>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
