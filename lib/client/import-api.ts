import { callFor, refusal } from "@/lib/client/admin-api";
import {
  importProgressSchema,
  importReportSchema,
  type ImportProgress,
  type ImportReport,
  type RowProblem,
} from "@/lib/pets/import-schema";

// The browser's side of the CSV import: the chosen file is sent as it is, as the body of each request. The answers
// are read with the report's schema (lib/pets/import-schema.ts), which makes its counts numbers again.

export type { ImportProgress, ImportReport, RowProblem };

const fileInit = (method: string, file: Blob): RequestInit => ({
  method,
  body: file,
  headers: { "Content-Type": "text/csv" },
});

export async function dryRunImport(file: Blob): Promise<ImportReport> {
  return (await callFor(importReportSchema, "/admin/api/pets/imports", fileInit("POST", file))).body;
}

export async function applyImport(importId: string, file: Blob): Promise<ImportReport> {
  const path = `/admin/api/pets/imports/${encodeURIComponent(importId)}`;
  return (await callFor(importReportSchema, path, fileInit("PUT", file))).body;
}

/** How many of the import's rows have their pet so far. */
export async function fetchImportProgress(importId: string): Promise<ImportProgress> {
  const path = `/admin/api/pets/imports/${encodeURIComponent(importId)}`;
  return (await callFor(importProgressSchema, path)).body;
}

/** The file's bad rows as a CSV file, with an error column. */
export async function fetchBadRows(file: Blob): Promise<Blob> {
  const response = await fetch("/admin/api/pets/imports/bad-rows", {
    ...fileInit("POST", file),
    credentials: "same-origin",
    cache: "no-store",
  });
  if (!response.ok) throw refusal(response, await response.json().catch(() => undefined));
  return response.blob();
}
