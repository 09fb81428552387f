// Compiles the custom server and the command-line tools to plain JavaScript in dist/ (git-ignored), so
// that they run with `node`, without a TypeScript loader:
//   node scripts/build-server.mjs              compile (npm run build runs it after next build)
//   node scripts/build-server.mjs --if-stale   compile only when dist/ is missing or older than a source
// Our code (server.ts, scripts/, lib/, the /v1 route modules, the generated Prisma clients) is bundled,
// one self-contained file per entry; every npm package stays an import from node_modules. `server-only`
// is dropped: it only keeps modules out of Next's client bundles, and this code never reaches a browser
// (with it left in, plain node would need --conditions=react-server). Plain JavaScript on purpose: it
// runs before anything is compiled.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outDir = path.join(root, "dist");
const inputsFile = path.join(outDir, ".inputs.json"); // the files the last compile read; its mtime is the compile's
const entries = [
  "server.ts",
  "scripts/start.ts",
  "scripts/key.ts",
  "scripts/staff.ts",
  "scripts/webhook.ts",
  "scripts/db-migrate.ts",
  "scripts/db-reset-demo.ts",
  "scripts/db-diff.ts",
];
// Besides the bundled files: what changes how they compile or what they import from node_modules.
const alwaysInputs = ["scripts/build-server.mjs", "tsconfig.json", "package.json", "package-lock.json"];

/** @type {import("esbuild").Plugin} */
const dropServerOnly = {
  name: "drop-server-only",
  setup(build) {
    build.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "empty" }));
    build.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "", loader: "js" }));
  },
};

/** The files the last compile read. */
function lastInputs() {
  const inputs = /** @type {unknown} */ (JSON.parse(fs.readFileSync(inputsFile, "utf8")));
  return Array.isArray(inputs) ? inputs.map(String) : [];
}

/** Whether dist/ holds a compile newer than every file it was made from (a deleted input makes it stale). */
export function compileIsCurrent() {
  if (!fs.existsSync(inputsFile)) return false;
  const compiled = fs.statSync(inputsFile).mtimeMs;
  const inputs = [...lastInputs(), ...alwaysInputs];
  return inputs.every((input) => {
    const file = path.join(root, input);
    return fs.existsSync(file) && fs.statSync(file).mtimeMs <= compiled;
  });
}

export async function compile() {
  const esbuild = await import("esbuild"); // loaded only to compile: the server process never holds it
  // The compile counts as of its start: a source saved while it runs is newer, and compiled again next time.
  const startedAt = new Date();
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: entries.map((entry) => ({ in: entry, out: path.basename(entry, ".ts") })),
    outdir: outDir,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20", // the oldest Node in package.json's engines: the output runs on every supported one
    packages: "external", // bare imports stay imports; "@/…" is resolved through tsconfig paths and bundled
    plugins: [dropServerOnly],
    sourcemap: "linked", // for `node --enable-source-maps` when a stack trace should name the .ts lines
    legalComments: "none",
    metafile: true,
    logLevel: "warning",
  });
  fs.writeFileSync(path.join(outDir, "package.json"), '{ "type": "module" }\n');
  const inputs = Object.keys(result.metafile.inputs).filter((input) => !input.includes(":"));
  // Written last: it marks the compile done.
  fs.writeFileSync(inputsFile, `${JSON.stringify(inputs.sort(), null, 1)}\n`);
  fs.utimesSync(inputsFile, startedAt, startedAt);
  await esbuild.stop();
}

// Run as a command (not imported); through a symbolic link too.
if (process.argv[1] && fs.realpathSync(process.argv[1]) === fs.realpathSync(fileURLToPath(import.meta.url))) {
  if (!(process.argv.includes("--if-stale") && compileIsCurrent())) {
    const started = performance.now();
    await compile();
    console.error(`Compiled the server and the tools to dist/ in ${Math.round(performance.now() - started)} ms`);
  }
}
