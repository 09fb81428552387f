"use client";

import Link from "next/link";
import { useEffect, useRef } from "react";
import { Button, buttonClass } from "@/components/ui/button";
import { focusRing } from "@/components/ui/focus-ring";
import type { ImportReport } from "@/lib/client/import-api";

// What the CSV import says about a file: the dry run's report (counts, the problems by line and column, the
// buttons to apply it and to download the bad rows) and, once applied, what was created.

/** How many problems the report's table lists; the bad-rows download has them all. */
const SHOWN_PROBLEMS = 200;

const plural = (count: number, one: string, many = `${one}s`) =>
  `${count.toLocaleString("en")} ${count === 1 ? one : many}`;

/** A title that takes the focus once it is on the page (each new report or result), so a screen reader reads it. */
function useFocusOnChange<Value>(value: Value) {
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => title.current?.focus(), [value]);
  return title;
}

export function DryRunReport({
  report,
  fileName,
  applied,
  busy,
  progress,
  onApply,
  onDownloadBadRows,
}: {
  report: ImportReport;
  fileName?: string;
  applied?: ImportReport;
  busy: string | undefined;
  /** Rows imported so far, while an apply runs. */
  progress?: number;
  onApply: () => void;
  onDownloadBadRows: () => void;
}) {
  const title = useFocusOnChange(report);
  const importable = report.toCreate + report.alreadyImported;
  const nothingToCreate = report.toCreate === 0;
  return (
    <section aria-labelledby="report-title" className="space-y-3" data-testid="import-report">
      <h2 id="report-title" ref={title} tabIndex={-1} className={`text-lg font-semibold ${focusRing}`}>
        Dry run of {fileName}
      </h2>
      <ReportCounts report={report} />
      {report.errors.length > 0 ? <ProblemTable report={report} /> : null}
      <div className="flex flex-wrap gap-2">
        {/* Once applied, the import is complete: applying again would create nothing, so there is no button for it;
            the result's See the catalogue is the next step. Nothing left to create is not a primary action either. */}
        {applied ? null : (
          <Button
            variant={nothingToCreate ? "plain" : "primary"}
            size="large"
            onClick={onApply}
            disabled={busy !== undefined || nothingToCreate}
          >
            {busy === "applying" ? "Creating…" : `Create ${plural(report.toCreate, "pet")}`}
          </Button>
        )}
        {report.invalid > 0 ? (
          <Button size="large" onClick={onDownloadBadRows} disabled={busy !== undefined}>
            Download bad rows
          </Button>
        ) : null}
      </div>
      <p role="status" className="text-sm text-slate-700 tabular-nums" data-testid="import-progress">
        {busy === "applying"
          ? `Imported ${(progress ?? report.alreadyImported).toLocaleString("en")} of ${plural(importable, "row")}`
          : ""}
      </p>
    </section>
  );
}

function ReportCounts({ report }: { report: ImportReport }) {
  return (
    <ul className="list-disc pl-5 text-sm">
      <li data-testid="import-rows">{plural(report.rows, "row")} read</li>
      <li data-testid="import-to-create">
        {plural(report.toCreate, "pet")} would be created
        {report.alreadyImported > 0 ? `; ${plural(report.alreadyImported, "row")} already imported earlier` : ""}
      </li>
      <li data-testid="import-invalid">
        {plural(report.invalid, "row")} with problems {report.invalid > 0 ? "(not imported)" : ""}
      </li>
      {report.unknownColumns.length > 0 ? (
        <li data-testid="import-unknown-columns">
          Columns not imported (not known): {report.unknownColumns.join(", ")}
        </li>
      ) : null}
      {report.ignoredColumns.length > 0 ? <li>Columns ignored: {report.ignoredColumns.join(", ")}</li> : null}
    </ul>
  );
}

function ProblemTable({ report }: { report: ImportReport }) {
  const total = report.errors.length + report.errorsNotListed;
  return (
    <table className="w-full table-fixed border-collapse text-left text-sm" data-testid="import-errors">
      <caption className="mb-1 text-left font-medium">
        Problems
        {total > SHOWN_PROBLEMS
          ? ` (the first ${SHOWN_PROBLEMS} of ${total.toLocaleString("en")}; the bad rows download has them all)`
          : ""}
      </caption>
      <thead>
        <tr className="border-b border-slate-300">
          <th scope="col" className="w-16 py-1 pr-2">
            Line
          </th>
          <th scope="col" className="w-28 py-1 pr-2">
            Column
          </th>
          <th scope="col" className="py-1">
            Problem
          </th>
        </tr>
      </thead>
      <tbody>
        {report.errors.slice(0, SHOWN_PROBLEMS).map((problem, index) => (
          <tr key={index} className="border-b border-slate-100 align-top">
            <td className="py-1 pr-2 font-mono tabular-nums">{problem.line}</td>
            <td className="py-1 pr-2 break-words">{problem.column || "(row)"}</td>
            <td className="py-1 break-words">{problem.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ImportResult({ applied }: { applied: ImportReport }) {
  const title = useFocusOnChange(applied);
  return (
    <section aria-labelledby="result-title" className="space-y-2" data-testid="import-result">
      <h2 id="result-title" ref={title} tabIndex={-1} className={`text-lg font-semibold ${focusRing}`}>
        Imported
      </h2>
      <p role="status" className="text-sm" data-testid="import-created">
        Created {plural(applied.toCreate, "pet")}.
        {applied.alreadyImported > 0
          ? ` ${plural(applied.alreadyImported, "row was", "rows were")} already imported and not created again.`
          : ""}
        {applied.invalid > 0 ? ` ${plural(applied.invalid, "row")} with problems not imported.` : ""}
      </p>
      <p>
        <Link href="/admin" className={buttonClass({ variant: "primary", size: "large" })}>
          See the catalogue
        </Link>
      </p>
    </section>
  );
}
