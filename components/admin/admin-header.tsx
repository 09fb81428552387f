import Link from "next/link";
import { KeyboardAccess } from "@/components/admin/keyboard-access";
import { SignOutButton } from "@/components/admin/sign-out-button";
import { ThemeToggle } from "@/components/theme-toggle";
import { DraftOwner } from "@/components/admin/session-ended";
import type { SignedInStaff } from "@/lib/auth/staff";
import { requestTheme } from "@/lib/theme-server";

// The header of every admin page: the app's name, the sections this staff member may open (everyone the Catalogue,
// Orders and Categories; admins Activity, API keys, Webhooks and Staff as well; the server checks the role on each
// of those pages and endpoints regardless), Search everything and the keyboard shortcuts (keyboard-access.tsx, which
// offers the same sections), who is signed in, the colour theme and sign-out. `current` marks the
// section shown (none on the 404 page), for screen readers too (aria-current). Its first stop for the keyboard is a
// skip link, shown only when it has the focus, that takes the focus past the header to the page's <main> (MAIN_ID).

export type AdminSection = "catalogue" | "orders" | "categories" | "activity" | "keys" | "webhooks" | "staff";

const sections: { id: AdminSection; href: string; label: string; adminOnly: boolean }[] = [
  { id: "catalogue", href: "/admin", label: "Catalogue", adminOnly: false },
  { id: "orders", href: "/admin/orders", label: "Orders", adminOnly: false },
  { id: "categories", href: "/admin/categories", label: "Categories", adminOnly: false },
  { id: "activity", href: "/admin/activity", label: "Activity", adminOnly: true },
  { id: "keys", href: "/admin/keys", label: "API keys", adminOnly: true },
  { id: "webhooks", href: "/admin/webhooks", label: "Webhooks", adminOnly: true },
  { id: "staff", href: "/admin/staff", label: "Staff", adminOnly: true },
];

const focusRing = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600";

/** The id of every admin page's <main>, where the skip link goes (it takes the focus: tabIndex -1). */
export const MAIN_ID = "main";

export async function AdminHeader({ staff, current }: { staff: SignedInStaff; current?: AdminSection }) {
  const visible = sections.filter((section) => !section.adminOnly || staff.role === "admin");
  return (
    <header className="border-b border-slate-200 bg-white">
      <a
        href={`#${MAIN_ID}`}
        className={
          // Above the top edge until focused: full size (a 44 px target), never a 1 px box.
          "absolute top-2 left-2 z-50 inline-flex min-h-11 -translate-y-[200%] items-center rounded-md bg-white " +
          `px-4 text-slate-900 shadow focus:translate-y-0 ${focusRing}`
        }
      >
        Skip to main content
      </a>
      {/* One row at desktop widths (issue 24 item 6): nothing wraps from lg on, the email is cut short (its title
          holds it whole) and the theme's legend is for screen readers only. */}
      <div
        className={
          "mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-x-3 gap-y-1 px-4 py-1.5 lg:flex-nowrap " +
          "lg:py-2"
        }
      >
        <div className="flex flex-wrap items-center gap-x-4 gap-y-1 lg:flex-nowrap">
          <Link href="/admin" className={`inline-flex min-h-11 items-center font-semibold ${focusRing}`}>
            Animal Store admin
          </Link>
          {visible.length > 1 && (
            <nav aria-label="Sections">
              <ul className="flex flex-wrap gap-0.5 text-sm lg:flex-nowrap">
                {visible.map((section) => (
                  <li key={section.id}>
                    <Link
                      href={section.href}
                      aria-current={section.id === current ? "page" : undefined}
                      className={
                        "inline-flex min-h-11 items-center rounded px-2.5 whitespace-nowrap " +
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
        <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 text-sm lg:flex-nowrap">
          <KeyboardAccess pages={visible.map(({ href, label }) => ({ href, label }))} />
          <span className="max-w-full min-w-0 truncate text-slate-600 lg:max-w-40" title={staff.email}>
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
