import "server-only";
import { createHash } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { AuditContext } from "@/lib/audit/record";
import type { ImportProgress, ImportReport, RowProblem } from "@/lib/pets/import-schema";
import { categoryNameKey } from "@/lib/categories/schema";
import { listCategories } from "@/lib/categories/store";
import { candidate } from "@/lib/client/pet-form";
import { CsvReadError, quoted, readCsv, type CsvRecord } from "@/lib/csv/read";
import { csvLine } from "@/lib/csv/write";
import { db, dialect, transaction, type Transaction } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { Refusal } from "@/lib/refusal";
import { rowMessages } from "@/lib/pets/import-messages";
import { newPetSchema, type NewPet } from "@/lib/pets/schema";
import { createPets } from "@/lib/pets/store";

// Importing pets from a CSV file, in two steps. The dry run reads the whole file and checks every row with
// newPetSchema, the add form's own schema, after reading each row's text as the add form reads its inputs
// (lib/client/pet-form.ts): it writes nothing and answers what applying would do, with an import id. Applying
// sends the same file again with that id and creates the pets of the valid rows, in batches, each pet in the same
// transaction as its audit record (naming the staff member and `via` the import and line) and as the row of
// pet_import_rows that says its line is done. The file's SHA-256 is the import's idempotency key: one import
// per file, however often and however concurrently it is applied, and every apply skips the lines already done,
// so a retried or double-submitted apply creates nothing twice and an apply cut short (a crash, a timeout) is
// finished by applying again.

/** The largest file accepted: about 40,000 pets with long names. */
export const IMPORT_LIMIT_BYTES = 5 * 1024 * 1024;
export const IMPORT_LIMIT_MESSAGE =
  `The file is larger than ${IMPORT_LIMIT_BYTES / 1024 / 1024} MiB: split it into smaller files ` +
  "(each is imported on its own).";

/**
 * The longest field an import reads: a name has at most 200 characters, and a column the import does not know
 * (notes, say) may hold more, but not a whole file.
 */
export const IMPORT_MAX_FIELD_LENGTH = 10_000;

/** The problems a report lists; the rest are counted (`errorsNotListed`) and all are in the bad rows download. */
export const IMPORT_REPORT_MAX_ERRORS = 1_000;

/**
 * How much larger than its file the bad rows download may be: the error column and the padding of short rows to
 * the header's width. A file whose bad rows would need more is refused rather than answered with tens of MiB.
 */
export const BAD_ROWS_EXTRA_BYTES = 5 * 1024 * 1024;

/**
 * Valid rows created per transaction: a 10,000-row file is 100 short transactions, not one long one. Between two
 * batches the apply waits for the event loop's next turn, and the row checks wait every CHECK_CHUNK rows: on SQLite
 * every statement runs on the event loop's thread, so without these pauses no other request is answered until the
 * whole file is done (docs/decisions/001-sqlite-writes-yield.md).
 */
export const IMPORT_BATCH_SIZE = 100;
const CHECK_CHUNK = 500;

/** The columns an import reads, by their header names once lower-cased without spaces, `_` or `-`. */
const KNOWN_COLUMNS: Record<string, "name" | "categoryId" | "category" | "status" | "id" | "error"> = {
  name: "name",
  categoryid: "categoryId",
  category: "category",
  status: "status",
  id: "id",
  error: "error",
};

type Columns = {
  /** The index of each member's column in the file, and the header's own spelling of it. */
  members: Partial<Record<"name" | "categoryId" | "category" | "status", { index: number; header: string }>>;
  /** Columns read and left alone: `id` (new pets get new ids) and `error` (of a bad-rows file). */
  ignored: string[];
  /** Columns the import does not know. */
  unknown: string[];
};

