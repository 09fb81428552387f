import Link from "next/link";
import { focusRing } from "@/components/admin/form-fields";
import { exportQuery, type CatalogueView } from "@/lib/client/catalogue-view";

const linkStyle =
  "inline-flex min-h-11 items-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium " +
  "hover:bg-slate-100";

/**
 * The catalogue's file actions: "Export CSV" downloads every pet of the view on screen (its status, search and
 * order, all pages) straight from the export endpoint, and "Import CSV" opens the import page.
 */
export function CatalogueFiles({ view }: { view: CatalogueView }) {
  return (
    <div className="flex flex-wrap gap-2">
      <a
        href={`/admin/api/pets/export?${exportQuery(view)}`}
        download
        className={`${linkStyle} ${focusRing}`}
        data-testid="export-csv"
      >
        Export CSV
      </a>
      <Link href="/admin/import" className={`${linkStyle} ${focusRing}`}>
        Import CSV
      </Link>
    </div>
  );
}
