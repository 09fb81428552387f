// The test files of one pass as jobs run a few at a time: each node:test file is its own process, and the
// Playwright run is one more job beside them. A job's output is held until it ends and then printed whole, so
// that the log reads one file at a time however the jobs interleave; its time is printed with it.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** A job's totals, and the names of its failed tests (for the summary at the end of the log, which CI shows). */
export type Tally = { passed: number; failed: number; skipped: number; failures?: string[] };

export type Job = {
  title: string;
  args: string[];
  env?: Record<string, string>;
  /** Reads the job's totals once it has ended (a TAP file, a JSON report). */
  counts: (status: number) => Tally;
  /** Past this the job's processes are killed and it fails: a hang costs minutes, not the CI run's 90. */
  limitSeconds?: number;
};

/** A node:test file's limit: the slowest takes about two minutes on a slow machine. */
const DEFAULT_LIMIT_SECONDS = 10 * 60;

/**
 * Every process below `pid` (children first found by their parent id in /proc), then `pid` itself. Read whole
 * before any is killed: a process whose parent dies is moved under init and could no longer be found. Playwright
 * starts Chromium in a process group of its own, so a group kill would miss it; the parent links do not.
 */
function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree: number[] = [];
  const visit = (id: number) => {
    for (const child of children.get(id) ?? []) visit(child);
    tree.push(id);
  };
  visit(pid);
  return tree;
}

/** Kills a job with every process it started (a hung test file, a server it lost, Playwright's browsers). */
function killTree(pid: number): void {
  for (const id of processTree(pid)) {
    try {
      process.kill(id, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** The jobs running: killed with what they started if this process exits first (a failure, an interrupt). */
const running = new Set<number>();
process.once("exit", () => {
  for (const pid of running) killTree(pid);
});

export type JobResult = {
  title: string;
  status: number;
  seconds: number;
  /** CPU seconds (user and system) of the job's process and every process it waited for (its servers, browsers). */
  cpuSeconds: number;
  passed: number;
  failed: number;
  skipped: number;
  failures: string[];
};

/** The kernel's clock ticks a second (getconf CLK_TCK): 100 on every Linux build in use. */
const CLOCK_TICKS = 100;

/**
 * The CPU seconds of this process's children that have ended and been waited for (cutime and cstime of
 * /proc/self/stat), which a child's own waited-for children add to. Read as each job's process exits, the growth
 * since the last reading is that job's, but for another job that ended in the same instant (its share then goes to
 * the first read) and processes a job left behind unwaited (a killed job's servers): a guide, not an account.
 */
let reapedCpuSeconds = 0;
export function jobCpuSeconds(): number {
  const stat = fs.readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 16 and 17 of proc(5), counted from 1 with the pid first: here 13 and 14, after the name's ")".
  const total = (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS;
  const spent = total - reapedCpuSeconds;
  reapedCpuSeconds = total;
  return spent;
}

function runJob(job: Job, env: NodeJS.ProcessEnv): Promise<JobResult> {
  const since = performance.now();
  // In this process's group, so that an interrupt at the terminal reaches it (Playwright then closes its
  // browsers); past its limit it is killed with every process below it.
  const child = spawn(process.execPath, job.args, {
    env: { ...env, ...job.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const pid = child.pid!;
  running.add(pid);
  const limit = job.limitSeconds ?? DEFAULT_LIMIT_SECONDS;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killTree(pid);
  }, limit * 1000);
  const output: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => output.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => output.push(chunk));
  let cpuSeconds = 0;
  child.once("exit", () => (cpuSeconds = jobCpuSeconds()));
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      running.delete(pid);
      const status = code ?? (signal ? 1 : 0);
      const seconds = (performance.now() - since) / 1000;
      const counts = job.counts(status);
      const verdict = status === 0 && counts.failed === 0 && !timedOut ? "ok" : "FAILED";
      console.log(`\n▶ ${job.title}\n${Buffer.concat(output).toString("utf8").trimEnd()}`);
      if (timedOut) console.log(`✖ ${job.title} was still running after ${limit} s: killed`);
      console.log(`◀ ${job.title}: ${verdict} in ${seconds.toFixed(1)} s`);
      const failures = (counts.failures ?? []).map((name) => `${job.title} › ${name}`);
      if (timedOut) failures.push(`${job.title} (killed after ${limit} s)`);
      if (verdict === "FAILED" && !failures.length) failures.push(`${job.title} (exit status ${status})`);
      resolve({ title: job.title, status, seconds, cpuSeconds, ...counts, failures });
    });
  });
}

/** Runs the jobs in the given order, `slots` at a time; resolves with each one's result, in that order. */
export async function runJobs(jobs: Job[], slots: number, env: NodeJS.ProcessEnv): Promise<JobResult[]> {
  const results: JobResult[] = [];
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await runJob(jobs[index], env);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, slots) }, worker));
  return results;
}