function columnsOf(header: string[]): Columns {
  const columns: Columns = { members: {}, ignored: [], unknown: [] };
  const seen = new Map<string, string>();
  header.forEach((name, index) => {
    const known = KNOWN_COLUMNS[name.toLowerCase().replace(/[\s_-]/g, "")];
    if (!known) {
      columns.unknown.push(name === "" ? `(column ${index + 1}, no name)` : name);
      return;
    }
    const earlier = seen.get(known);
    if (earlier !== undefined)
      throw new Refusal("invalid_csv", {
        message:
          `The header row names the ${known} column twice ("${quoted(earlier)}" and "${quoted(name)}"); ` + "keep one.",
      });
    seen.set(known, name);
    if (known === "id" || known === "error") columns.ignored.push(name);
    else columns.members[known] = { index, header: name };
  });
  const missing = [
    ...(columns.members.name ? [] : ["name"]),
    ...(columns.members.categoryId || columns.members.category ? [] : ["categoryId or category"]),
  ];
  if (missing.length > 0)
    throw new Refusal("invalid_csv", {
      message:
        `The header row must name the columns name and categoryId (or category, by name; status is optional); ` +
        `it lacks ${missing.join(" and ")}. It reads: ${quoted(header.join(", "), 200)}.`,
    });
  return columns;
}

export type { RowProblem };

type CheckedRow = { line: number; fields: string[]; pet?: NewPet; problems: RowProblem[] };

/** The ids of the named categories, by categoryNameKey of their names. */
type CategoryIds = ReadonlyMap<string, bigint>;

function checkRow(record: CsvRecord, columns: Columns, width: number, categories: CategoryIds): CheckedRow {
  const field = (member: "name" | "categoryId" | "category" | "status") => {
    const column = columns.members[member];
    return column ? (record.fields[column.index] ?? "") : "";
  };
  const problems: RowProblem[] = [];
  if (record.fields.slice(width).some((extra) => extra !== ""))
    problems.push({
      line: record.line,
      column: "",
      message: `the row has ${record.fields.length} fields, but the header names ${width} columns`,
    });
  const status = field("status").trim().toLowerCase();
  // A category id wins; without one, the category's name is looked up as the Categories page compares names.
  let categoryId = field("categoryId");
  const categoryName = field("category").trim();
  if (categoryId.trim() === "" && categoryName !== "") {
    const id = categories.get(categoryNameKey(categoryName));
    if (id === undefined)
      problems.push({
        line: record.line,
        column: columns.members.category!.header,
        message: `No category is called “${quoted(categoryName)}”: add it on the Categories page, or give its id`,
      });
    else categoryId = String(id);
  }
  const input = candidate(field("name"), categoryId, status);
  const result = newPetSchema.safeParse(input);
  if (!result.success) {
    for (const { member, message } of rowMessages(result.error, input)) {
      // A missing id is the category name's problem when the name was reported already.
      if (member === "categoryId" && problems.some((problem) => problem.column === columns.members.category?.header))
        continue;
      const named =
        columns.members[member as keyof Columns["members"]] ??
        (member === "categoryId" ? columns.members.category : undefined);
      problems.push({ line: record.line, column: named?.header ?? member, message });
    }
  }
  const pet = result.success && problems.length === 0 ? result.data : undefined;
  return { line: record.line, fields: record.fields, pet, problems };
}

type CheckedFile = {
  sha256: string;
  separator: "," | ";";
  header: string[];
  columns: Columns;
  rows: CheckedRow[];
};

/** Reads and checks a whole file; a file that is not a CSV of pets at all is a 400 saying why. */
async function checkFile(bytes: Uint8Array): Promise<CheckedFile> {
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  let table;
  try {
    table = readCsv(bytes, { fieldLength: IMPORT_MAX_FIELD_LENGTH });
  } catch (error) {
    if (error instanceof CsvReadError) throw new Refusal("invalid_csv", { message: error.message });
    throw error;
  }
  const columns = columnsOf(table.header);
  const categories = new Map((await listCategories()).map((category) => [categoryNameKey(category.name), category.id]));
  const rows: CheckedRow[] = [];
  for (const [index, record] of table.records.entries()) {
    if (index > 0 && index % CHECK_CHUNK === 0) await nextTurn();
    rows.push(checkRow(record, columns, table.header.length, categories));
  }
  return { sha256, separator: table.separator, header: table.header, columns, rows };
}

/** What a dry run or an apply answers (its schema: lib/pets/import-schema.ts). */
export type { ImportReport };

type DoneLines = { importId: string; lines: Set<number> };

async function doneLinesOf(sha256: string, tx: Transaction = db()): Promise<DoneLines | undefined> {
  const found = await tx.petImport.findUnique({ where: { sha256 }, select: { id: true } });
  if (!found) return undefined;
  const rows = await tx.petImportRow.findMany({ where: { importId: found.id }, select: { line: true } });
  return { importId: found.id, lines: new Set(rows.map((row) => row.line)) };
}

