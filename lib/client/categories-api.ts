import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import {
  categoryListingSchema,
  categoryRenamedSchema,
  categorySchema,
  type Category,
  type CategoryListing,
} from "@/lib/categories/schema";
import { callFor } from "@/lib/client/admin-api";
import { stringifyJson } from "@/lib/http/json";

// The browser's side of the category endpoints (app/admin/api/categories/…). The names are cached under one key,
// CATEGORIES_KEY, which the catalogue, the pet forms and the Categories page share; the Categories page's counts
// sit under it too, so invalidating CATEGORIES_KEY after an add or a rename refetches both.

export const CATEGORIES_KEY = ["categories"] as const;
export const CATEGORY_COUNTS_KEY = [...CATEGORIES_KEY, "counts"] as const;

export type { CategoryListing };

/** Every named category, sorted by name (ids are bigint: the int64-exact parser reads them). */
export async function fetchCategories(): Promise<Category[]> {
  return (await callFor(z.array(categorySchema), "/admin/api/categories")).body;
}

export async function fetchCategoryCounts(): Promise<CategoryListing[]> {
  return (await callFor(z.array(categoryListingSchema), "/admin/api/categories/counts")).body;
}

const sendJson = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json" },
  body: stringifyJson(body),
});

/** Adds a category (admins): `id` names an id pets already carry; without it the next free id is taken. */
export async function addCategory(input: { name: string; id?: bigint }): Promise<Category> {
  return (await callFor(categorySchema, "/admin/api/categories", sendJson("POST", input))).body;
}

export async function renameCategory(id: bigint, name: string): Promise<{ category: Category; renamed: boolean }> {
  return (await callFor(categoryRenamedSchema, `/admin/api/categories/${String(id)}`, sendJson("PATCH", { name })))
    .body;
}

/** The named categories, and their names by id (as text), for showing and picking a category. */
export function useCategories() {
  const query = useQuery({ queryKey: CATEGORIES_KEY, queryFn: fetchCategories });
  const names = query.data && new Map(query.data.map((category) => [String(category.id), category.name]));
  return { ...query, names };
}
