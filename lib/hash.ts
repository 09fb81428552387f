import "server-only";
import { createHash } from "node:crypto";

/** SHA-256 as hex: how keys, session tokens and request bodies are stored or compared. */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
