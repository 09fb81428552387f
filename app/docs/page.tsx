import type { Metadata } from "next";
import Link from "next/link";
import { ApiReference, ThisServerApi } from "@/components/api-reference";
import "./docs.css";

export const metadata: Metadata = { title: "API reference" };

// The API reference: a header back to the app and to the API itself, then Swagger UI, whose own <main> holds
// the operations (its title is the page's h1).
export default function DocsPage() {
  return (
    <div className="api-reference">
      <header className="docs-header">
        <div className="docs-header__inner">
          <p className="docs-header__name">Animal Store · API reference</p>
          <nav aria-label="Animal Store">
            <ul>
              <li>
                <Link href="/admin">Back to the admin app</Link>
              </li>
              <li>
                <a href="/v1/openapi.json">OpenAPI document (JSON)</a>
              </li>
            </ul>
          </nav>
          <p>
            This server&apos;s API:{" "}
            <code data-testid="api-base">
              <ThisServerApi />
            </code>
          </p>
        </div>
      </header>
      <ApiReference specUrl="/v1/openapi.json" />
    </div>
  );
}