function report(file: CheckedFile, importId: string, alreadyImported: number, toCreate: number): ImportReport {
  const valid = file.rows.filter((row) => row.pet);
  const errors: RowProblem[] = [];
  let errorsNotListed = 0;
  for (const row of file.rows)
    for (const problem of row.problems) {
      if (errors.length < IMPORT_REPORT_MAX_ERRORS) errors.push(problem);
      else errorsNotListed++;
    }
  return {
    importId,
    sha256: file.sha256,
    separator: file.separator,
    rows: file.rows.length,
    valid: valid.length,
    invalid: file.rows.length - valid.length,
    errors,
    errorsNotListed,
    unknownColumns: file.columns.unknown,
    ignoredColumns: file.columns.ignored,
    alreadyImported,
    toCreate,
  };
}

/** The dry run: every row checked, nothing written. */
export async function dryRunImport(bytes: Uint8Array): Promise<ImportReport> {
  const file = await checkFile(bytes);
  const done = await doneLinesOf(file.sha256);
  const lines = done?.lines ?? new Set<number>();
  const toCreate = file.rows.filter((row) => row.pet && !lines.has(row.line)).length;
  const valid = file.rows.filter((row) => row.pet).length;
  return report(file, done?.importId ?? importIdOf(file.sha256), valid - toCreate, toCreate);
}

/**
 * A file's import id: its SHA-256 spelt as a UUID (version 8, RFC 9562), so that an apply names the very file its
 * dry run checked. Applying another file under that id (the file was edited and saved after its dry run) is a
 * 409 rather than an import of rows nobody saw checked.
 */
