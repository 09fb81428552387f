import * as notFound from "@/app/v1/[[...path]]/route";
import * as openApi from "@/app/v1/openapi.json/route";
import * as pet from "@/app/v1/pets/[petId]/route";
import * as pets from "@/app/v1/pets/route";
import type { RouteContext, RouteFunction } from "@/lib/api/route";

// The custom server's entry to /v1: the same route modules Next serves, picked by path without Next's
// page pipeline. Next's own routing stays the other entry; both must behave the same (tests run both).

type RouteModule = Record<"GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS", RouteFunction>;

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // left encoded: validation refuses it with a 400 rather than a crash
  }
}

function match(pathname: string): { module: RouteModule; params: Record<string, string> } {
  if (pathname === "/v1/pets") return { module: pets, params: {} };
  if (pathname === "/v1/openapi.json") return { module: openApi, params: {} };
  const petPath = /^\/v1\/pets\/([^/]+)$/.exec(pathname);
  if (petPath) return { module: pet, params: { petId: decodeSegment(petPath[1]) } };
  return { module: notFound, params: {} };
}

/** Answers a request under /v1. */
export function dispatchV1(request: Request): Promise<Response> {
  const { module, params } = match(new URL(request.url).pathname);
  // A method no route names (PROPFIND, …) is answered like PUT: 405 with Allow, or 404 off the map.
  const route = module[request.method as keyof RouteModule] ?? module.PUT;
  const context: RouteContext = { params: Promise.resolve(params) };
  return route(request, context);
}
