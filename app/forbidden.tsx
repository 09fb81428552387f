import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Admins only" };

// What forbidden() renders, with status 403: a signed-in staff member opened a page only admins may use.
export default function Forbidden() {
  return (
    <main className="mx-auto max-w-lg px-4 py-16">
      <h1 className="text-2xl font-semibold">Admins only</h1>
      <p className="mt-2 text-slate-700">
        This page is for the store&apos;s admins: API keys, webhooks, staff accounts and the activity log. Ask an admin
        if you need something done here, or to give you the admin role.
      </p>
      <p className="mt-6">
        <Link
          href="/admin"
          className={
            "font-medium text-indigo-700 underline focus-visible:outline-2 " +
            "focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
          }
        >
          Back to the catalogue
        </Link>
      </p>
    </main>
  );
}
