import "server-only";
import net from "node:net";
import path from "node:path";
import { z } from "zod";

// Configuration comes from environment variables only, validated once; a bad value stops the
// process with one line naming the variable (see ConfigError and its use in the entry points).

const baseUrl = z
  .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
  .refine((url) => url.replace(/\/+$/, "").endsWith("/v1"), "must end in the path segment /v1")
  .transform((url) => url.replace(/\/+$/, ""));

/** A comma-separated setting as its entries, trimmed, empty ones dropped; unset is an empty list. */
function commaList() {
  return z
    .string()
    .default("")
    .transform((list) =>
      list
        .split(",")
        .map((entry) => entry.trim())
        .filter(Boolean),
    );
}

const SCHEDULE_ERROR = "must be comma-separated whole numbers of seconds, each from 0 to 604800 (a week)";

/** The environment variables; each one's description is its line in docs/operators.md (scripts/generate-docs.ts). */
export const envSchema = z.object({
  DATABASE_URL: z
    .string()
    .trim()
    .default("file:./data/animal-store.db")
    .refine(
      (url) => /^(file:|postgres(ql)?:\/\/)/.test(url),
      "must start with file: (SQLite) or postgres:// / postgresql:// (PostgreSQL)",
    )
    .describe("`file:<path>` for SQLite (relative to the working directory), `postgresql://…` for PostgreSQL"),
  PORT: z.coerce
    .number({ error: "must be a port number" })
    .int()
    .min(0)
    .max(65535)
    .default(3000)
    .describe("port to listen on (`0` picks a free one)"),
  HOST: z
    .string()
    .trim()
    .min(1)
    .default("127.0.0.1")
    .describe("address to listen on; `0.0.0.0` to serve other machines"),
  API_PRODUCTION_URL: baseUrl
    .default("https://api.animal-store.example/v1")
    .describe("production base address in the OpenAPI document (must end in `/v1`)"),
  API_STAGING_URL: baseUrl
    .default("https://staging-api.animal-store.example/v1")
    .describe("staging base address in the OpenAPI document (must end in `/v1`)"),
  RATE_LIMIT_REQUESTS: z.coerce
    .number({ error: "must be a whole number, 0 or more" })
    .int()
    .min(0)
    .default(6000)
    .describe(
      "requests each API key, and each staff member in the admin app, may make per window; `0` turns rate limiting off",
    ),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce
    .number({ error: "must be a whole number of seconds from 1 to 86400" })
    .int()
    .min(1)
    .max(86_400)
    .default(60)
    .describe("the window of the rate limit"),
  SQLITE_SYNCHRONOUS: z
    .enum(["normal", "full"], { error: 'must be "normal" or "full"' })
    .default("normal")
    .describe(
      "`normal` or `full`: how a SQLite commit reaches the disk (see [Database and " +
        "migrations](#database-and-migrations))",
    ),
  DEMO_SEED: z
    .enum(["on", "off"], { error: 'must be "on" or "off"' })
    .default("on")
    .describe(
      "`on` or `off`; `off` keeps an empty database empty at start-up (no demo catalogue, no demo " +
        "staff account); the demo staff account is made on loopback only (see below)",
    ),
  // How many days the activity log keeps a record; 0 keeps every record for ever (lib/housekeeping.ts).
  AUDIT_RETENTION_DAYS: z.coerce
    .number({ error: "must be a whole number of days, 0 (keep everything) or more" })
    .int({ error: "must be a whole number of days, 0 (keep everything) or more" })
    .min(0, { error: "must be a whole number of days, 0 (keep everything) or more" })
    .max(36_500, { error: "must be at most 36500 days (100 years); 0 keeps everything" })
    .default(0)
    .describe(
      "days the activity log keeps a record; `0` keeps every record; housekeeping deletes older " +
        "ones (see [Sizing the activity log](#sizing-the-activity-log))",
    ),
  // How long a placed order holds its pet before it expires (lib/orders/store.ts).
  ORDER_HOLD_SECONDS: z.coerce
    .number({ error: "must be a whole number of seconds, from 1 to 31536000 (a year)" })
    .int({ error: "must be a whole number of seconds, from 1 to 31536000 (a year)" })
    .min(1, { error: "must be a whole number of seconds, from 1 to 31536000 (a year)" })
    .max(31_536_000, { error: "must be a whole number of seconds, from 1 to 31536000 (a year)" })
    .default(172_800)
    .describe(
      "seconds a placed order holds its pet (pending) before it expires and the pet is available again, " +
        "unless it is approved, delivered or cancelled first; the default is two days. Every instance on one " +
        "database must have the same value",
    ),
  EVENT_RETENTION_DAYS: z.coerce
    .number({ error: "must be a whole number of days, from 1 to 36500" })
    .int({ error: "must be a whole number of days, from 1 to 36500" })
    .min(1, { error: "must be a whole number of days, from 1 to 36500" })
    .max(36_500, { error: "must be a whole number of days, from 1 to 36500" })
    .default(30)
    .describe(
      "days the events feed (`GET /v1/events`) keeps an event; housekeeping deletes older ones, oldest first. A " +
        "follower away for longer starts again from the oldest kept",
    ),
  // Webhook deliveries (lib/webhooks): when a failed attempt is tried again, and whether private addresses may be
  // endpoints.
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default("0,5,300,1800,7200,18000,36000,36000")
    .transform((list) => list.split(",").map((entry) => entry.trim()))
    .pipe(
      z
        .array(
          z
            .string()
            .regex(/^\d{1,6}$/, { error: SCHEDULE_ERROR })
            .transform(Number)
            .refine((seconds) => seconds <= 604_800, { error: SCHEDULE_ERROR }),
        )
        .min(1, { error: "must name at least one attempt" })
        .max(20, { error: "must name at most 20 attempts" }),
    )
    .describe(
      "comma-separated seconds to wait before each attempt of a webhook delivery (the first is after the event); " +
        "default the Standard Webhooks schedule `0,5,300,1800,7200,18000,36000,36000`; after the last, the " +
        "delivery is marked failed",
    ),
  WEBHOOK_LEASE_SECONDS: z.coerce
    .number({ error: "must be a whole number of seconds, from 15 to 3600" })
    .int({ error: "must be a whole number of seconds, from 15 to 3600" })
    .min(15, { error: "must be a whole number of seconds, from 15 to 3600" })
    .max(3600, { error: "must be a whole number of seconds, from 15 to 3600" })
    .default(60)
    .describe(
      "seconds an instance holds a webhook delivery it is sending (an attempt gives up after 10); if the instance " +
        "dies mid-attempt, another (or the same, restarted) sends it again once this has passed",
    ),
  WEBHOOK_ALLOW_PRIVATE_URLS: z
    .enum(["on", "off"], { error: 'must be "on" or "off"' })
    .default("off")
    .describe(
      "`on` lets webhook endpoints be loopback, private, link-local and other non-public addresses (development " +
        "and tests only: `off` keeps webhooks from being a door into your network)",
    ),
  CORS_ORIGINS: commaList()
    .refine(
      (origins) => origins.every((origin) => origin === "*" || /^https?:\/\/[^/]+$/.test(origin)),
      "must be * or a comma-separated list of origins like https://shop.example",
    )
    .describe("origins whose browsers may call `/v1` (comma-separated, or `*`)"),
  PUBLIC_ORIGIN: z
    .string()
    .trim()
    .transform((origin) => origin.replace(/\/$/, ""))
    .refine(
      (origin) =>
        URL.canParse(origin) && /^https?:$/.test(new URL(origin).protocol) && new URL(origin).origin === origin,
      "must be the origin browsers use, scheme and host (and port) only, like https://store.example",
    )
    .optional()
    .describe(
      "the origin staff use, e.g. `https://store.example`; admin writes must come from it, and " +
        "`https` makes the cookie `__Host-` and `Secure` (see [Behind a " +
        "proxy](#behind-a-proxy-the-tested-nginx-recipe))",
    ),
  TRUSTED_PROXIES: commaList()
    .refine(
      (entries) => entries.every(isAddressOrRange),
      "must be a comma-separated list of IP addresses or CIDR ranges, like 127.0.0.1,10.0.0.0/8",
    )
    .describe(
      "addresses or CIDR ranges of the proxies whose `X-Forwarded-For`, `-Proto` and `-Host` are " +
        "believed; from anyone else they are ignored",
    ),
  // The bearer token Prometheus sends to GET /metrics; unset, there is no /metrics. A token is RFC 6750's
  // b64token, so it fits an Authorization header as it is; 16 characters or more, so it cannot be guessed.
  METRICS_TOKEN: z
    .string()
    .regex(
      /^[A-Za-z0-9._~+/-]{16,}=*$/,
      "must be a bearer token of at least 16 characters from A-Z a-z 0-9 - . _ ~ + / (openssl rand -hex 32 makes one)",
    )
    .optional()
    .describe(
      "bearer token for `GET /metrics` (16+ characters); unset, there is no `/metrics` (see [Metrics](#metrics))",
    ),
});

