// The second pass of `npm test`: the node:test files again under a newer Node than the machines have (Node 26 LTS
// today), then the browser tests. That Node comes from the npm registry (the package node-<platform>-<arch> ships
// the binary and its headers), installed once into the user's cache folder, outside the project. The pass runs in
// a copy of the working tree with its own `npm install`: a native module (better-sqlite3) built for Node 20 cannot
// be loaded by Node 26, nor the reverse.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { jobCpuSeconds } from "./jobs.ts";

/**
 * The Node release of the second pass: the one place its version is named. Node 26, not 24: from 24.19.0 on (24.21.0
 * included) V8 collecting a better-sqlite3 12 database aborts the process (nodejs/node#65446); 26.12.1 does not.
 */
export const SECOND_NODE_VERSION = "26.12.1";

/** A pass's totals, and the names of what failed in it (each prefixed by its test file or job). */
export type Counts = { node: string; passed: number; failed: number; skipped: number; failures?: string[] };

/** The machine's npm, run by whichever node runs it (npm itself is plain JavaScript). */
function npmCli(): string {
  const fromNpm = process.env.npm_execpath;
  if (fromNpm?.endsWith("npm-cli.js")) return fromNpm;
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const npm = path.join(dir, "npm");
    if (dir && fs.existsSync(npm)) return fs.realpathSync(npm);
  }
  throw new Error("npm is not on PATH");
}

/**
 * The environment without what npm sets for the script it runs (`npm test` of this project): left in, a nested
 * npm would take the parent's package and prefix for its own.
 */
function withoutParentNpm(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const parentOnly =
    /^(npm_package_|npm_lifecycle_|npm_(command|execpath|node_execpath)$|npm_config_(local_prefix|user_agent)$)/;
  const rest = { ...env };
  for (const name of Object.keys(rest))
    if (parentOnly.test(name) || name === "INIT_CWD" || name === "NODE") delete rest[name];
  return rest;
}

function versionOf(bin: string): string | undefined {
  if (!fs.existsSync(bin)) return undefined;
  return spawnSync(bin, ["--version"], { encoding: "utf8" }).stdout?.trim();
}

/** Runs a command to its end with its output appended to the file `log`; resolves to its exit status. */
function runLogged(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }, log: string) {
  const output = fs.openSync(log, "a");
  const child = spawn(command, args, { ...options, stdio: ["ignore", output, output] });
  child.once("exit", () => jobCpuSeconds()); // its CPU is not the next test job's (scripts/harness/jobs.ts)
  return new Promise<number>((resolve) => {
    child.on("error", (error) => {
      fs.appendFileSync(log, `${String(error)}\n`);
      resolve(1);
    });
    child.on("close", (status) => resolve(status ?? 1));
  }).finally(() => fs.closeSync(output));
}

/**
 * The second Node in `<cache>/animal-store-service/node-<version>/`, installed from the npm registry when missing,
 * its npm output appended to `log`. Returns the package folder: `bin/node`, and `include/node` for node-gyp. Two runs
 * installing at once each install into their own staging folder; the first rename wins.
 */
