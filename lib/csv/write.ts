// Writing CSV (RFC 4180), for every export: the activity log's and the catalogue's. Fields are quoted when they
// hold a quote, a comma, a semicolon or a line break, quotes doubled, lines ended by CRLF. A text field that a
// spreadsheet would read as a formula (starting with = + - @, a tab or a carriage return) gets a leading
// apostrophe, so that opening the export runs nothing a pet's name or a key's name put there (OWASP "CSV
// injection"); the importer (lib/csv/read.ts) takes that apostrophe off again. A text that already starts with
// apostrophes before such a character gets one more, so that taking one off gives it back as it was. Numbers
// and bigints are written as they are (a negative category id stays -5), digit for digit. Browser-safe.

const FORMULA_START = /^'*[=+\-@\t\r]/;

export type CsvValue = string | number | bigint | null | undefined;

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && FORMULA_START.test(text)) text = `'${text}`;
  // A semicolon is quoted too: spreadsheets set to a European locale split on it.
  return /[",;\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(fields: CsvValue[]): string {
  return `${fields.map(csvField).join(",")}\r\n`;
}
