import type { Metadata } from "next";
import { ApiReference } from "@/components/api-reference";

export const metadata: Metadata = { title: "API reference" };

export default function DocsPage() {
  return (
    <main className="bg-white">
      <ApiReference specUrl="/v1/openapi.json" />
    </main>
  );
}
