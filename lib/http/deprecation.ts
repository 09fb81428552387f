import "server-only";

// Deprecating an operation (RFC 9745) with a date it goes away (RFC 8594) and what replaces it.

export type Deprecation = { since: Date; sunset: Date; successor: string };

/** The headers every answer of a deprecated operation carries, refusals included. */
export function deprecationHeaders({ since, sunset, successor }: Deprecation): Record<string, string> {
  return {
    Deprecation: `@${since.getTime() / 1000}`,
    Sunset: sunset.toUTCString(),
    Link: `<${successor}>; rel="successor-version"`,
  };
}
