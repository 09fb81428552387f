"use client";

import { useState } from "react";
import { THEME_COOKIE, THEME_COOKIE_MAX_AGE, THEMES, type Theme } from "@/lib/theme";

const labels: Record<Theme, string> = { system: "System", light: "Light", dark: "Dark" };

/** Applies a theme to this page at once and remembers it for the next ones (the server reads the cookie). */
function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `${THEME_COOKIE}=${theme}; Path=/; Max-Age=${THEME_COOKIE_MAX_AGE}; SameSite=Lax${secure}`;
}

/**
 * System / Light / Dark, as a group of radio buttons: Tab reaches the chosen one, the arrow keys choose another.
 * Each radio covers its whole label, so the target is the 44 px box that shows, not a hidden dot.
 */
export function ThemeToggle({ initial }: { initial: Theme }) {
  const [theme, setTheme] = useState(initial);
  return (
    <fieldset className="flex items-center gap-2 text-sm">
      {/* Shown where there is room; the choices say what they are, and screen readers still hear "Theme". */}
      <legend className="float-left mr-1 text-slate-600 max-sm:sr-only lg:sr-only">Theme</legend>
      <div className="flex rounded-md border border-slate-300 bg-white p-0.5">
        {THEMES.map((value) => (
          <label
            key={value}
            className={
              "relative inline-flex min-h-11 min-w-11 items-center justify-center rounded px-2.5 " +
              (value === theme ? "bg-indigo-700 font-medium text-white" : "text-slate-700 hover:bg-slate-100")
            }
          >
            <input
              type="radio"
              name="theme"
              value={value}
              checked={value === theme}
              onChange={() => {
                setTheme(value);
                applyTheme(value);
              }}
              className={
                "absolute inset-0 size-full cursor-pointer appearance-none rounded focus-visible:outline-2 " +
                "focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
              }
            />
            {labels[value]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
