import { useQuery } from "@tanstack/react-query";
import { call } from "@/lib/client/admin-api";
import { stringifyJson } from "@/lib/http/json";
import type { Category } from "@/lib/categories/schema";

// The browser's side of the category endpoints (app/admin/api/categories/…). The names are cached under one key,
// CATEGORIES_KEY, which the catalogue, the pet forms and the Categories page share; the Categories page's counts
// sit under it too, so invalidating CATEGORIES_KEY after an add or a rename refetches both.

export const CATEGORIES_KEY = ["categories"] as const;
export const CATEGORY_COUNTS_KEY = [...CATEGORIES_KEY, "counts"] as const;

/** A row of the Categories page: a named category, or an id pets carry without a name (name null). */
export type CategoryListing = { id: bigint; name: string | null; pets: number };

/** Every named category, sorted by name (ids are bigint: the int64-exact parser reads them). */
export async function fetchCategories(): Promise<Category[]> {
  const { body } = await call("/admin/api/categories");
  return body as Category[];
}

export async function fetchCategoryCounts(): Promise<CategoryListing[]> {
  const { body } = await call("/admin/api/categories/counts");
  return (body as { id: bigint; name: string | null; pets: bigint }[]).map((row) => ({
    id: row.id,
    name: row.name,
    pets: Number(row.pets),
  }));
}

const sendJson = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json" },
  body: stringifyJson(body),
});

/** Adds a category (admins): `id` names an id pets already carry; without it the next free id is taken. */
export async function addCategory(input: { name: string; id?: bigint }): Promise<Category> {
  const { body } = await call("/admin/api/categories", sendJson("POST", input));
  return body as Category;
}

export async function renameCategory(id: bigint, name: string): Promise<{ category: Category; renamed: boolean }> {
  const { body } = await call(`/admin/api/categories/${String(id)}`, sendJson("PATCH", { name }));
  return body as { category: Category; renamed: boolean };
}

/** The named categories, and their names by id (as text), for showing and picking a category. */
export function useCategories() {
  const query = useQuery({ queryKey: CATEGORIES_KEY, queryFn: fetchCategories });
  const names = query.data && new Map(query.data.map((category) => [String(category.id), category.name]));
  return { ...query, names };
}
