"use client";

import { useState } from "react";
import { AdminRequestError } from "@/lib/client/admin-api";
import {
  applyImport,
  dryRunImport,
  fetchBadRows,
  fetchImportProgress,
  type ImportReport,
} from "@/lib/client/import-api";

// The CSV import's state and requests: the chosen file, its dry run's report, the result of applying it, what is
// being sent, how far an apply has got, and the last failure. Each step clears the failure of the one before.

/** How often an apply's progress is read while it runs. */
const PROGRESS_INTERVAL_MS = 500;

export type ImportFailure = { message: string; requestId?: string };
export type ImportStep = "checking" | "applying" | "downloading";

function failureOf(error: unknown): ImportFailure {
  return error instanceof AdminRequestError
    ? { message: error.message, requestId: error.requestId }
    : { message: "Something went wrong; try again." };
}

/** Saves a blob as a file, through a link the browser downloads. */
function download(blob: Blob, name: string): void {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

export function usePetImport(limitBytes: number) {
  const [file, setFile] = useState<File>();
  const [report, setReport] = useState<ImportReport>();
  const [applied, setApplied] = useState<ImportReport>();
  const [busy, setBusy] = useState<ImportStep>();
  const [failure, setFailure] = useState<ImportFailure>();
  /** The valid rows that have their pet, read while an apply runs. */
  const [progress, setProgress] = useState<number>();

  const run = async (step: ImportStep, work: () => Promise<void>) => {
    setBusy(step);
    setFailure(undefined);
    try {
      await work();
    } catch (error) {
      setFailure(failureOf(error));
    } finally {
      setBusy(undefined);
    }
  };

  /** Another file chosen: what was shown of the last one goes. */
  const choose = (chosen: File | undefined) => {
    setFile(chosen);
    setReport(undefined);
    setApplied(undefined);
    setFailure(undefined);
  };

  /** The dry run: nothing is written. */
  const check = () => {
    if (!file) return setFailure({ message: "Choose a CSV file first." });
    if (file.size > limitBytes) {
      return setFailure({
        message: `The file is larger than ${limitBytes / 1024 / 1024} MiB: split it into smaller files.`,
      });
    }
    void run("checking", async () => {
      setApplied(undefined);
      setReport(await dryRunImport(file));
    });
  };

  const apply = () =>
    void run("applying", async () => {
      const { importId, alreadyImported } = report!;
      setProgress(alreadyImported);
      // Each batch of rows commits with its pets, so the count read between batches is what has been imported.
      // A read that fails, or answers late, is only a missed update: the apply's own answer is what counts.
      let reading = true;
      const timer = setInterval(() => {
        fetchImportProgress(importId).then(
          ({ done }) => reading && setProgress((shown) => Math.max(shown ?? 0, done)),
          () => undefined,
        );
      }, PROGRESS_INTERVAL_MS);
      try {
        setApplied(await applyImport(importId, file!));
      } finally {
        reading = false;
        clearInterval(timer);
        setProgress(undefined);
      }
    });

  const downloadBadRows = () =>
    void run("downloading", async () => {
      download(await fetchBadRows(file!), `${file!.name.replace(/\.csv$/i, "")}-bad-rows.csv`);
    });

  return { file, report, applied, busy, failure, progress, choose, check, apply, downloadBadRows };
}
