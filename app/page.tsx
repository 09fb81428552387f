import Link from "next/link";

const linkClass =
  "inline-flex min-h-11 items-center text-indigo-700 underline underline-offset-4 focus-visible:outline-2";

export default function HomePage() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-3xl font-semibold">Animal Store</h1>
      <p className="mt-4 text-slate-600">
        The store&apos;s animal catalogue, as a REST API under /v1 with bearer API keys.
      </p>
      <ul className="mt-8 space-y-1">
        <li>
          <Link className={linkClass} href="/admin">
            Staff admin app (sign in)
          </Link>
        </li>
        <li>
          <Link className={linkClass} href="/docs">
            API reference
          </Link>
        </li>
        <li>
          <a className={linkClass} href="/v1/openapi.json">
            OpenAPI document (/v1/openapi.json)
          </a>
        </li>
      </ul>
    </main>
  );
}