export function importIdOf(sha256: string): string {
  const variant = ((parseInt(sha256[16], 16) & 0x3) | 0x8).toString(16); // the RFC's variant bits, 10xx
  const hex = `${sha256.slice(0, 12)}8${sha256.slice(13, 16)}${variant}${sha256.slice(17, 32)}`;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The import this file belongs to: the one made by its first apply (whatever id this apply carries, so two dry
 * runs of one file can never make two imports), or a new one under `importId`. An id already used for another
 * file is a 409: the file changed since its dry run.
 */
async function claimImport(importId: string, sha256: string, staff: { id: number; email: string }): Promise<string> {
  if (importId !== importIdOf(sha256)) throw new Refusal("import_file_changed");
  const byId = await db().petImport.findUnique({ where: { id: importId }, select: { sha256: true } });
  if (byId && byId.sha256 !== sha256) throw new Refusal("import_file_changed");
  if (!byId) {
    try {
      await db().petImport.create({
        data: { id: importId, sha256, staffId: staff.id, staffEmail: staff.email },
        select: { id: true },
      });
    } catch (error) {
      // Another apply of this file (or of this id) got there first: theirs is the import.
      if (!isUniqueViolation(error)) throw error;
    }
  }
  const bySha = await db().petImport.findUnique({ where: { sha256 }, select: { id: true } });
  if (!bySha) throw new Refusal("import_file_changed"); // the id was taken by another file meanwhile
  return bySha.id;
}

/**
 * Takes the import for the rest of the transaction, so that two applies of one file at once create each line
 * once: PostgreSQL holds the row's lock until commit (the other apply waits, then sees the lines done); SQLite
 * runs one write transaction at a time anyway (lib/db/sqlite-adapter.ts).
 */
async function holdImport(importId: string, tx: Transaction): Promise<void> {
  if (dialect(tx) === "postgresql")
    await tx.$executeRawUnsafe("SELECT 1 FROM pet_imports WHERE id = $1 FOR UPDATE", importId);
}

/**
 * The statements of an apply's batch, each of one fixed shape whatever the batch's size (its lines passed as one
 * JSON array), so that each is compiled and prepared once: the lines of the batch already done, and the lines done
 * now with their pets.
 */
const DONE_LINES = {
  sqlite: "SELECT line FROM pet_import_rows WHERE import_id = ? AND line IN (SELECT value FROM json_each(?))",
  postgresql:
    "SELECT line FROM pet_import_rows WHERE import_id = $1 AND line IN " +
    "(SELECT (jsonb_array_elements_text(CAST($2 AS jsonb)))::int)",
};
const INSERT_DONE_LINES = {
  sqlite: `INSERT INTO pet_import_rows (import_id, line, pet_id)
    SELECT ?, value ->> 0, CAST(value ->> 1 AS INTEGER) FROM json_each(?)`,
  postgresql: `INSERT INTO pet_import_rows (import_id, line, pet_id)
    SELECT $1, (item ->> 0)::int, (item ->> 1)::bigint FROM jsonb_array_elements(CAST($2 AS jsonb)) AS item`,
};

/** Applies a file: creates the pets of its valid rows not yet done, a batch per transaction. */
export async function applyImport(
  importId: string,
  bytes: Uint8Array,
  staff: { id: number; email: string },
  audit: AuditContext,
): Promise<ImportReport> {
  const file = await checkFile(bytes);
  const id = await claimImport(importId, file.sha256, staff);
  const provider = dialect();
  const valid = file.rows.filter((row): row is CheckedRow & { pet: NewPet } => row.pet !== undefined);
  let created = 0;
  for (let start = 0; start < valid.length; start += IMPORT_BATCH_SIZE) {
    if (start > 0) await nextTurn(); // the other requests' turn (see IMPORT_BATCH_SIZE)
    const batch = valid.slice(start, start + IMPORT_BATCH_SIZE);
    created += await transaction(
      async (tx) => {
        await holdImport(id, tx);
        const done: { line: number | bigint }[] = await tx.$queryRawUnsafe(
          DONE_LINES[provider],
          id,
          JSON.stringify(batch.map((row) => row.line)),
        );
        const skipped = new Set(done.map((row) => Number(row.line)));
        const todo = batch.filter((row) => !skipped.has(row.line));
        const pets = await createPets(
          todo.map((row) => ({ input: row.pet, audit: { ...audit, via: { import: id, line: row.line } } })),
          tx,
        );
        if (todo.length > 0)
          await tx.$executeRawUnsafe(
            INSERT_DONE_LINES[provider],
            id,
            JSON.stringify(todo.map((row, index) => [row.line, String(pets[index].pet.id)])),
          );
        return todo.length;
      },
      { maxWait: 10_000, timeout: 30_000 },
    );
  }
  await db().petImport.updateMany({ where: { id, completedAt: null }, data: { completedAt: new Date() } });
  return report(file, id, valid.length - created, created);
}

/**
 * How many lines of an import have their pet, for the progress an apply shows while it runs: each batch commits
 * its lines with its pets, so this counts whole batches. An import not yet claimed by an apply has none done.
 */
export async function importProgress(importId: string): Promise<ImportProgress> {
  const [done, petImport] = await Promise.all([
    db().petImportRow.count({ where: { importId } }),
    db().petImport.findUnique({ where: { id: importId }, select: { completedAt: true } }),
  ]);
  return { importId, done, completed: petImport?.completedAt != null };
}

/** The file's invalid rows as a CSV to fix and import again: its header and their fields, with an error column. */
export async function badRowsCsv(bytes: Uint8Array): Promise<string> {
  const file = await checkFile(bytes);
  // A bad-rows file imported again keeps its one error column, with the new errors in it.
  const existing = file.header.findIndex((name) => name.toLowerCase().trim() === "error");
  const header = existing === -1 ? [...file.header, "error"] : file.header;
  const errorAt = existing === -1 ? file.header.length : existing;
  const lines = [csvLine(header)];
  const budget = bytes.byteLength + BAD_ROWS_EXTRA_BYTES;
  let size = Buffer.byteLength(lines[0]);
  for (const [index, row] of file.rows.entries()) {
    if (index > 0 && index % CHECK_CHUNK === 0) await nextTurn();
    if (row.problems.length === 0) continue;
    // Fields past the header's columns are left out: the error says how many the row had.
    const fields = Array.from({ length: header.length }, (_, index) => row.fields[index] ?? "");
    fields[errorAt] = row.problems
      .map(({ column, message }) => (column ? `${column}: ${message}` : message))
      .join("; ");
    const line = csvLine(fields);
    size += Buffer.byteLength(line);
    if (size > budget)
      throw new Refusal("invalid_csv", {
        message:
          "The bad rows of this file, with their errors, would make a download more than " +
          `${BAD_ROWS_EXTRA_BYTES / 1024 / 1024} MiB larger than the file: fix the problems the check lists ` +
          "first, or split the file.",
      });
    lines.push(line);
  }
  return lines.join("");
}
