"use client";

import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { RequestId } from "@/components/admin/form-fields";
import { focusRing } from "@/components/ui/focus-ring";
import { AdminRequestError } from "@/lib/client/admin-api";
import { applyImport, dryRunImport, fetchBadRows, type ImportReport } from "@/lib/client/import-api";

/** How many problems the report's table lists; the bad-rows download has them all. */
const SHOWN_PROBLEMS = 200;

const primaryButton =
  "min-h-11 rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 disabled:opacity-60 ";
const secondaryButton =
  "min-h-11 rounded-md border border-slate-300 bg-white px-4 py-2 font-medium hover:bg-slate-100 disabled:opacity-60 ";

const fileInput =
  "mt-1 block min-h-11 w-full text-sm file:mr-3 file:min-h-11 file:rounded-md file:border file:border-slate-300 " +
  "file:bg-white file:px-3";

type Failure = { message: string; requestId?: string };

function failureOf(error: unknown): Failure {
  return error instanceof AdminRequestError
    ? { message: error.message, requestId: error.requestId }
    : { message: "Something went wrong; try again." };
}

const plural = (count: number, one: string, many = `${one}s`) =>
  `${count.toLocaleString("en")} ${count === 1 ? one : many}`;

/**
 * The CSV import: choose a file, check it (the dry run: nothing is written), read what it would do and what is
 * wrong with which line and column, download the bad rows to fix them, and apply. Applying again creates nothing
 * twice: it finishes an import that was cut short, and otherwise creates nothing.
 */
export function PetImport({ limitBytes }: { limitBytes: number }) {
  const [file, setFile] = useState<File>();
  const [report, setReport] = useState<ImportReport>();
  const [applied, setApplied] = useState<ImportReport>();
  const [busy, setBusy] = useState<"checking" | "applying" | "downloading">();
  const [failure, setFailure] = useState<Failure>();
  const reportTitle = useRef<HTMLHeadingElement>(null);
  const resultTitle = useRef<HTMLHeadingElement>(null);

  // Each new report or result takes the focus once it is on the page, so a screen reader reads it next.
  useEffect(() => reportTitle.current?.focus(), [report]);
  useEffect(() => resultTitle.current?.focus(), [applied]);

  const run = async (what: "checking" | "applying" | "downloading", work: () => Promise<void>) => {
    setBusy(what);
    setFailure(undefined);
    try {
      await work();
    } catch (error) {
      setFailure(failureOf(error));
    } finally {
      setBusy(undefined);
    }
  };

  const check = (event: React.FormEvent) => {
    event.preventDefault();
    if (!file) {
      setFailure({ message: "Choose a CSV file first." });
      return;
    }
    if (file.size > limitBytes) {
      setFailure({ message: `The file is larger than ${limitBytes / 1024 / 1024} MiB: split it into smaller files.` });
      return;
    }
    void run("checking", async () => {
      setApplied(undefined);
      setReport(await dryRunImport(file));
    });
  };

  const apply = () =>
    void run("applying", async () => {
      setApplied(await applyImport(report!.importId, file!));
    });

  const downloadBadRows = () =>
    void run("downloading", async () => {
      const blob = await fetchBadRows(file!);
      const link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = `${file!.name.replace(/\.csv$/i, "")}-bad-rows.csv`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    });

  return (
    <section aria-labelledby="import-title" className="space-y-6">
      <div>
        <p className="text-sm">
          <Link href="/admin" className={`underline ${focusRing}`}>
            Back to the catalogue
          </Link>
        </p>
        <h1 id="import-title" className="mt-2 text-2xl font-semibold">
          Import pets from CSV
        </h1>
        <p className="mt-2 text-sm text-slate-700">
          A header row naming the columns <code>name</code>, <code>categoryId</code> (or <code>category</code>, by name)
          and optionally <code>status</code>, then one row per pet, separated by commas or semicolons, in UTF-8 (with or
          without a byte order mark). An <code>id</code> column is ignored: new pets get new ids. Checking the file
          writes nothing; each pet is created once however often the file is applied.
        </p>
        <p className="mt-1 text-sm text-slate-700">Files of at most {limitBytes / 1024 / 1024} MiB.</p>
      </div>

      <form onSubmit={check} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
        <div>
          <label htmlFor="import-file" className="block text-sm font-medium">
            CSV file
          </label>
          <input
            id="import-file"
            type="file"
            accept=".csv,text/csv"
            onChange={(event) => {
              setFile(event.target.files?.[0]);
              setReport(undefined);
              setApplied(undefined);
              setFailure(undefined);
            }}
            className={`${fileInput} ${focusRing}`}
          />
        </div>
        <button type="submit" disabled={busy !== undefined} className={primaryButton + focusRing}>
          {busy === "checking" ? "Checking…" : "Check file"}
        </button>
        <p role="status" className="text-sm text-slate-700">
          {busy === "applying" ? "Creating pets…" : busy === "checking" ? "Checking every row…" : ""}
        </p>
        {failure ? (
          <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
            <p className="break-words">{failure.message}</p>
            {failure.requestId ? <RequestId id={failure.requestId} className="text-slate-700" /> : null}
          </div>
        ) : null}
      </form>

      {report ? (
        <section aria-labelledby="report-title" className="space-y-3" data-testid="import-report">
          <h2 id="report-title" ref={reportTitle} tabIndex={-1} className={`text-lg font-semibold ${focusRing}`}>
            Dry run of {file?.name}
          </h2>
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

          {report.errors.length > 0 ? (
            <table className="w-full table-fixed border-collapse text-left text-sm" data-testid="import-errors">
              <caption className="mb-1 text-left font-medium">
                Problems
                {report.errors.length + report.errorsNotListed > SHOWN_PROBLEMS
                  ? ` (the first ${SHOWN_PROBLEMS} of ` +
                    `${(report.errors.length + report.errorsNotListed).toLocaleString("en")}; the bad rows ` +
                    "download has them all)"
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
          ) : null}

          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              onClick={apply}
              disabled={busy !== undefined || (report.toCreate === 0 && !applied)}
              className={primaryButton + focusRing}
            >
              {busy === "applying" ? "Creating…" : applied ? "Apply again" : `Create ${plural(report.toCreate, "pet")}`}
            </button>
            {report.invalid > 0 ? (
              <button
                type="button"
                onClick={downloadBadRows}
                disabled={busy !== undefined}
                className={secondaryButton + focusRing}
              >
                Download bad rows
              </button>
            ) : null}
          </div>
        </section>
      ) : null}

      {applied ? (
        <section aria-labelledby="result-title" className="space-y-2" data-testid="import-result">
          <h2 id="result-title" ref={resultTitle} tabIndex={-1} className={`text-lg font-semibold ${focusRing}`}>
            Imported
          </h2>
          <p role="status" className="text-sm" data-testid="import-created">
            Created {plural(applied.toCreate, "pet")}.
            {applied.alreadyImported > 0
              ? ` ${plural(applied.alreadyImported, "row was", "rows were")} already imported and not created again.`
              : ""}
            {applied.invalid > 0 ? ` ${plural(applied.invalid, "row")} with problems not imported.` : ""}
          </p>
          <p className="text-sm">
            <Link href="/admin" className={`underline ${focusRing}`}>
              See the catalogue
            </Link>
          </p>
        </section>
      ) : null}
    </section>
  );
}
