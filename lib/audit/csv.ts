// The activity log as CSV (RFC 4180): fields quoted when they hold a quote, a comma or a line break, quotes
// doubled, lines ended by CRLF. A field that a spreadsheet would read as a formula (starting with = + - @, a
// tab or a carriage return) gets a leading apostrophe, so that opening the export runs nothing a pet's name or
// a key's name put there (OWASP "CSV injection").

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(value: string | number | bigint | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(fields: (string | number | bigint | null | undefined)[]): string {
  return `${fields.map(csvField).join(",")}\r\n`;
}
