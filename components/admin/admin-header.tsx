import Link from "next/link";
import { SignOutButton } from "@/components/admin/sign-out-button";
import { ThemeToggle } from "@/components/theme-toggle";
import { DraftOwner } from "@/components/admin/session-ended";
import type { SignedInStaff } from "@/lib/auth/staff";
import { requestTheme } from "@/lib/theme-server";

// The header of every admin page: the app's name, the sections this staff member may open (everyone the Catalogue,
// Orders and Categories; admins API keys, Staff and Activity as well; the server checks the role on each of those pages
// and endpoints regardless), who is signed in, the colour theme and sign-out. `current` marks the section shown,
// for screen readers too (aria-current).

export type AdminSection = "catalogue" | "orders" | "categories" | "activity" | "keys" | "staff";

const sections: { id: AdminSection; href: string; label: string; adminOnly: boolean }[] = [
  { id: "catalogue", href: "/admin", label: "Catalogue", adminOnly: false },
  { id: "orders", href: "/admin/orders", label: "Orders", adminOnly: false },
  { id: "categories", href: "/admin/categories", label: "Categories", adminOnly: false },
  { id: "activity", href: "/admin/activity", label: "Activity", adminOnly: true },
  { id: "keys", href: "/admin/keys", label: "API keys", adminOnly: true },
  { id: "staff", href: "/admin/staff", label: "Staff", adminOnly: true },
];

const focusRing = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600";

export async function AdminHeader({ staff, current }: { staff: SignedInStaff; current: AdminSection }) {
  const visible = sections.filter((section) => !section.adminOnly || staff.role === "admin");
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
        <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
          <Link href="/admin" className={`inline-flex min-h-11 items-center font-semibold ${focusRing}`}>
            Animal Store admin
          </Link>
          {visible.length > 1 && (
            <nav aria-label="Sections">
              <ul className="flex flex-wrap gap-1 text-sm">
                {visible.map((section) => (
                  <li key={section.id}>
                    <Link
                      href={section.href}
                      aria-current={section.id === current ? "page" : undefined}
                      className={
                        "inline-flex min-h-11 items-center rounded px-3 " +
                        (section.id === current
                          ? "bg-indigo-50 font-medium text-indigo-800 "
                          : "text-slate-700 hover:bg-slate-100 ") +
                        focusRing
                      }
                    >
                      {section.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          )}
        </div>
        <div className="flex min-w-0 flex-wrap items-center gap-x-4 gap-y-2 text-sm">
          <span className="min-w-0 truncate text-slate-600" title={staff.email}>
            {staff.email}
            {staff.role === "admin" && <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs">admin</span>}
          </span>
          <ThemeToggle initial={await requestTheme()} />
          <SignOutButton />
          <DraftOwner staffId={staff.id} />
        </div>
      </div>
    </header>
  );
}
