import "server-only";

// Structured logs: one JSON object a line on stderr. Callers pass facts, never secrets: no API keys,
// passwords, cookies or Authorization headers.

type Level = "info" | "warn" | "error";

export function log(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...fields }, (_key, value: unknown) =>
    typeof value === "bigint" ? value.toString() : value,
  );
  process.stderr.write(`${line}\n`);
}
