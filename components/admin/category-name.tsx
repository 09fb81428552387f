"use client";

import { unnamedCategoryLabel } from "@/lib/categories/schema";
import { useCategories } from "@/lib/client/categories-api";

/**
 * A categoryId as staff read it: the category's name, or "Unnamed (17)" for an id no category names (the /v1
 * contract takes any int64), in italics but as plain text, so a screen reader says it as it is shown. While the
 * names load, the id alone.
 */
export function CategoryName({ id }: { id: bigint }) {
  const { names } = useCategories();
  if (!names) return <span className="font-mono tabular-nums">{String(id)}</span>;
  const name = names.get(String(id));
  if (name !== undefined) return <span className="break-words">{name}</span>;
  return (
    <span className="text-slate-700 italic" data-unnamed-category="">
      {unnamedCategoryLabel(id)}
    </span>
  );
}
