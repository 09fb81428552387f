import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// Moving the server's clock in a test (scripts/harness/clock.mjs): pass `env` to startServer, then `set` an
// instant; the server's Date reads it (plus the real time elapsed since) from the next 20 ms on.

const preload = path.resolve(import.meta.dirname, "clock.mjs");
const SETTLE_MS = 60;

export type MovableClock = {
  env: Record<string, string>;
  /** Puts the server's clock at this instant (it runs on from there), once the server has read it. */
  set(at: Date): Promise<void>;
  remove(): void;
};

export function movableClock(): MovableClock {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "animal-store-clock-"));
  const file = path.join(dir, "offset");
  fs.writeFileSync(file, "0");
  return {
    env: {
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import=${preload}`.trim(),
      TEST_CLOCK_FILE: file,
    },
    async set(at) {
      fs.writeFileSync(file, String(at.getTime() - Date.now()));
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    },
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
