import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { exportQuery, type CatalogueView } from "@/lib/client/catalogue-view";

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
        className={buttonClass()}
        data-testid="export-csv"
      >
        Export CSV
      </a>
      <Link href="/admin/import" className={buttonClass()}>
        Import CSV
      </Link>
    </div>
  );
}
