import "server-only";
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import net from "node:net";
import { config } from "@/lib/config";

// Who is on the other end of a request: the client's address, and the scheme and host the browser
// used. The server (server.ts) works this out once per request from the socket and, only when the
// socket's peer is one of TRUSTED_PROXIES, from the X-Forwarded-For, -Proto and -Host headers that proxy
// sent. It then replaces whatever forwarded headers arrived with its own conclusions and marks the
// request with this process's secret, so code further in (Next's route handlers, proxy.ts) reads facts,
// never a client's claim. A request without the mark (under plain `next start`, or built in-process)
// has no known client address and only its own URL and Host to go on.

export type Forwarded = { address: string; scheme: "http" | "https"; host: string | undefined };

/** HSTS for every answer given over HTTPS: pages (proxy.ts) and endpoints (lib/http/api-route.ts) alike. */
export const STRICT_TRANSPORT_SECURITY = "max-age=31536000; includeSubDomains";

/** What the app says when it cannot know a client's address. */
export const UNKNOWN_ADDRESS = "unknown";

const MARK = "x-animal-store-edge";
/** The headers server.ts replaces with its own conclusions, whatever a client sent as them. */
const REPLACED = ["x-forwarded-for", "x-forwarded-proto", "x-forwarded-host", MARK];
const holder = globalThis as typeof globalThis & { __animalStoreEdgeSecret?: string };

/** The secret marking requests whose forwarded headers server.ts wrote; shared by every bundle of the process. */
function edgeSecret(): string {
  holder.__animalStoreEdgeSecret ??= randomUUID();
  return holder.__animalStoreEdgeSecret;
}

let trusted: { list: net.BlockList; key: string } | undefined;

