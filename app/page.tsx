import Link from "next/link";

export default function HomePage() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-3xl font-semibold">Animal Store</h1>
      <p className="mt-4 text-slate-600">
        The store&apos;s animal catalogue, as a REST API under /v1 with bearer API keys.
      </p>
      <ul className="mt-8 space-y-3">
        <li>
          <Link className="text-indigo-700 underline underline-offset-4 focus-visible:outline-2" href="/admin">
            Staff admin app (sign in)
          </Link>
        </li>
        <li>
          <Link className="text-indigo-700 underline underline-offset-4 focus-visible:outline-2" href="/docs">
            API reference
          </Link>
        </li>
        <li>
          <a className="text-indigo-700 underline underline-offset-4 focus-visible:outline-2" href="/v1/openapi.json">
            OpenAPI document (/v1/openapi.json)
          </a>
        </li>
      </ul>
    </main>
  );
}
