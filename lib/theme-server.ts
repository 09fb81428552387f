import "server-only";
import { cookies } from "next/headers";
import { readTheme, THEME_COOKIE, type Theme } from "@/lib/theme";

/** The theme this request's browser chose (the theme cookie). */
export async function requestTheme(): Promise<Theme> {
  return readTheme((await cookies()).get(THEME_COOKIE)?.value);
}