/**
 * The totals of a node:test TAP report, with the name of each failed test and suite; a run that failed without a
 * failing test counts one failure.
 */
export function tapCounts(file: string, status: number): Tally {
  const report = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  const count = (what: string) => Number(new RegExp(`^# ${what} (\\d+)$`, "m").exec(report)?.[1] ?? 0);
  const failed = count("fail");
  const failures = [...report.matchAll(/^(\s*)not ok \d+ - (.*?)(?: # .*)?$/gm)].flatMap((match) => {
    const name = match[2].replaceAll("\\#", "#");
    const block = report.slice(match.index + match[0].length).split(new RegExp(`^${match[1]}  \\.\\.\\.$`, "m"))[0];
    if (block.includes("failureType: 'subtestsFailed'")) return [name];
    return [`${name}${failureDetail(block)}`];
  });
  return {
    passed: count("pass"),
    failed: failed + (status !== 0 && failed === 0 ? 1 : 0),
    skipped: count("skipped"),
    failures,
  };
}

/**
 * What a failed test's TAP block says of why, in one line for the summary CI shows: the start of its error and the
 * first place in a test file its stack names. The log above the summary has it whole.
 */
function failureDetail(block: string): string {
  const lines = block.split("\n");
  const start = lines.findIndex((line) => /^\s*error: /.test(line));
  if (start === -1) return "";
  const indent = /^(\s*)/.exec(lines[start])![1].length;
  const inline = lines[start].trim().slice("error: ".length);
  const error = inline === "|-" || inline === "|" ? [] : [inline.replace(/^'(.*)'$/, "$1")];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() && /^\s*/.exec(line)![0].length <= indent) break;
    if (line.trim()) error.push(line.trim());
  }
  const place = /\(?([^\s()]+\.test\.ts:\d+:\d+)\)?/.exec(block.slice(block.indexOf("stack:")))?.[1];
  return `${whyLine(error.join(" "))}${place ? `\n      at ${place}` : ""}`;
}

/** A failure's reason as one indented line under its name in the summary, cut at 400 characters; "" when none. */
export function whyLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line ? `\n      ${line.length > 400 ? `${line.slice(0, 400)}…` : line}` : "";
}

/** The node:test files, largest first: the longest jobs start first, so that none is left alone at the end. */
export function testFiles(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".test.ts"))
    .map((name) => path.join(dir, name))
    .sort((a, b) => fs.statSync(b).size - fs.statSync(a).size || a.localeCompare(b));
}

/**
 * One line a job, slowest first: where the time of a pass went, with the CPU it used (its processes' and those they
 * started, in seconds of one core): a job that used much less CPU than its time mostly waited.
 */
export function timingTable(results: JobResult[]): string {
  const width = Math.max(...results.map((result) => result.title.length));
  return [...results]
    .sort((a, b) => b.seconds - a.seconds)
    .map(
      (result) =>
        `  ${result.title.padEnd(width)}  ${result.seconds.toFixed(1).padStart(6)} s  ` +
        `CPU ${result.cpuSeconds.toFixed(1).padStart(6)} s  ` +
        `${result.passed} passed${result.failed ? `, ${result.failed} FAILED` : ""}`,
    )
    .join("\n");
}
