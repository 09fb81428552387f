// The servers the /docs page offers for "Try it out": this server first (the origin the page was loaded from,
// which the page's CSP, connect-src 'self', lets it call), then the document's own servers (production and
// staging). /v1/openapi.json itself is not changed: API clients get the configured servers only.

export type ServerEntry = { url: string; description?: string };

export const THIS_SERVER_DESCRIPTION = "This server";

/** The document with `{origin}/v1` as its first server; an entry already naming that URL is not repeated. */
export function withThisServer<Document extends { servers?: ServerEntry[] }>(
  document: Document,
  origin: string,
): Document {
  const url = `${origin}/v1`;
  const others = (document.servers ?? []).filter((server) => server.url.replace(/\/+$/, "") !== url);
  return { ...document, servers: [{ url, description: THIS_SERVER_DESCRIPTION }, ...others] };
}
