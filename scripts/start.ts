// npm start — builds the app if the build is missing or older than the sources, then runs server.ts
// (migrate, seed an empty database, serve on HOST:PORT). It runs compiled, as dist/start.js with the
// server bundled in, under plain node: package.json compiles dist/ first when it is stale
// (scripts/build-server.mjs).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { config, ConfigError } from "@/lib/config";

const BUILD_ID = path.resolve(".next/BUILD_ID");
const SOURCES = [
  "app",
  "components",
  "lib",
  "public",
  "prisma",
  "next.config.mjs",
  "postcss.config.mjs",
  "tsconfig.json",
  "package-lock.json",
];

function newestChange(entry: string): number {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(entry).map((name) => newestChange(path.join(entry, name))));
}

function buildIsCurrent(): boolean {
  if (!fs.existsSync(BUILD_ID)) return false;
  const built = fs.statSync(BUILD_ID).mtimeMs;
  return SOURCES.every((source) => newestChange(source) <= built);
}

try {
  config(); // a bad setting stops here, in one line, before a minute of building
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}

if (!buildIsCurrent()) {
  console.log("Building the app (next build)…");
  const build = spawnSync(process.execPath, [path.resolve("node_modules/next/dist/bin/next"), "build"], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

await import("../server.ts");
