import "server-only";
import { z } from "zod";
import { listCategories } from "@/lib/categories/store";
import { json, type Handler } from "@/lib/http/api-route";
import { parseOrThrow } from "@/lib/http/validation";
import { queryOf } from "@/lib/pets/handlers";
import type { ApiClient } from "@/lib/v1/guard";

// The categories operation of /v1: read-only. Names are added and changed in the admin app only.

/** listCategories takes no parameters: every named category is in the one answer. */
export const listCategoriesQuerySchema = z.strictObject(
  {},
  { error: (issue) => (issue.code === "unrecognized_keys" ? undefined : "invalid query") },
);

// GET /v1/categories — listCategories
export const listCategoriesHandler: Handler<ApiClient> = async ({ url }) => {
  parseOrThrow(listCategoriesQuerySchema, queryOf(url), "invalid_query", "Invalid query");
  return json(await listCategories());
};
