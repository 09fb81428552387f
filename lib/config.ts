import "server-only";
import path from "node:path";
import { z } from "zod";

// Configuration comes from environment variables only, validated once; a bad value stops the
// process with one line naming the variable (see ConfigError and its use in the entry points).

const baseUrl = z
  .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
  .refine((url) => url.replace(/\/+$/, "").endsWith("/v1"), "must end in the path segment /v1")
  .transform((url) => url.replace(/\/+$/, ""));

const envSchema = z.object({
  DATABASE_URL: z
    .string()
    .trim()
    .default("file:./data/animal-store.db")
    .refine(
      (url) => /^(file:|postgres(ql)?:\/\/)/.test(url),
      "must start with file: (SQLite) or postgres:// / postgresql:// (PostgreSQL)",
    ),
  PORT: z.coerce.number({ error: "must be a port number" }).int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default("127.0.0.1"),
  API_PRODUCTION_URL: baseUrl.default("https://api.animal-store.example/v1"),
  API_STAGING_URL: baseUrl.default("https://staging-api.animal-store.example/v1"),
  RATE_LIMIT_REQUESTS: z.coerce.number({ error: "must be a whole number, 0 or more" }).int().min(0).default(6000),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce
    .number({ error: "must be a whole number of seconds from 1 to 86400" })
    .int()
    .min(1)
    .max(86_400)
    .default(60),
  SQLITE_SYNCHRONOUS: z.enum(["normal", "full"], { error: 'must be "normal" or "full"' }).default("normal"),
  DEMO_SEED: z.enum(["on", "off"], { error: 'must be "on" or "off"' }).default("on"),
  CORS_ORIGINS: z
    .string()
    .default("")
    .transform((list) =>
      list
        .split(",")
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .refine(
      (origins) => origins.every((origin) => origin === "*" || /^https?:\/\/[^/]+$/.test(origin)),
      "must be * or a comma-separated list of origins like https://shop.example",
    ),
});

export type SqliteSynchronous = "normal" | "full";

export type DatabaseConfig =
  | { provider: "sqlite"; url: string; file: string; synchronous: SqliteSynchronous }
  | { provider: "postgresql"; url: string };

export type Config = Omit<z.infer<typeof envSchema>, "DATABASE_URL" | "SQLITE_SYNCHRONOUS"> & {
  database: DatabaseConfig;
};

export class ConfigError extends Error {}

/** Reads the environment; throws ConfigError with a one-line message naming the first bad variable. */
export function readConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "not set", as in most twelve-factor apps.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue.path[0] ?? "environment");
    // The value is echoed to help, except a URL's password.
    const got = (env[name] ?? "").replace(/\/\/([^:/@]*):[^@/]*@/, "//$1:***@");
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message} (got ${JSON.stringify(got)})`);
  }
  const { DATABASE_URL, SQLITE_SYNCHRONOUS, ...rest } = parsed.data;
  return { ...rest, database: databaseConfig(DATABASE_URL, SQLITE_SYNCHRONOUS) };
}

export function databaseConfig(url: string, synchronous: SqliteSynchronous = "normal"): DatabaseConfig {
  if (!url.startsWith("file:")) return { provider: "postgresql", url };
  const file = path.resolve(url.slice("file:".length));
  return { provider: "sqlite", url: `file:${file}`, file, synchronous };
}

let cached: Config | undefined;

/** The process's configuration, read on first use. */
export function config(): Config {
  cached ??= readConfig();
  return cached;
}
