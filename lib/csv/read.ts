import { CsvError, parse } from "csv-parse/sync";

// Reading a CSV file as staff produce it: from a spreadsheet's "Save as CSV" (Excel, LibreOffice, Numbers,
// Google Sheets) or by hand. csv-parse does the RFC 4180 work (quotes, doubled quotes, line breaks inside quoted
// fields, CRLF or LF); this module decides what it cannot: the encoding (UTF-8, with or without a byte order
// mark; anything else is refused rather than read as mojibake), the separator (`,` or `;`, whichever the header
// line uses more, outside quotes: spreadsheets in European locales write `;`), the line each record starts on,
// and the apostrophe the exports put before a would-be formula (lib/csv/write.ts), which is taken off again so
// that an exported name imports as itself. Rows whose fields are all empty (a spreadsheet's trailing rows) are
// skipped. Ragged rows are kept as they are: the caller reports a missing or extra field.

export type CsvRecord = {
  /** The line of the file the record starts on (1 is the header): what a text editor shows. */
  line: number;
  fields: string[];
};

export type CsvTable = { separator: "," | ";"; header: string[]; records: CsvRecord[] };

/** A file that cannot be read as CSV at all, with the line where reading stopped when there is one. */
export class CsvReadError extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(message);
  }
}

const BOM = "\uFEFF";

/** The separator of a file: `;` when its first line has more of them than commas, outside quotes. */
export function detectSeparator(text: string): "," | ";" {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === "\n" || char === "\r")) break;
    else if (!quoted && char === ",") commas++;
    else if (!quoted && char === ";") semicolons++;
  }
  return semicolons > commas ? ";" : ",";
}

/**
 * A field as the exports wrote it: `'=1+1` back to `=1+1`, `''=1` to `'=1` (one apostrophe off, only before what
 * the writer neutralises).
 */
export function unneutralised(field: string): string {
  return /^'+[=+\-@\t\r]/.test(field) ? field.slice(1) : field;
}

/** UTF-8 bytes as text, without a byte order mark; other encodings are refused. */
export function decodeUtf8(bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new CsvReadError(
      'The file is not UTF-8 text. Save it as "CSV UTF-8" (Excel) or with the UTF-8 character set (LibreOffice).',
    );
  }
  return text.startsWith(BOM) ? text.slice(BOM.length) : text;
}

/**
 * The most rows (besides the header) a file may hold: what an import checks and applies in one go, kept well
 * inside a request's time and the server's memory. The bytes limit alone would let 5 MiB hold a million tiny rows.
 */
export const CSV_MAX_ROWS = 50_000;

/** Reads a whole CSV file: its header and its records, each with the line it starts on. */
export function readCsv(bytes: Uint8Array): CsvTable {
  const text = decodeUtf8(bytes);
  if (text.trim() === "") throw new CsvReadError("The file is empty: it needs a header row and a row per pet.");
  const separator = detectSeparator(text);
  let rows: string[][];
  try {
    rows = parse(text, {
      delimiter: separator,
      // A file edited in two programs can mix line ends; csv-parse would otherwise take the first one's only.
      record_delimiter: ["\r\n", "\n", "\r"],
      relax_column_count: true,
      skip_empty_lines: false,
      to: CSV_MAX_ROWS + 2, // the header, the most rows, and one more to know there are more: parsing stops there
    });
  } catch (error) {
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines;
      throw new CsvReadError(`The file is not valid CSV${line ? ` at line ${line}` : ""}: ${error.message}`, line);
    }
    throw error;
  }
  if (rows.length > CSV_MAX_ROWS + 1)
    throw new CsvReadError(
      `The file has more than ${CSV_MAX_ROWS.toLocaleString("en")} rows: split it into smaller files (each is ` +
        "imported on its own).",
    );
  const records: CsvRecord[] = [];
  // Lines are counted here: csv-parse's own count takes a CRLF inside quotes for two lines.
  let line = 1;
  for (const record of rows) {
    const start = line;
    line += 1 + record.reduce((breaks, field) => breaks + (field.match(/\r\n|\r|\n/g)?.length ?? 0), 0);
    if (record.every((field) => field === "")) continue;
    records.push({ line: start, fields: record.map(unneutralised) });
  }
  const first = records.shift();
  if (first?.line !== 1)
    throw new CsvReadError("The first line must be the header row, naming the columns (name, categoryId, status).");
  return { separator, header: first.fields.map((name) => name.trim()), records };
}
