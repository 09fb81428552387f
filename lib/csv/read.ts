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

/**
 * The most fields a row may have, the header's included. Every field costs the reader an entry and an import's
 * report and bad rows a column: without a bound, a header of a million commas (1 MiB) ran the server out of memory.
 */
export const CSV_MAX_COLUMNS = 50;

/** The longest column name (a header field): an import's errors and bad rows repeat it on every row. */
export const CSV_MAX_COLUMN_NAME = 100;

/** How much of the file a message quotes back: enough to recognise, never the file. */
const QUOTED_CHARACTERS = 60;

export type CsvLimits = {
  /** Rows besides the header, blank rows counted. */
  rows: number;
  /** Fields in any one row, the header included. */
  columns: number;
  /** Characters in a column name. */
  columnName: number;
  /** Characters in any other field; by default only the caller's byte limit bounds it. */
  fieldLength: number;
};

const DEFAULT_LIMITS: CsvLimits = {
  rows: CSV_MAX_ROWS,
  columns: CSV_MAX_COLUMNS,
  columnName: CSV_MAX_COLUMN_NAME,
  fieldLength: Number.POSITIVE_INFINITY,
};

/** Text quoted back in a message: at most `max` characters, an ellipsis where it was cut. */
export function quoted(text: string, max = QUOTED_CHARACTERS): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/**
 * Measures the file against the limits in one pass over its text, before csv-parse builds a single field: the
 * rows, the fields of each row, and the length of each field, outside and inside quotes as RFC 4180 reads them
 * (a quote opens a field and closes it, two quotes inside are one; CRLF, LF or CR end a row outside quotes). On a
 * file csv-parse accepts, it counts what csv-parse will build; on one it refuses, it stops no later than csv-parse.
 */
function measure(text: string, separator: "," | ";", limits: CsvLimits): void {
  const SEPARATOR = separator.charCodeAt(0);
  let rows = 0; // rows ended so far; the header is row 0
  let line = 1; // the line the current row starts on
  let lines = 1; // the line being read
  let fields = 1;
  let length = 0;
  let inQuotes = false;
  const tooLong = () => {
    const limit = rows === 0 ? limits.columnName : limits.fieldLength;
    if (length <= limit) return;
    throw new CsvReadError(
      rows === 0
        ? `The header row has a column name longer than ${limit.toLocaleString("en")} characters: shorten it.`
        : `The file's line ${line} has a field longer than ${limit.toLocaleString("en")} characters: shorten it.`,
      line,
    );
  };
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (inQuotes) {
      if (unit === QUOTE) {
        if (text.charCodeAt(index + 1) === QUOTE) index++;
        else {
          inQuotes = false;
          continue;
        }
      } else if (unit === LF || (unit === CR && text.charCodeAt(index + 1) !== LF)) lines++;
      length++;
      tooLong();
    } else if (unit === QUOTE) {
      inQuotes = true;
    } else if (unit === SEPARATOR) {
      if (++fields > limits.columns)
        throw new CsvReadError(
          `The file's line ${line} has more than ${limits.columns} fields (the most a row may have): remove the ` +
            "empty columns, or the columns not imported.",
          line,
        );
      length = 0;
    } else if (unit === CR || unit === LF) {
      if (unit === CR && text.charCodeAt(index + 1) === LF) index++;
      if (++rows > limits.rows + 1) throw tooManyRows(limits.rows);
      line = ++lines;
      fields = 1;
      length = 0;
    } else {
      length++;
      tooLong();
    }
  }
}

function tooManyRows(limit: number): CsvReadError {
  return new CsvReadError(
    `The file has more than ${limit.toLocaleString("en")} rows: split it into smaller files (each is ` +
      "imported on its own).",
  );
}

/**
 * Reads a whole CSV file: its header and its records, each with the line it starts on. The file is measured
 * against `limits` first (CSV_MAX_ROWS rows, CSV_MAX_COLUMNS fields a row, CSV_MAX_COLUMN_NAME characters a column
 * name, and the field length the caller gives), and refused saying which it passes.
 */
export function readCsv(bytes: Uint8Array, limits: Partial<CsvLimits> = {}): CsvTable {
  const bounds = { ...DEFAULT_LIMITS, ...limits };
  const text = decodeUtf8(bytes);
  if (text.trim() === "") throw new CsvReadError("The file is empty: it needs a header row and a row per pet.");
  const separator = detectSeparator(text);
  measure(text, separator, bounds);
  let rows: string[][];
  try {
    rows = parse(text, {
      delimiter: separator,
      // A file edited in two programs can mix line ends; csv-parse would otherwise take the first one's only.
      record_delimiter: ["\r\n", "\n", "\r"],
      relax_column_count: true,
      skip_empty_lines: false,
      to: bounds.rows + 2, // the header, the most rows, and one more to know there are more: parsing stops there
      // What measure() counted, held again by the parser itself.
      on_record: (record: string[], { lines }: { lines: number }) => {
        if (record.length > bounds.columns) throw new CsvReadError(`The file's line ${lines} has too many fields.`);
        return record;
      },
    });
  } catch (error) {
    if (error instanceof CsvReadError) throw error;
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines;
      throw new CsvReadError(
        `The file is not valid CSV${line ? ` at line ${line}` : ""}: ${quoted(error.message, 200)}`,
        line,
      );
    }
    throw error;
  }
  if (rows.length > bounds.rows + 1) throw tooManyRows(bounds.rows);
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
