// The colour theme a browser chose: "system" follows the operating system's light or dark setting. Kept in a
// cookie (not localStorage) so the server renders <html data-theme> itself: the first paint has the right colours,
// with no inline script (the CSP allows none) and no flash.

export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

export const THEME_COOKIE = "theme";

/** A year: the choice is a preference, not a secret, and is kept until changed. */
export const THEME_COOKIE_MAX_AGE = 60 * 60 * 24 * 365;

/** The theme a cookie's value names; anything else (no cookie, a stale or forged value) is "system". */
export function readTheme(value: string | undefined): Theme {
  return (THEMES as readonly string[]).includes(value ?? "") ? (value as Theme) : "system";
}
