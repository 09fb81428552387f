import { authenticateApiKey, type AuthenticatedKey } from "@/lib/api-keys";
import { applyCors } from "@/lib/api/cors";
import { ApiError } from "@/lib/api/errors";
import { stringifyJson } from "@/lib/api/json";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import { consumeRateLimit, rateLimitHeaders, rateLimitPolicyHeader, type RateLimitState } from "@/lib/rate-limit";
import { log } from "@/lib/log";

// The one wrapper that owns the /v1 HTTP edge. A handler takes a Web Request (no Next-only APIs) and
// returns a Response; this file assigns the request id, enforces the bearer key before anything else
// is looked at, maps every thrown error to the Error body, answers unsupported methods with 405 and
// Allow, and sets the headers every response carries.

export type ApiContext = {
  request: Request;
  url: URL;
  params: Record<string, string>;
  requestId: string;
  apiKey: AuthenticatedKey;
};

export type ApiHandler = (context: ApiContext) => Promise<Response>;

/** What Next passes as a route handler's second argument; the custom server passes the same shape. */
export type RouteContext = { params?: Promise<Record<string, string | string[] | undefined>> };
export type RouteFunction = (request: Request, context?: RouteContext) => Promise<Response>;

const methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
type Method = (typeof methods)[number];

type RouteOptions = {
  /** Answered without an API key (the OpenAPI document). */
  public?: boolean;
  /** Headers on every response of the path, errors included (the deprecation notice of getPet). */
  headers?: Record<string, string>;
};

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
export const AUTHENTICATE_CHALLENGE = 'Bearer realm="animal-store"';

type ResponseInit = { status?: number; headers?: Record<string, string> };

/** A JSON response from text already serialised. */
export function jsonText(text: string, init: ResponseInit = {}): Response {
  return new Response(text, { status: init.status ?? 200, headers: { "Content-Type": "application/json", ...init.headers } });
}

export function json(body: unknown, init: ResponseInit = {}): Response {
  return jsonText(stringifyJson(body), init);
}

export function errorResponse(error: ApiError): Response {
  const headers = error.status === 401 ? { ...error.headers, "WWW-Authenticate": AUTHENTICATE_CHALLENGE } : error.headers;
  return json(error.body(), { status: error.status, headers });
}

/** The bearer token of the request; the scheme is case-insensitive (RFC 9110 §11.1). */
function bearerToken(request: Request): string | undefined {
  const match = /^Bearer +([^\s]+) *$/i.exec(request.headers.get("authorization") ?? "");
  return match?.[1];
}

async function authenticate(request: Request): Promise<AuthenticatedKey> {
  const token = bearerToken(request);
  const key = token === undefined ? undefined : await authenticateApiKey(token);
  if (!key) {
    throw new ApiError("unauthorized", {
      message: token === undefined ? "Missing API key: send Authorization: Bearer <key>." : "The API key is invalid or has been revoked.",
    });
  }
  return key;
}

/** The request's own X-Request-Id when it is sane, else a new one. */
export function requestIdOf(request: Request): string {
  const inbound = request.headers.get("x-request-id");
  return inbound && REQUEST_ID_PATTERN.test(inbound) ? inbound : crypto.randomUUID();
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnavailable(error)) return new ApiError("service_unavailable", { headers: { "Retry-After": "1" } });
  return new ApiError("internal");
}

async function paramsOf(context: RouteContext | undefined): Promise<Record<string, string>> {
  const raw = (await context?.params) ?? {};
  return Object.fromEntries(Object.entries(raw).map(([name, value]) => [name, Array.isArray(value) ? value.join("/") : (value ?? "")]));
}

/** The headers every /v1 answer carries, whoever produced it. */
export function withEdgeHeaders(response: Response, requestId: string): Response {
  response.headers.set("X-Request-Id", requestId);
  if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "no-store");
  response.headers.set("X-Content-Type-Options", "nosniff");
  return response;
}

/** Runs one request through the edge: request id, auth, handler, error mapping, common headers. */
async function serve(handler: ApiHandler | undefined, allow: string, options: RouteOptions, request: Request, context?: RouteContext): Promise<Response> {
  const requestId = requestIdOf(request);
  const url = new URL(request.url);
  let response: Response;
  let limits: RateLimitState | undefined;
  try {
    if (!handler) throw new ApiError("method_not_allowed", { message: `${request.method} is not supported on ${url.pathname}; use ${allow}.`, headers: { Allow: allow } });
    const apiKey = options.public ? { id: 0 } : await authenticate(request);
    limits = options.public ? undefined : await consumeRateLimit(apiKey.id);
    if (limits && !limits.allowed) throw new ApiError("rate_limited", { headers: { "Retry-After": String(limits.resetSeconds) } });
    response = await handler({ request, url, params: await paramsOf(context), requestId, apiKey });
  } catch (thrown) {
    const error = toApiError(thrown);
    const fields = { requestId, method: request.method, path: url.pathname, status: error.status, code: error.code };
    if (error.status >= 500) log("error", "request failed", { ...fields, error: thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown) });
    else log("warn", "request refused", fields);
    response = errorResponse(error);
  }
  withEdgeHeaders(response, requestId);
  for (const [name, value] of Object.entries(options.headers ?? {})) response.headers.set(name, value);
  for (const [name, value] of Object.entries(limits ? rateLimitHeaders(limits) : rateLimitPolicyHeader())) response.headers.set(name, value);
  applyCors(request, response, allow);
  return response;
}

/**
 * The route functions of one /v1 path, for every HTTP method: the given handlers wrapped, HEAD derived
 * from GET, OPTIONS answering Allow, and every other method a 405 naming the allowed ones.
 */
export function apiRoute(handlers: Partial<Record<"GET" | "POST", ApiHandler>>, options: RouteOptions = {}): Record<Method, RouteFunction> {
  const supported: Method[] = [...(handlers.GET ? (["GET", "HEAD"] as const) : []), ...(handlers.POST ? (["POST"] as const) : []), "OPTIONS"];
  const allow = supported.join(", ");
  const table: Partial<Record<Method, ApiHandler>> = {
    ...handlers,
    HEAD: handlers.GET,
    OPTIONS: async () => new Response(null, { status: 204, headers: { Allow: allow } }),
  };
  const optionsPublic = { ...options, public: true };
  return Object.fromEntries(
    methods.map((method) => [
      method,
      (request: Request, context?: RouteContext) =>
        serve(table[method], allow, method === "OPTIONS" ? optionsPublic : options, request, context),
    ]),
  ) as Record<Method, RouteFunction>;
}

/** Route functions that answer every method with a JSON 404: the catch-all under /v1. */
export function notFoundRoute(): Record<Method, RouteFunction> {
  const notFound: ApiHandler = async ({ url }) => {
    throw new ApiError("not_found", { message: `Nothing exists at ${url.pathname}.` });
  };
  const route = (request: Request, context?: RouteContext) => serve(notFound, "", { public: true }, request, context);
  return Object.fromEntries(methods.map((method) => [method, route])) as Record<Method, RouteFunction>;
}
