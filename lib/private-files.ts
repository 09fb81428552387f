import "server-only";
import fs from "node:fs";
import path from "node:path";
import { log } from "@/lib/log";

// What the app keeps on disk (the SQLite database with its -wal, -shm and -journal, the admin app's key
// file) is for the user the app runs as only: files 0600 in a folder 0700. A file or folder that
// already exists with looser modes (made by an older version, or by hand) is tightened at start-up,
// when it belongs to that user. A shared folder (sticky bit, like /tmp) is never changed.

const OWNER_ONLY = 0o700;
const GROUP_AND_OTHERS = 0o077;
const STICKY = 0o1000;

const octal = (mode: number) => `0${(mode & 0o7777).toString(8)}`;

function statOrUndefined(target: string): fs.Stats | undefined {
  try {
    return fs.statSync(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Takes group and other permissions off an existing file or folder of this process's user. */
function tighten(target: string): void {
  const stat = statOrUndefined(target);
  if (!stat || (stat.mode & GROUP_AND_OTHERS) === 0) return;
  const from = octal(stat.mode);
  const ours = process.getuid === undefined || stat.uid === process.getuid();
  if (!ours || (stat.isDirectory() && stat.mode & STICKY)) {
    log("warn", "left readable by other users", {
      path: target,
      mode: from,
      reason: ours ? "a shared folder: give the database a folder of its own" : "it belongs to another user",
    });
    return;
  }
  fs.chmodSync(target, stat.mode & OWNER_ONLY);
  log("warn", "permissions tightened: other users could read it", {
    path: target,
    from,
    to: octal(stat.mode & OWNER_ONLY),
  });
}

/** Creates the folder (and any missing parents) 0700, or tightens an existing one. */
export function privateFolder(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  tighten(dir);
}

/** Tightens the file if it exists; with `create`, a missing one is first created empty, 0600. */
export function privateFile(file: string, options: { create?: boolean } = {}): void {
  if (options.create) fs.closeSync(fs.openSync(file, "a", 0o600));
  tighten(file);
}

/**
 * The SQLite database's folder and files, before SQLite opens them. SQLite gives the -wal, -shm and
 * -journal it creates the database file's own mode, so a database created 0600 here keeps them 0600;
 * ones left by an older version are tightened.
 */
export function privateSqliteFiles(file: string): void {
  privateFolder(path.dirname(file));
  privateFile(file, { create: true });
  for (const suffix of ["-wal", "-shm", "-journal"]) privateFile(`${file}${suffix}`);
}
