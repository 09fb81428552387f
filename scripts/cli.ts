import { ConfigError } from "@/lib/config";

/**
 * Runs a command-line tool's body: a configuration or usage error prints one line and exits 2, any other
 * failure prints its message and exits 1, success exits 0 (the database drivers may hold timers open).
 */
export async function runCommand(body: () => Promise<void>): Promise<never> {
  try {
    await body();
    process.exit(0);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof UsageError) {
      console.error(error.message);
      process.exit(2);
    }
    console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

export class UsageError extends Error {}

/** Prints rows under a header, each column padded to its widest cell. */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  for (const row of [header, ...rows])
    console.log(
      row
        .map((cell, column) => cell.padEnd(widths[column]))
        .join("  ")
        .trimEnd(),
    );
}
