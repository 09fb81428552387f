import "server-only";
import { z } from "zod";
import type { SignedInCaller } from "@/lib/admin/guard";
import { INT64_MAX, INT64_MIN } from "@/lib/http/int64";
import { Refusal } from "@/lib/refusal";

// What the Categories page's endpoints (app/admin/api/categories/…) share: the admin check of the changes (the
// list is every signed-in staff member's) and the category id in the path.

/** Adding and renaming are an admin's: 403 `admin_role_required` for other staff. */
export function requireAdminCaller({ staff }: SignedInCaller): void {
  if (staff.role !== "admin") throw new Refusal("admin_role_required");
}

/** The category id in the path: any int64 (a category may name -5); anything else no category can have. */
export const categoryIdSchema = z
  .string()
  .regex(/^-?[0-9]{1,19}$/)
  .transform(BigInt)
  .refine((id) => id >= INT64_MIN && id <= INT64_MAX);
