import "server-only";
import { z } from "zod";
import type { SignedInCaller } from "@/lib/admin/surface";
import { CategoryError } from "@/lib/categories/store";
import { INT64_MAX, INT64_MIN } from "@/lib/http/int64";
import { ApiError } from "@/lib/http/errors";

// What the Categories page's endpoints (app/admin/api/categories/…) share: the admin check of the changes (the
// list is every signed-in staff member's), the category id in the path, and how a refused change is answered.

/** Adding and renaming are an admin's: 403 `admin_role_required` for other staff. */
export function requireAdminCaller({ staff }: SignedInCaller): void {
  if (staff.role !== "admin") throw new ApiError("admin_role_required");
}

/** The category id in the path: any int64 (a category may name -5); anything else no category can have. */
export const categoryIdSchema = z
  .string()
  .regex(/^-?[0-9]{1,19}$/)
  .transform(BigInt)
  .refine((id) => id >= INT64_MIN && id <= INT64_MAX);

/** A store's refusal as the catalogue's code; anything else is left to the edge. */
export function categoryApiError(error: unknown): unknown {
  if (!(error instanceof CategoryError)) return error;
  switch (error.kind) {
    case "name_taken":
      return new ApiError("category_name_taken", {
        message: error.message,
        errors: [{ path: "name", message: error.message }],
      });
    case "id_taken":
      return new ApiError("category_named", {
        message: error.message,
        errors: [{ path: "id", message: error.message }],
      });
    case "not_found":
      return new ApiError("not_found", { message: error.message });
    default:
      return new ApiError("invalid_body", {
        message: `Invalid category: ${error.message}`,
        errors: [{ path: "id", message: error.message }],
      });
  }
}