async function installSecondNode(log: string): Promise<string> {
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  const toolDir = path.join(cache, "animal-store-service", `node-${SECOND_NODE_VERSION}`);
  const name = `node-${process.platform}-${process.arch}`;
  const packageDir = path.join(toolDir, "node_modules", name);
  const bin = path.join(packageDir, "bin", "node");
  const wanted = `v${SECOND_NODE_VERSION}`;
  if (versionOf(bin) === wanted) return packageDir;

  fs.appendFileSync(log, `install Node ${SECOND_NODE_VERSION} (npm package ${name}) into ${toolDir}\n`);
  const staging = `${toolDir}.partial-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  const args = ["install", "--prefix", staging, "--no-save", "--no-package-lock", "--no-audit", "--no-fund"];
  const status = await runLogged(
    process.execPath,
    [npmCli(), ...args, `${name}@${SECOND_NODE_VERSION}`],
    { cwd: staging, env: withoutParentNpm(process.env) },
    log,
  );
  if (status !== 0) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw new Error(`npm install ${name}@${SECOND_NODE_VERSION} failed`);
  }
  if (versionOf(bin) !== wanted) fs.rmSync(toolDir, { recursive: true, force: true }); // a broken one
  try {
    fs.renameSync(staging, toolDir);
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    if (versionOf(bin) !== wanted) throw error; // not another run's install that got there first
  }
  return packageDir;
}

/** The second pass made ready: its Node, and a copy of the working tree with that Node's `npm install` done. */
export type SecondNode = { packageDir: string; copy: string; scratch: string; installSeconds: number };

/** The end of a log, for an error message. */
function tailOf(log: string): string {
  const text = fs.existsSync(log) ? fs.readFileSync(log, "utf8") : "";
  return text.trimEnd().split("\n").slice(-40).join("\n");
}

/**
 * Installs the second Node, copies the working tree into a scratch folder and runs `npm install` there under that
 * Node, all output in the scratch folder's prepare.log. `npm test` starts this before the first pass's checks and
 * build, which leave a core idle most of the time: better-sqlite3's compile for the second Node fills it. The
 * folder is removed when this process exits, however it exits; when a step fails, at once, and the rejection's
 * message carries the end of the log.
 */
export async function prepareSecondNode(root: string, env: NodeJS.ProcessEnv): Promise<SecondNode> {
  const since = performance.now();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "animal-store-second-node-"));
  process.on("exit", () => {
    try {
      // Retried: the install, just told to end (npmUnder), may still be writing into it.
      fs.rmSync(scratch, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
    } catch (error) {
      console.error(`could not remove ${scratch}: ${String(error)}`);
    }
  });
  const copy = path.join(scratch, "project");
  const log = path.join(scratch, "prepare.log");
  fs.writeFileSync(log, "");
  try {
    const packageDir = await installSecondNode(log);
    copyWorkingTree(root, copy);
    fs.appendFileSync(log, `npm install under Node ${SECOND_NODE_VERSION}, in ${copy}\n`);
    const installed = await npmUnder(packageDir, copy, ["install"], env, log);
    if (installed !== 0) throw new Error(`npm install under Node ${SECOND_NODE_VERSION} exited with ${installed}`);
    return { packageDir, copy, scratch, installSeconds: (performance.now() - since) / 1000 };
  } catch (error) {
    const message = `${String(error)}; the end of its log:\n${tailOf(log)}`;
    fs.rmSync(scratch, { recursive: true, force: true });
    throw new Error(message);
  }
}

/**
 * Copies the working tree as git sees it — tracked files and untracked ones not ignored, uncommitted changes
 * included — into the folder `copy`. Ignored files (node_modules/, .next/, dist/, data/, the generated clients)
 * are not copied: the pass installs and builds its own.
 */
function copyWorkingTree(root: string, copy: string): void {
  const listed = spawnSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr || listed.error?.message}`);
  for (const file of new Set(listed.stdout.split("\0").filter(Boolean))) {
    const from = path.join(root, file);
    const to = path.join(copy, file);
    const stat = fs.lstatSync(from, { throwIfNoEntry: false });
    if (!stat) continue; // tracked but deleted in the working tree
    fs.mkdirSync(path.dirname(to), { recursive: true });
    if (stat.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(from), to);
    else fs.copyFileSync(from, to);
  }
}

/**
 * Runs `npm <args>` under the given Node in `cwd`, as its own process group: an interrupt or a termination of
 * this process reaches the whole tree (servers, browsers) and is then passed on. Its output goes to this
 * process's, or is appended to the file `log`: then it runs in the background of other work, and the group is also
 * ended when this process exits. Resolves to the exit status.
 */
export function npmUnder(
  packageDir: string,
  cwd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  log?: string,
): Promise<number> {
  const bin = path.join(packageDir, "bin");
  const output = log === undefined ? undefined : fs.openSync(log, "a");
  const child = spawn(path.join(bin, "node"), [npmCli(), ...args], {
    cwd,
    stdio: output === undefined ? "inherit" : ["ignore", output, output],
    detached: true,
    env: {
      ...withoutParentNpm(env),
      PATH: `${bin}${path.delimiter}${env.PATH ?? ""}`, // `node` in npm's scripts and in #! lines is this Node
      npm_config_nodedir: packageDir, // node-gyp builds against this Node's headers, not the npmrc's
    },
  });
  child.once("exit", () => jobCpuSeconds()); // its CPU is not the next test job's (scripts/harness/jobs.ts)
  const background = output !== undefined;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      // the group has already exited
    }
  };
  const endGroup = () => signalGroup("SIGTERM");
  process.on("SIGINT", signalGroup);
  process.on("SIGTERM", signalGroup);
  if (background) process.prependListener("exit", endGroup); // before the folder it works in is removed
  return new Promise((resolve) => {
    child.on("error", (error) => {
      console.error(error);
      resolve(1);
    });
    child.on("close", (status, signal) => {
      if (output !== undefined) fs.closeSync(output);
      process.off("SIGINT", signalGroup);
      process.off("SIGTERM", signalGroup);
      process.off("exit", endGroup);
      resolve(status ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1));
    });
  });
}
