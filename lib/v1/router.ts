import "server-only";
import {
  apiRoute,
  notFoundRoute,
  routeFunction,
  type ApiRoute,
  type Operation,
  type RouteContext,
} from "@/lib/http/api-route";
import { MERGE_PATCH_TYPES } from "@/lib/http/body";
import { deprecationHeaders } from "@/lib/http/deprecation";
import { v1Operations, type V1Operation } from "@/lib/v1/routes";
import { v1Guard, type ApiClient } from "@/lib/v1/guard";

// The route functions of every /v1 path, built once from the route table: Next's route files under
// app/v1 re-export them (v1Route), and the custom server dispatches to them by path (dispatchV1),
// without Next's page pipeline. Both entries run the very same functions; the tests run both.

type PathRoute = { route: ApiRoute; pattern: RegExp; names: string[] };

function buildRoutes(): Map<string, PathRoute> {
  const byPath = new Map<string, V1Operation[]>();
  for (const operation of v1Operations) byPath.set(operation.path, [...(byPath.get(operation.path) ?? []), operation]);
  const routes = new Map<string, PathRoute>();
  for (const [path, operations] of byPath) {
    const table: Partial<Record<V1Operation["method"], Operation<ApiClient>>> = {};
    for (const { method, operationId, handler, anonymous, deprecation } of operations) {
      table[method] = { operationId, handler, anonymous, headers: deprecation && deprecationHeaders(deprecation) };
    }
    // A path whose every operation is deprecated carries the notice on every answer: 405s and OPTIONS too.
    // Where only some are (getPet beside updatePet and deletePet), only their own answers carry it.
    const deprecations = operations.map((operation) => operation.deprecation);
    const pathHeaders = deprecations.every(Boolean) ? deprecationHeaders(deprecations[0]!) : {};
    // A path that takes PATCH says which bodies it takes on every answer, OPTIONS included (RFC 5789 §3.1).
    if (table.PATCH) pathHeaders["Accept-Patch"] = MERGE_PATCH_TYPES.join(", ");
    const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
    const literal = path.split(/\{\w+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    const pattern = new RegExp(`^${literal.join("([^/]+)")}$`);
    routes.set(path, { route: apiRoute(v1Guard, table, pathHeaders), pattern, names });
  }
  // Like Next's router, a literal path wins over one with a parameter (`/v1/pets/search` over `{petId}`).
  return new Map([...routes].sort(([, a], [, b]) => a.names.length - b.names.length));
}

const routes = buildRoutes();
const notFound = notFoundRoute(v1Guard);

/** The route functions of a path of the table, for its route file under app/v1. */
export function v1Route(path: string): ApiRoute {
  const found = routes.get(path);
  if (!found) throw new Error(`${path} is not in the /v1 route table`);
  return found.route;
}

/** Every other path under /v1: a JSON 404, never Next's HTML page. */
export function v1NotFoundRoute(): ApiRoute {
  return notFound;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // left encoded: validation refuses it with a 400 rather than a crash
  }
}

/**
 * Answers a request under /v1: the custom server's entry, and the admin app's in-process one (which
 * alone passes `actingStaff`).
 */
export function dispatchV1(request: Request, context: Omit<RouteContext, "params"> = {}): Promise<Response> {
  const pathname = new URL(request.url).pathname;
  let route = notFound;
  let params: Record<string, string> = {};
  for (const candidate of routes.values()) {
    const match = candidate.pattern.exec(pathname);
    if (!match) continue;
    route = candidate.route;
    params = Object.fromEntries(candidate.names.map((name, index) => [name, decodeSegment(match[index + 1])]));
    break;
  }
  return routeFunction(route, request.method)(request, { ...context, params: Promise.resolve(params) });
}
