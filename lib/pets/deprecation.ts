import "server-only";
import type { Deprecation } from "@/lib/http/deprecation";

// getPet is deprecated and removed on its sunset date; listPets replaces it. The route table
// (lib/v1/routes.ts) puts this policy on getPet's answers and in the OpenAPI document.
export const getPetDeprecation: Deprecation = {
  since: new Date("2026-11-21T00:00:00Z"),
  sunset: new Date("2030-12-05T00:00:00Z"),
  successor: "/v1/pets",
};
