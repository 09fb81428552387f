"use client";

import Link from "next/link";
import { RequestId } from "@/components/admin/form-fields";
import { DryRunReport, ImportResult } from "@/components/admin/import-report";
import { usePetImport, type ImportFailure, type ImportStep } from "@/components/admin/use-pet-import";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { focusRing } from "@/components/ui/focus-ring";

const fileInput =
  "mt-1 block min-h-11 w-full text-sm file:mr-3 file:min-h-11 file:rounded-md file:border file:border-slate-300 " +
  "file:bg-white file:px-3";

/**
 * The CSV import: choose a file, check it (the dry run: nothing is written), read what it would do and what is
 * wrong with which line and column, download the bad rows to fix them, and apply. Applying again creates nothing
 * twice: it finishes an import that was cut short. While it runs, the count of rows imported so far is shown.
 */
export function PetImport({ limitBytes }: { limitBytes: number }) {
  const petImport = usePetImport(limitBytes);
  const { file, report, applied, busy, progress } = petImport;
  return (
    <section aria-labelledby="import-title" className="space-y-6">
      <ImportIntro limitBytes={limitBytes} />
      <ImportForm busy={busy} failure={petImport.failure} onChoose={petImport.choose} onCheck={petImport.check} />
      {report ? (
        <DryRunReport
          report={report}
          fileName={file?.name}
          applied={applied}
          busy={busy}
          progress={progress}
          onApply={petImport.apply}
          onDownloadBadRows={petImport.downloadBadRows}
        />
      ) : null}
      {applied ? <ImportResult applied={applied} /> : null}
    </section>
  );
}

function ImportIntro({ limitBytes }: { limitBytes: number }) {
  return (
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
        without a byte order mark). An <code>id</code> column is ignored: new pets get new ids. Checking the file writes
        nothing; each pet is created once however often the file is applied.
      </p>
      <p className="mt-1 text-sm text-slate-700">Files of at most {limitBytes / 1024 / 1024} MiB.</p>
    </div>
  );
}

function ImportForm({
  busy,
  failure,
  onChoose,
  onCheck,
}: {
  busy: ImportStep | undefined;
  failure: ImportFailure | undefined;
  onChoose: (file: File | undefined) => void;
  onCheck: () => void;
}) {
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onCheck();
      }}
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4"
    >
      <div>
        <label htmlFor="import-file" className="block text-sm font-medium">
          CSV file
        </label>
        <input
          id="import-file"
          type="file"
          accept=".csv,text/csv"
          onChange={(event) => onChoose(event.target.files?.[0])}
          className={`${fileInput} ${focusRing}`}
        />
      </div>
      <Button type="submit" variant="primary" size="large" disabled={busy !== undefined}>
        {busy === "checking" ? "Checking…" : "Check file"}
      </Button>
      <p role="status" className="text-sm text-slate-700">
        {busy === "checking" ? "Checking every row…" : ""}
      </p>
      {failure ? (
        <Alert>
          <p className="break-words">{failure.message}</p>
          {failure.requestId ? <RequestId id={failure.requestId} className="text-slate-700" /> : null}
        </Alert>
      ) : null}
    </form>
  );
}
