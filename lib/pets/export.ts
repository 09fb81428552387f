import "server-only";
import { listCategories } from "@/lib/categories/store";
import { csvLine } from "@/lib/csv/write";
import type { Handler } from "@/lib/http/api-route";
import { parseOrThrow } from "@/lib/http/validation";
import { log } from "@/lib/log";
import { queryOf } from "@/lib/pets/handlers";
import {
  exportPetsQuerySchema,
  PET_CSV_COLUMNS,
  type Pet,
  type PetSort,
  type PetStatusFilter,
} from "@/lib/pets/schema";
import { positionOf } from "@/lib/pets/cursor";
import { listPets, type ListOptions } from "@/lib/pets/store";
import type { ApiClient } from "@/lib/v1/guard";

// The catalogue as CSV: every pet of a view (listPets' status, categoryId, q and sort), read page by page with
// listPets' own keyset walk, so the export is exactly what paging through the list would show and is never held in
// memory whole, however many pets there are. One page is read per pull of the response's stream: a slow download
// holds one page, and a client that goes away cancels the stream, which stops the reads.

/** Pets read per query while an export streams. */
export const EXPORT_PAGE_SIZE = 1000;

/** A pet's row: its category's name last, empty for an id without a name. */
function petRow(pet: Pet, names: ReadonlyMap<bigint, string>): string {
  return csvLine([pet.id, pet.name, pet.categoryId, pet.status, names.get(pet.categoryId)]);
}

export type ExportView = { status?: PetStatusFilter; categoryIds?: readonly bigint[]; q?: string; sort: PetSort };

/** The CSV of every pet of the view, header first, as a stream that reads a page per pull. */
export function petsCsvStream(view: ExportView, requestId: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: ListOptions["after"];
  let started = false;
  // The names of the categories, read once: a handful, named by hand.
  let names = new Map<bigint, string>();
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          try {
            names = new Map((await listCategories()).map((category) => [category.id, category.name]));
          } catch (error) {
            log("error", "pets export failed", { requestId, error: String(error) });
            throw error;
          }
          controller.enqueue(encoder.encode(csvLine([...PET_CSV_COLUMNS])));
          return;
        }
        let page;
        try {
          // Every pet of a page deleted between listPets' two reads (ids, then rows) leaves it empty with more
          // to come: reading from the same place again goes on past them rather than ending the file there.
          do page = await listPets({ ...view, limit: EXPORT_PAGE_SIZE, after });
          while (page.more && page.pets.length === 0 && !done);
        } catch (error) {
          // The status line has gone: the download ends cut short (no final CRLF), and the log says why.
          log("error", "pets export failed", { requestId, error: String(error) });
          throw error;
        }
        if (done) return; // cancelled while reading
        if (page.pets.length > 0)
          controller.enqueue(encoder.encode(page.pets.map((pet) => petRow(pet, names)).join("")));
        const last = page.pets.at(-1);
        if (page.more && last) after = positionOf(view.sort, last);
        else {
          // Closed in the same pull: a pull that enqueues nothing is not always followed by another.
          done = true;
          controller.close();
        }
      },
      cancel() {
        done = true;
      },
    },
    // Nothing is read ahead of what the client has taken.
    { highWaterMark: 0 },
  );
}

/** The download's file name: the view, so two exports of different views do not overwrite each other. */
export function exportFileName(view: ExportView): string {
  const day = new Date().toISOString().slice(0, 10);
  const order = {
    id: undefined,
    "-id": "newest-first",
    name: "by-name",
    "-name": "by-name-descending",
    status: "by-status",
    "-status": "by-status-descending",
    category: "by-category",
    "-category": "by-category-descending",
  }[view.sort];
  const ids = view.categoryIds ?? [];
  const categories = ids.length > 3 ? `${ids.length}-categories` : ids.length ? `category-${ids.join("-")}` : undefined;
  const status = view.status === "none" ? "no-status" : view.status;
  return `${["pets", status, categories, view.q && "search", order, day].filter(Boolean).join("-")}.csv`;
}

// GET /v1/pets/export — exportPets
export const exportPetsHandler: Handler<ApiClient> = async ({ url, requestId }) => {
  const { categoryId: categoryIds, ...query } = parseOrThrow(
    exportPetsQuerySchema,
    queryOf(url),
    "invalid_query",
    "Invalid query",
  );
  const view = { ...query, categoryIds };
  return new Response(petsCsvStream(view, requestId), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8; header=present",
      "Content-Disposition": `attachment; filename="${exportFileName(view)}"`,
    },
  });
};
