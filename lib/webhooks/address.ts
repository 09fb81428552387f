import "server-only";
import dns from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";
import { config } from "@/lib/config";

// Webhooks must not be a door into the store's own network: an endpoint's host may resolve only to public unicast
// addresses. Checked when the endpoint is made (a clear refusal for the admin) and again on every connection, on
// the addresses the connection then uses (a name that resolved to a public address at creation can point at
// 127.0.0.1 today: DNS rebinding). WEBHOOK_ALLOW_PRIVATE_URLS=on turns the check off, for development and tests.

/** The longest endpoint URL kept. */
export const MAX_URL_LENGTH = 2048;

export class UnsafeUrl extends Error {}

/** Why an address may not be a webhook's, or undefined when it is a public unicast one. */
export function refusedAddress(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return "not an IP address";
  // An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as the IPv4 address it is.
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  return range === "unicast" ? undefined : `a ${range} address, not a public one`;
}

function privateAllowed(): boolean {
  return config().WEBHOOK_ALLOW_PRIVATE_URLS === "on";
}

/** The URL's host as DNS or an address literal names it (no IPv6 brackets). */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/**
 * Checks an endpoint URL as it is made: http or https, no user name or password, and (unless private addresses are
 * allowed) a host whose every address is public. Throws UnsafeUrl saying why not.
 */
export async function checkEndpointUrl(text: string): Promise<URL> {
  if (text.length > MAX_URL_LENGTH) throw new UnsafeUrl(`The URL is longer than ${MAX_URL_LENGTH} characters.`);
  if (!URL.canParse(text)) throw new UnsafeUrl("The URL is not a valid absolute URL.");
  const url = new URL(text);
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new UnsafeUrl(`Only http and https URLs can be endpoints, not ${url.protocol.replace(/:$/, "")}.`);
  if (url.username || url.password) throw new UnsafeUrl("The URL may not carry a user name or password.");
  if (url.hash) throw new UnsafeUrl("The URL may not have a fragment (#…).");
  if (privateAllowed()) return url;
  const host = hostOf(url);
  const addresses = net.isIP(host)
    ? [host]
    : await dns.promises.lookup(host, { all: true, verbatim: true }).then(
        (found) => found.map(({ address }) => address),
        () => {
          throw new UnsafeUrl(`The host ${host} does not resolve.`);
        },
      );
  for (const address of addresses) {
    const why = refusedAddress(address);
    if (why)
      throw new UnsafeUrl(
        host === address ? `Refused: ${host} is ${why}.` : `Refused: ${host} resolves to ${address}, ${why}.`,
      );
  }
  return url;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http.request that refuses a host resolving to any non-public address, so that the connection
 * uses only addresses that were checked. Address literals never reach a lookup: see `checkLiteralHost`.
 */
export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (error, found) => {
    if (error) return callback(error, []);
    if (!privateAllowed()) {
      for (const { address } of found) {
        const why = refusedAddress(address);
        if (why) {
          const refusal = new UnsafeUrl(`Refused: ${hostname} resolves to ${address}, ${why}.`);
          return callback(Object.assign(refusal, { code: "EUNSAFE" }), []);
        }
      }
    }
    if (options.all) return callback(null, found);
    callback(null, found[0].address, found[0].family);
  });
}

/** Throws UnsafeUrl when the URL's host is an address literal that may not be connected to. */
export function checkLiteralHost(url: URL): void {
  const host = hostOf(url);
  if (!net.isIP(host) || privateAllowed()) return;
  const why = refusedAddress(host);
  if (why) throw new UnsafeUrl(`Refused: ${host} is ${why}.`);
}
