// Generates the Prisma client of each provider (postinstall). `prisma generate` does not run the schema
// engine, but the CLI insists on finding one and would download it: point it at a placeholder instead.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const env = { ...process.env };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) {
  const placeholder = path.resolve("node_modules/.cache/animal-store/schema-engine-placeholder");
  fs.mkdirSync(path.dirname(placeholder), { recursive: true });
  fs.writeFileSync(placeholder, "#!/bin/sh\nexit 1\n", { mode: 0o755 });
  env.PRISMA_SCHEMA_ENGINE_BINARY = placeholder;
}
for (const provider of ["sqlite", "postgresql"]) {
  execFileSync(
    process.execPath,
    [path.resolve("node_modules/prisma/build/index.js"), "generate", "--schema", `prisma/${provider}`],
    { env, stdio: "inherit" },
  );
}
