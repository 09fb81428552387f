import { AdminRequestError, call } from "@/lib/client/admin-api";
import type { ImportReport, RowProblem } from "@/lib/pets/import";

// The browser's side of the CSV import: the chosen file is sent as it is, as the body of each request.

/** What the dry run and the apply answer (lib/pets/import.ts); the counts arrive as bigint and are made numbers. */
export type { ImportReport, RowProblem };

const COUNTS = ["rows", "valid", "invalid", "errorsNotListed", "alreadyImported", "toCreate"] as const;

/** The answer as numbers: the int64-exact parser reads every integer as a bigint. */
function reportOf(body: unknown): ImportReport {
  const raw = body as Record<string, unknown> & { errors: (RowProblem & { line: unknown })[] };
  const report = { ...raw } as unknown as ImportReport;
  for (const name of COUNTS) report[name] = Number(raw[name]);
  report.errors = raw.errors.map((problem) => ({ ...problem, line: Number(problem.line) }));
  return report;
}

const fileInit = (method: string, file: Blob): RequestInit => ({
  method,
  body: file,
  headers: { "Content-Type": "text/csv" },
});

export async function dryRunImport(file: Blob): Promise<ImportReport> {
  return reportOf((await call("/admin/api/pets/imports", fileInit("POST", file))).body);
}

export async function applyImport(importId: string, file: Blob): Promise<ImportReport> {
  return reportOf((await call(`/admin/api/pets/imports/${encodeURIComponent(importId)}`, fileInit("PUT", file))).body);
}

/** The file's bad rows as a CSV file, with an error column. */
export async function fetchBadRows(file: Blob): Promise<Blob> {
  const response = await fetch("/admin/api/pets/imports/bad-rows", {
    ...fileInit("POST", file),
    credentials: "same-origin",
    cache: "no-store",
  });
  if (!response.ok) {
    const requestId = response.headers.get("x-request-id") ?? "";
    const body = (await response.json().catch(() => ({}))) as { message?: string; code?: string };
    throw new AdminRequestError(body.message ?? `The server answered ${response.status}.`, response.status, requestId);
  }
  return response.blob();
}
