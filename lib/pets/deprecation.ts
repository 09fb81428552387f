import "server-only";

// getPet is deprecated (RFC 9745) and removed on its sunset date (RFC 8594); listPets replaces it.
// The route table (lib/v1/routes.ts) puts this policy on getPet's answers and in the OpenAPI document.

export type Deprecation = { since: Date; sunset: Date; successor: string };

export const getPetDeprecation: Deprecation = {
  since: new Date("2026-11-21T00:00:00Z"),
  sunset: new Date("2030-12-05T00:00:00Z"),
  successor: "/v1/pets",
};

/** The headers every answer of a deprecated operation carries, refusals included. */
export function deprecationHeaders({ since, sunset, successor }: Deprecation): Record<string, string> {
  return {
    Deprecation: `@${since.getTime() / 1000}`,
    Sunset: sunset.toUTCString(),
    Link: `<${successor}>; rel="successor-version"`,
  };
}
