import type { Metadata } from "next";
import { AdminHeader, MAIN_ID } from "@/components/admin/admin-header";
import { Categories } from "@/components/admin/categories";
import { requireStaff } from "@/lib/auth/page-session";

export const metadata: Metadata = { title: "Categories" };

// The category names: every signed-in staff member sees them with how many pets each holds; admins add and rename
// them (the endpoints check the role again).
export default async function CategoriesPage() {
  const staff = await requireStaff("/admin/categories");
  const isAdmin = staff.role === "admin";
  return (
    <>
      <AdminHeader staff={staff} current="categories" />
      <main id={MAIN_ID} tabIndex={-1} className="focus:outline-none mx-auto max-w-6xl px-4 py-6">
        <h1 className="text-2xl font-semibold">Categories</h1>
        <p className="mt-1 mb-6 max-w-prose text-slate-700">
          Every pet carries a category id; a category gives an id its name, which the catalogue and the pet forms show.
          An id that pets carry without a name is listed as “Unnamed”.{" "}
          {isAdmin
            ? "Name it, add a category or rename one here: each change is recorded in the activity log."
            : "Only an admin can add or rename a category."}
        </p>
        <Categories isAdmin={isAdmin} />
      </main>
    </>
  );
}
