import "server-only";
import { listCategories } from "@/lib/categories/store";
import { json, type Handler } from "@/lib/http/api-route";
import { noQueryParameters, parseOrThrow } from "@/lib/http/validation";
import { queryOf } from "@/lib/pets/handlers";
import type { ApiClient } from "@/lib/v1/guard";

// The categories operation of /v1: read-only. Names are added and changed in the admin app only.

/** listCategories takes no parameters: every named category is in the one answer. */
export const listCategoriesQuerySchema = noQueryParameters;

// GET /v1/categories — listCategories
export const listCategoriesHandler: Handler<ApiClient> = async ({ url }) => {
  parseOrThrow(listCategoriesQuerySchema, queryOf(url), "invalid_query", "Invalid query");
  return json(await listCategories());
};