/** TRUSTED_PROXIES as a BlockList (Node's own matcher of addresses and CIDR ranges). */
function trustedProxies(entries: string[]): net.BlockList {
  const key = entries.join(",");
  if (trusted?.key === key) return trusted.list;
  const list = new net.BlockList();
  for (const entry of entries) {
    const [address, bits] = entry.split("/");
    const family = net.isIP(address) === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  trusted = { list, key };
  return list;
}

/** An address as the socket or a header gives it, or undefined when it is not an IP address. */
function normalise(address: string | undefined): string | undefined {
  let candidate = address?.trim() ?? "";
  if (candidate.startsWith("[") && candidate.includes("]")) candidate = candidate.slice(1, candidate.indexOf("]"));
  else if (net.isIPv4(candidate.split(":")[0]) && candidate.split(":").length === 2)
    candidate = candidate.split(":")[0];
  if (candidate.toLowerCase().startsWith("::ffff:") && net.isIPv4(candidate.slice(7))) candidate = candidate.slice(7);
  return net.isIP(candidate) ? candidate.toLowerCase() : undefined;
}

/**
 * Whether an address is among the trusted proxies. BlockList.check makes a SocketAddress object of its argument on
 * each call, a cost every request paid (docs/performance.md, request cost): answers are kept per list, for the
 * addresses a server meets again and again (its proxies, its clients), a bounded number of them.
 */
const MAX_REMEMBERED_ADDRESSES = 1024;
const remembered = new WeakMap<net.BlockList, Map<string, boolean>>();

function isTrusted(list: net.BlockList, address: string): boolean {
  let answers = remembered.get(list);
  if (!answers) remembered.set(list, (answers = new Map<string, boolean>()));
  let answer = answers.get(address);
  if (answer === undefined) {
    answer = list.check(address, net.isIPv6(address) ? "ipv6" : "ipv4");
    if (answers.size >= MAX_REMEMBERED_ADDRESSES) answers.clear();
    answers.set(address, answer);
  }
  return answer;
}

/** The first value of a header (Host), or with `nearest` the last: the one the closest proxy added. */
function single(value: string | string[] | undefined, nearest = false): string | undefined {
  const text = Array.isArray(value) ? value.join(",") : value;
  const values = text?.split(",") ?? [];
  return (nearest ? values.at(-1) : values[0])?.trim() || undefined;
}

/**
 * The client behind a connection. X-Forwarded-For is read from the right: each hop a trusted proxy
 * added is skipped, and the first address no trusted proxy vouches for is the client's. Proto and Host
 * are taken from a trusted proxy only.
 */
export function resolveForwarded(
  socketAddress: string | undefined,
  headers: IncomingMessage["headers"],
  trustedEntries: string[],
): Forwarded {
  const peer = normalise(socketAddress) ?? UNKNOWN_ADDRESS;
  const list = trustedProxies(trustedEntries);
  const host = single(headers.host);
  if (peer === UNKNOWN_ADDRESS || !isTrusted(list, peer)) return { address: peer, scheme: "http", host };

  const hops = (
    Array.isArray(headers["x-forwarded-for"])
      ? headers["x-forwarded-for"].join(",")
      : (headers["x-forwarded-for"] ?? "")
  )
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  let address = peer;
  for (let index = hops.length - 1; index >= 0; index--) {
    const hop = normalise(hops[index]);
    if (!hop) break; // not an address: nothing to its left can be believed
    address = hop;
    if (!isTrusted(list, hop)) break;
  }
  const proto = single(headers["x-forwarded-proto"], true)?.toLowerCase();
  return {
    address,
    scheme: proto === "https" ? "https" : "http",
    host: single(headers["x-forwarded-host"], true) ?? host,
  };
}

/**
 * Called by server.ts on every request before anything reads it: replaces the forwarded headers with
 * what was concluded, and marks the request as concluded by this process.
 */
export function stampForwarded(request: IncomingMessage): void {
  const forwarded = resolveForwarded(request.socket.remoteAddress, request.headers, config().TRUSTED_PROXIES);
  const concluded: Record<string, string> = {
    "x-forwarded-for": forwarded.address,
    "x-forwarded-proto": forwarded.scheme,
    ...(forwarded.host ? { "x-forwarded-host": forwarded.host } : {}),
    [MARK]: edgeSecret(),
  };
  for (const name of REPLACED) delete request.headers[name];
  Object.assign(request.headers, concluded);
  // The Web Request the /v1 and sign-in listeners build is made from rawHeaders once its body is read
  // (@hono/node-server): both views must say the same, or a chunked request would lose the mark.
  const raw: string[] = [];
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    if (!REPLACED.includes(request.rawHeaders[index].toLowerCase()))
      raw.push(request.rawHeaders[index], request.rawHeaders[index + 1]);
  }
  for (const [name, value] of Object.entries(concluded)) raw.push(name, value);
  request.rawHeaders.splice(0, request.rawHeaders.length, ...raw);
}

function stamped(headers: Headers): boolean {
  return headers.get(MARK) === holder.__animalStoreEdgeSecret && holder.__animalStoreEdgeSecret !== undefined;
}

/** The client's address: what server.ts concluded, or "unknown". */
export function clientAddress(request: { headers: Headers }): string {
  return (stamped(request.headers) && request.headers.get("x-forwarded-for")) || UNKNOWN_ADDRESS;
}

/** The scheme the browser used: PUBLIC_ORIGIN's when set, else what server.ts concluded, else the URL's. */
export function requestScheme(request: { headers: Headers; url: string }): "http" | "https" {
  const publicOrigin = config().PUBLIC_ORIGIN;
  if (publicOrigin) return publicOrigin.startsWith("https:") ? "https" : "http";
  if (stamped(request.headers)) return request.headers.get("x-forwarded-proto") === "https" ? "https" : "http";
  return new URL(request.url).protocol === "https:" ? "https" : "http";
}

/** The host the browser addressed: what server.ts concluded, else the Host header. */
export function requestHost(request: { headers: Headers; url: string }): string {
  const host = stamped(request.headers) ? request.headers.get("x-forwarded-host") : request.headers.get("host");
  return (host ?? new URL(request.url).host).toLowerCase();
}
