"use client";

import { useState } from "react";
import { AdminRequestError } from "@/lib/client/admin-api";
import { applyImport, dryRunImport, fetchBadRows, type ImportReport } from "@/lib/client/import-api";

// The CSV import's state and requests: the chosen file, its dry run's report, the result of applying it, what is
// being sent, and the last failure. Each step clears the failure of the one before.

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
      setApplied(await applyImport(report!.importId, file!));
    });

  const downloadBadRows = () =>
    void run("downloading", async () => {
      download(await fetchBadRows(file!), `${file!.name.replace(/\.csv$/i, "")}-bad-rows.csv`);
    });

  return { file, report, applied, busy, failure, choose, check, apply, downloadBadRows };
}
