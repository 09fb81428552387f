import { z } from "zod";
import { smallIntegerSchema } from "@/lib/http/int64";

// What the CSV import's dry run and apply answer: lib/pets/import.ts writes it, the import page reads it with
// this schema.

export const rowProblemSchema = z.object({ line: smallIntegerSchema, column: z.string(), message: z.string() });
export type RowProblem = z.output<typeof rowProblemSchema>;

/** What a dry run or an apply answers. */
export const importReportSchema = z.object({
  /** The id to apply this file with; an earlier import's when this file was applied before. */
  importId: z.string(),
  sha256: z.string(),
  separator: z.enum([",", ";"]),
  /** Rows of pets read (the header and empty rows not counted). */
  rows: smallIntegerSchema,
  /** Rows that pass the add form's checks. */
  valid: smallIntegerSchema,
  /** Rows with at least one problem: they are never imported. */
  invalid: smallIntegerSchema,
  /** Each problem of each invalid row, in file order: the first IMPORT_REPORT_MAX_ERRORS of them. */
  errors: z.array(rowProblemSchema),
  /** The problems past those listed in `errors`. */
  errorsNotListed: smallIntegerSchema,
  /** Columns that are not imported: unknown ones, reported rather than dropped unnoticed. */
  unknownColumns: z.array(z.string()),
  /** Columns deliberately not imported: `id` (new pets get new ids), `error` (of a bad-rows download). */
  ignoredColumns: z.array(z.string()),
  /** Valid rows an earlier apply of this file already created. */
  alreadyImported: smallIntegerSchema,
  /** Valid rows an apply would create now (dry run), or created (apply). */
  toCreate: smallIntegerSchema,
});
export type ImportReport = z.output<typeof importReportSchema>;

/** How far an import has got, read while it is applied: its lines done so far (by any apply of the file). */
export const importProgressSchema = z.object({
  importId: z.string(),
  /** Valid rows that have their pet. */
  done: smallIntegerSchema,
  /** Whether an apply has gone through every valid row. */
  completed: z.boolean(),
});
export type ImportProgress = z.output<typeof importProgressSchema>;
