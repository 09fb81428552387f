import type { Metadata } from "next";
import { SignInForm } from "@/components/sign-in-form";
import { ThemeToggle } from "@/components/theme-toggle";
import { safeReturnPath } from "@/lib/auth/page-session";
import { requestTheme } from "@/lib/theme-server";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { next } = await searchParams;
  return (
    <main className="mx-auto max-w-sm px-4 py-16">
      <h1 className="text-2xl font-semibold">Staff sign-in</h1>
      <p className="mt-2 text-sm text-slate-600">The Animal Store admin app: the catalogue and adding pets.</p>
      <SignInForm next={safeReturnPath(typeof next === "string" ? next : undefined)} />
      <div className="mt-10 border-t border-slate-200 pt-4">
        <ThemeToggle initial={await requestTheme()} />
      </div>
    </main>
  );
}