/** Variables whose value a configuration error never repeats. */
const SECRETS = new Set(["METRICS_TOKEN"]);

/** An IP address, or a CIDR range such as 10.0.0.0/8 or fd00::/8. */
function isAddressOrRange(entry: string): boolean {
  const [address, bits, ...rest] = entry.split("/");
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

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
    // The value is echoed to help, except a URL's password and a secret.
    const value = env[name] ?? "";
    const got = SECRETS.has(name)
      ? `${value.length} characters`
      : JSON.stringify(value.replace(/\/\/([^:/@]*):[^@/]*@/, "//$1:***@"));
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message} (got ${got})`);
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

function isLoopback(host: string): boolean {
  const name = host.replace(/^\[|\]$/g, "").toLowerCase();
  return name === "localhost" || name === "::1" || (net.isIPv4(name) && name.startsWith("127."));
}

/**
 * Whether other machines can reach this instance: it listens beyond loopback, sits behind a proxy, or
 * has a public origin that is not this machine. Such an instance never gets a well-known demo account.
 */
export function reachableFromOtherMachines(settings: Config): boolean {
  const publicHost = settings.PUBLIC_ORIGIN ? new URL(settings.PUBLIC_ORIGIN).hostname : undefined;
  return (
    !isLoopback(settings.HOST) ||
    settings.TRUSTED_PROXIES.length > 0 ||
    (publicHost !== undefined && !isLoopback(publicHost))
  );
}
