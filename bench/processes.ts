import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { LoadResult, LoadSpec } from "@/bench/load";

// The child processes of the benchmark: servers, the key tool, builds and load generators. Every one
// is recorded here, so that stopAll() can stop each by its pid, on success and on error alike.

const running = new Set<ChildProcess>();
// The working directory of every child: server.ts serves Next from it.
const ROOT = path.resolve(import.meta.dirname, "..");
const LOG_LINES = 40;

export type Server = {
  name: string;
  child: ChildProcess;
  pid: number;
  url: string;
  /** The last lines the server wrote, for the error message when it fails. */
  log: string[];
};

export type Startup = { listeningMs: number; firstOkMs: number; idleRssMb: number };

function track(child: ChildProcess): ChildProcess {
  running.add(child);
  child.once("exit", () => running.delete(child));
  return child;
}

function keepLastLines(child: ChildProcess, log: string[], onLine?: (line: string) => void): void {
  for (const stream of [child.stdout, child.stderr]) {
    let partial = "";
    stream?.setEncoding("utf8").on("data", (text: string) => {
      const lines = (partial + text).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) {
        log.push(line);
        if (log.length > LOG_LINES) log.shift();
        onLine?.(line);
      }
    });
  }
}

/**
 * Runs a node script to the end and returns its stdout; throws with its output when it fails. `input` is written to
 * its standard input; `cwd` is the project's folder unless given.
 */
export async function runNode(
  args: string[],
  env: Record<string, string> = {},
  inherit = false,
  options: { cwd?: string; input?: string } = {},
): Promise<string> {
  const child = track(
    spawn(process.execPath, args, {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, ...env },
      stdio: inherit ? ["ignore", 2, 2] : "pipe",
    }),
  );
  child.stdin?.end(options.input ?? "");
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (text: string) => (stdout += text));
  child.stderr?.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", resolve);
  });
  if (code !== 0) throw new Error(`node ${args.join(" ")} exited with ${code}\n${stdout}${stderr}`.trim());
  return stdout;
}

/** Starts a server and waits for the line that names its URL (`listening on http://…` or Next's `Local: http://…`). */
export async function startServer(
  name: string,
  args: string[],
  env: Record<string, string>,
  cwd = ROOT,
): Promise<Server> {
  const log: string[] = [];
  const child = track(spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: "pipe" }));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 60 s`)), 60_000);
    keepLastLines(child, log, (line) => {
      const match = /(?:listening on|Local:)\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before listening:\n${log.join("\n")}`));
    });
  });
  return { name, child, pid: child.pid ?? 0, url, log };
}

/** Waits until GET url answers 200; returns when it did. */
export async function waitForOk(url: string, headers: Record<string, string>, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const response = await fetch(url, { headers }).catch(() => undefined);
    await response?.arrayBuffer();
    if (response?.status === 200) return;
    if (performance.now() > deadline)
      throw new Error(`${url} did not answer 200 within ${timeoutMs} ms (last: ${response?.status})`);
    await sleep(5);
  }
}

/**
 * Starts a server and measures its start-up: to the listening line, to the first 200 on `path`, idle RSS after.
 * `cwd`: the folder of the build it serves (the project's own unless given).
 */
export async function startMeasured(
  name: string,
  args: string[],
  env: Record<string, string>,
  path: string,
  headers: Record<string, string>,
  cwd?: string,
): Promise<{ server: Server; startup: Startup }> {
  const started = performance.now();
  const server = await startServer(name, args, env, cwd);
  const listeningMs = performance.now() - started;
  await waitForOk(`${server.url}${path}`, headers);
  const firstOkMs = performance.now() - started;
  await sleep(1000);
  return { server, startup: { listeningMs, firstOkMs, idleRssMb: memoryMb(server.pid, "VmRSS") } };
}

/** Throws, with the server's last lines, when it is no longer running. */
export function assertRunning(server: Server): void {
  const { exitCode, signalCode } = server.child;
  if (exitCode !== null || signalCode !== null) {
    const lastLines = server.log.join("\n");
    throw new Error(
      `${server.name} (pid ${server.pid}) exited with ${exitCode ?? signalCode}; its last lines:\n${lastLines}`,
    );
  }
}

/** A memory figure of a live process from /proc/<pid>/status, in MiB: VmRSS now, or VmHWM (peak RSS). */
export function memoryMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** Stops one child by its pid: SIGTERM, then SIGKILL if it is still running after the grace period. */
export async function stop(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  process.kill(child.pid, "SIGTERM");
  const timer = setTimeout(
    () => child.pid !== undefined && child.exitCode === null && process.kill(child.pid, "SIGKILL"),
    graceMs,
  );
  await exited;
  clearTimeout(timer);
}

/** Stops every child still running. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((child) => stop(child).catch(() => {})));
}

/** One autocannon run from its own process (bench/load.ts). */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const stdout = await runNode(["--import", "tsx", path.join(ROOT, "bench/load.ts"), JSON.stringify(spec)]);
  return JSON.parse(stdout.trim().split("\n").pop() ?? "") as LoadResult;
}
