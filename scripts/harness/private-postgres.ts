import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./servers";

// A PostgreSQL server of our own, in a temporary folder on a free port, that a scenario may stop and
// start again without disturbing the machine's shared server. PostgreSQL refuses to run as root, so
// when we are root its commands run as the `postgres` user.

function binaries(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!fs.existsSync(root)) return undefined;
  const version = fs.readdirSync(root).sort((a, b) => Number(b) - Number(a))[0];
  return version && path.join(root, version, "bin");
}

export function privatePostgresAvailable(): boolean {
  return binaries() !== undefined && (process.getuid?.() !== 0 || fs.existsSync("/usr/sbin/runuser"));
}

export type PrivatePostgres = { url: string; stop: () => void; start: () => void; destroy: () => void };

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binaries();
  if (!bin) throw new Error("PostgreSQL's server binaries are not installed (/usr/lib/postgresql/*/bin)");
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[]) =>
    execFileSync(
      asRoot ? "/usr/sbin/runuser" : path.join(bin, command),
      asRoot ? ["-u", "postgres", "--", path.join(bin, command), ...args] : args,
      { stdio: "pipe" },
    );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "animal-store-pg-"));
  if (asRoot) execFileSync("chown", ["postgres", dir]);
  const data = path.join(dir, "data");
  const port = await freePort();
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=on`;
  const start = () => run("pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "log"), "-w", "start"]);
  const stop = () => run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
  start();
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy: () => {
      try {
        stop();
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
