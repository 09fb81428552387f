import "server-only";
import { z } from "zod";
import type { SignedInCaller } from "@/lib/admin/guard";
import { readLimitedBytes } from "@/lib/http/body";
import { json, type Handler } from "@/lib/http/api-route";
import { Refusal } from "@/lib/refusal";
import { clientAddress } from "@/lib/http/forwarded";
import { pathParam } from "@/lib/http/validation";
import {
  applyImport,
  badRowsCsv,
  dryRunImport,
  importProgress,
  IMPORT_LIMIT_BYTES,
  IMPORT_LIMIT_MESSAGE,
} from "@/lib/pets/import";

// The catalogue's CSV import endpoints, for any signed-in staff member (as adding a pet one at a time is): the
// dry run, the apply, and the bad rows as a CSV. Each takes the file itself as the request body, as the browser
// sends a File (text/csv, or whatever type the system gives .csv files), at most IMPORT_LIMIT_BYTES.

const CSV_MESSAGE = "Send the CSV file itself as the request body (Content-Type: text/csv), not a form or JSON.";

async function fileOf(request: Request): Promise<Uint8Array> {
  const type = request.headers.get("content-type")?.split(";", 1)[0].trim().toLowerCase() ?? "";
  if (type.startsWith("multipart/") || type.includes("json") || type === "application/x-www-form-urlencoded")
    throw new Refusal("unsupported_media_type", { message: CSV_MESSAGE });
  const bytes = await readLimitedBytes(request, IMPORT_LIMIT_BYTES, IMPORT_LIMIT_MESSAGE);
  if (bytes.byteLength === 0) throw new Refusal("invalid_csv", { message: "The file is empty." });
  return bytes;
}

// POST /admin/api/pets/imports — the dry run: every row checked, nothing written
export const dryRunImportHandler: Handler<SignedInCaller> = async ({ request }) =>
  json(await dryRunImport(await fileOf(request)));

const importIdSchema = z.uuid({ error: "importId must be the id a dry run gave" });

// PUT /admin/api/pets/imports/{importId} — apply: the valid rows not yet created, once each
export const applyImportHandler: Handler<SignedInCaller> = async ({ request, requestId, params, caller }) => {
  const importId = pathParam(params, "importId", importIdSchema);
  const bytes = await fileOf(request);
  const { staff } = caller;
  const audit = {
    actor: { type: "staff" as const, id: staff.id, label: staff.email },
    clientAddress: clientAddress(request),
    requestId,
  };
  return json(await applyImport(importId, bytes, staff, audit));
};

// GET /admin/api/pets/imports/{importId} — how many of its rows have their pet, polled while an apply runs
export const importProgressHandler: Handler<SignedInCaller> = async ({ params }) =>
  json(await importProgress(pathParam(params, "importId", importIdSchema)));

// POST /admin/api/pets/imports/bad-rows — the file's invalid rows, with an error column, to fix and import again
export const badRowsHandler: Handler<SignedInCaller> = async ({ request }) => {
  const csv = await badRowsCsv(await fileOf(request));
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8; header=present",
      "Content-Disposition": `attachment; filename="pets-bad-rows-${day}.csv"`,
    },
  });
};
