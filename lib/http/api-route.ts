import "server-only";
import { respond } from "@/lib/http/response";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import type { ErrorCode } from "@/lib/http/error-codes";
import { errorBody } from "@/lib/http/errors";
import { Refusal } from "@/lib/refusal";
import { clientAddress, requestScheme, STRICT_TRANSPORT_SECURITY } from "@/lib/http/forwarded";
import { stringifyJson } from "@/lib/http/json";
import { log } from "@/lib/log";
import { recordRequest, requestSeries, type RequestSeries, type SurfaceName } from "@/lib/metrics/registry";
import type { SignedInStaff } from "@/lib/auth/staff";
import type { RateLimitState } from "@/lib/rate-limit";

// The one wrapper of every API route, for /v1 and for the admin app's endpoints alike. A handler takes a
// Web Request (no Next-only APIs) and returns a Response; the wrapper assigns the request id, lets the
// guard identify the caller before anything else is looked at, maps every thrown error to the Error body,
// answers unsupported methods with 405 and Allow, sets the headers every answer carries, and counts the
// request for the metrics (lib/metrics).
// What differs between /v1 and the admin endpoints is the Guard: how a caller is identified (an API key,
// a staff session) and the headers of its answers (rate limits, CORS).

export const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type Method = (typeof METHODS)[number];

/**
 * A route function's second argument: what Next passes (the path's params), or what the custom server
 * and the admin app pass in-process. `adminKeyId`, `actingStaff` and `actingAddress` are set only by the
 * admin app's own forward to /v1, never from anything a client sends: the admin app's API key, named by its
 * id (the app holds no secret of it), the signed-in staff member behind the request, and their address.
 */
export type RouteContext = {
  params?: Promise<Record<string, string | string[] | undefined>>;
  adminKeyId?: number;
  actingStaff?: SignedInStaff;
  /** The browser's address, as the admin endpoint that forwards its request concluded it. */
  actingAddress?: string;
  /**
   * The rate limit the admin endpoint that forwards the request already counted it against (`limits` undefined
   * when rate limiting is off): /v1 does not count it again.
   */
  counted?: { limits: RateLimitState | undefined };
};
export type RouteFunction = (request: Request, context?: RouteContext) => Promise<Response>;

export type HandlerContext<Caller> = {
  request: Request;
  url: URL;
  params: Record<string, string>;
  requestId: string;
  caller: Caller;
};
export type Handler<Caller> = (context: HandlerContext<Caller>) => Promise<Response>;

export type Guard<Caller> = {
  /** How log lines name the guarded requests ("request", "admin request"). */
  label: string;
  /** How the metrics name the guarded requests (their `surface` label). */
  name: SurfaceName;
  /** Identifies the caller, or throws the Refusal to answer instead (401, 403…). */
  identify(request: Request, context: RouteContext | undefined): Promise<Caller>;
  /** Lets an identified caller in, or throws the Refusal to answer instead (429…). */
  admit?(caller: Caller, request: Request, requestId: string): Promise<void>;
  /** What the log line of a refused or failed request says of its caller (never a secret). */
  logFields?(caller: Caller): Record<string, unknown>;
  /** Sets the headers every answer it guards carries, refusals included; `caller` when identified. */
  finish?(request: Request, response: Response, details: { caller?: Caller; allow: string }): void;
};

type ResponseInit = { status?: number; headers?: Record<string, string> };

/** A JSON response from text already serialised. */
export function jsonText(text: string, init: ResponseInit = {}): Response {
  return respond(text, {
    status: init.status ?? 200,
    headers: { "Content-Type": "application/json", ...init.headers },
  });
}

export function json(body: unknown, init: ResponseInit = {}): Response {
  return jsonText(stringifyJson(body), init);
}

export const AUTHENTICATE_CHALLENGE = 'Bearer realm="animal-store"';

/** The bearer token of the request; the scheme is case-insensitive (RFC 9110 §11.1). */
export function bearerToken(request: Request): string | undefined {
  return /^Bearer +([^\s]+) *$/i.exec(request.headers.get("authorization") ?? "")?.[1];
}

export function errorResponse(error: Refusal): Response {
  const headers =
    error.code === "unauthorized" ? { ...error.headers, "WWW-Authenticate": AUTHENTICATE_CHALLENGE } : error.headers;
  return json(errorBody(error), { status: error.status, headers });
}

export function toRefusal(error: unknown): Refusal {
  if (error instanceof Refusal) return error;
  if (isDatabaseUnavailable(error)) return new Refusal("service_unavailable", { headers: { "Retry-After": "1" } });
  return new Refusal("internal");
}

/**
 * Whether a request failed because its client went away: the error its going away raised (the request's signal's
 * reason, an AbortError once the signal is aborted), or Node's error for a body cut off mid-upload ("aborted",
 * ECONNRESET), which would otherwise read as a database connection reset. Any other error is the server's own,
 * even when the client has gone meanwhile: a bug or an outage is never hidden as an abort.
 */
function isClientAbort(request: Request, thrown: unknown): boolean {
  const { signal } = request;
  let error = thrown;
  for (let depth = 0; error instanceof Error && depth < 5; depth++, error = error.cause) {
    if (signal.aborted && (error === signal.reason || error.name === "AbortError")) return true;
    if ((error as NodeJS.ErrnoException).code === "ECONNRESET" && error.message === "aborted") return true;
  }
  return false;
}

/** The status the metrics count a request under when its client went away first (nginx's "client closed request"). */
export const CLIENT_ABORTED_STATUS = 499;

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's own X-Request-Id when it is sane, else a new one. */
export function requestIdOf(request: Request): string {
  const inbound = request.headers.get("x-request-id");
  return inbound && REQUEST_ID_PATTERN.test(inbound) ? inbound : crypto.randomUUID();
}

/** The headers every answer carries, whoever produced it. */
export function withResponseHeaders(response: Response, requestId: string): Response {
  response.headers.set("X-Request-Id", requestId);
  if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "no-store");
  response.headers.set("X-Content-Type-Options", "nosniff");
  return response;
}

async function paramsOf(context: RouteContext | undefined): Promise<Record<string, string>> {
  const raw = (await context?.params) ?? {};
  return Object.fromEntries(
    Object.entries(raw).map(([name, value]) => [name, Array.isArray(value) ? value.join("/") : (value ?? "")]),
  );
}

type Answer<Caller> = {
  handler?: Handler<Caller>;
  allow: string;
  headers?: Record<string, string>;
  anonymous?: boolean;
  /** The labels its requests are counted under. */
  series: RequestSeries;
};

// What the metrics call answers that are no operation of the route tables.
const OPTIONS_OPERATION = "options";
const UNSUPPORTED_METHOD_OPERATION = "unsupportedMethod";
const UNKNOWN_PATH_OPERATION = "unknownPath";

/** Runs one request through the wrapper: request id, identification, handler, error mapping, common headers. */
async function serve<Caller>(
  guard: Guard<Caller>,
  answer: Answer<Caller>,
  request: Request,
  context?: RouteContext,
): Promise<Response> {
  const started = performance.now();
  const requestId = requestIdOf(request);
  const url = new URL(request.url);
  let response: Response;
  let caller: Caller | undefined;
  let refusal: ErrorCode | undefined;
  try {
    const { handler, allow } = answer;
    if (!handler)
      throw new Refusal("method_not_allowed", {
        message: `${request.method} is not supported on ${url.pathname}; use ${allow}.`,
        headers: { Allow: allow },
      });
    if (!answer.anonymous) {
      caller = await guard.identify(request, context);
      await guard.admit?.(caller, request, requestId);
    }
    response = await handler({ request, url, params: await paramsOf(context), requestId, caller: caller as Caller });
  } catch (thrown) {
    if (isClientAbort(request, thrown)) {
      // No one is left to answer, and nothing failed here: a client's decision, not a server error.
      log("info", "client aborted", {
        requestId,
        method: request.method,
        path: url.pathname,
        client: clientAddress(request),
        ...(caller && guard.logFields?.(caller)),
      });
      const seconds = (performance.now() - started) / 1000;
      recordRequest(answer.series, request.method, CLIENT_ABORTED_STATUS, seconds, undefined);
      return respond(null, { status: CLIENT_ABORTED_STATUS });
    }
    const error = toRefusal(thrown);
    refusal = error.code;
    const fields = {
      requestId,
      method: request.method,
      path: url.pathname,
      status: error.status,
      code: error.code,
      client: clientAddress(request),
      ...(caller && guard.logFields?.(caller)),
    };
    if (error.status >= 500)
      log("error", `${guard.label} failed`, {
        ...fields,
        error: thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown),
      });
    else log("warn", `${guard.label} refused`, fields);
    response = errorResponse(error);
  }
  withResponseHeaders(response, requestId);
  if (requestScheme(request) === "https") response.headers.set("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY);
  for (const [name, value] of Object.entries(answer.headers ?? {})) response.headers.set(name, value);
  guard.finish?.(request, response, { caller, allow: answer.allow });
  recordRequest(answer.series, request.method, response.status, (performance.now() - started) / 1000, refusal);
  return response;
}

export type OperationMethod = Exclude<Method, "HEAD" | "OPTIONS">;

/** A path's route functions, one per method Next knows, and `otherMethods` for any other (PROPFIND…). */
export type ApiRoute = Record<Method, RouteFunction> & { otherMethods: RouteFunction };

export type Operation<Caller> = {
  /** Its name in the metrics: the OpenAPI operationId for /v1 (listPets…), a name of that kind elsewhere. */
  operationId: string;
  handler: Handler<Caller>;
  /** Headers on every answer of this operation, refusals included (a deprecation notice). */
  headers?: Record<string, string>;
  /** Answered without identifying the caller (the OpenAPI document). */
  anonymous?: boolean;
};

/**
 * The route functions of one path, for every HTTP method: the operations wrapped, HEAD derived from
 * GET, OPTIONS answering Allow without identifying anyone, and every other method a 405 naming the
 * allowed ones. `pathHeaders` go on every answer of the path (405s and OPTIONS included).
 */
export function apiRoute<Caller>(
  guard: Guard<Caller>,
  operations: Partial<Record<OperationMethod, Operation<Caller>>>,
  pathHeaders: Record<string, string> = {},
): ApiRoute {
  const table: Partial<Record<Method, Operation<Caller>>> = { ...operations, HEAD: operations.GET };
  const supported = METHODS.filter((method) => method === "OPTIONS" || table[method]);
  const allow = supported.join(", ");
  table.OPTIONS = {
    operationId: OPTIONS_OPERATION,
    handler: async () => respond(null, { status: 204, headers: { Allow: allow } }),
    anonymous: true,
  };
  const routeFor = (operation: Operation<Caller> | undefined): RouteFunction => {
    const answer: Answer<Caller> = {
      handler: operation?.handler,
      allow,
      anonymous: operation?.anonymous,
      headers: { ...pathHeaders, ...operation?.headers },
      series: requestSeries(guard.name, operation?.operationId ?? UNSUPPORTED_METHOD_OPERATION),
    };
    return (request, context) => serve(guard, answer, request, context);
  };
  return {
    ...(Object.fromEntries(METHODS.map((method) => [method, routeFor(table[method])])) as Record<
      Method,
      RouteFunction
    >),
    otherMethods: routeFor(undefined),
  };
}

/** Route functions that answer every method with a JSON 404: a catch-all. */
export function notFoundRoute<Caller>(guard: Guard<Caller>): ApiRoute {
  const answer: Answer<Caller> = {
    allow: "",
    anonymous: true,
    handler: async ({ url }) => {
      throw new Refusal("not_found", { message: `Nothing exists at ${url.pathname}.` });
    },
    series: requestSeries(guard.name, UNKNOWN_PATH_OPERATION),
  };
  const route = (request: Request, context?: RouteContext) => serve(guard, answer, request, context);
  return {
    ...(Object.fromEntries(METHODS.map((method) => [method, route])) as Record<Method, RouteFunction>),
    otherMethods: route,
  };
}

/** The route function of `route` that answers `method`. */
export function routeFunction(route: ApiRoute, method: string): RouteFunction {
  return Object.hasOwn(route, method) ? route[method as Method] : route.otherMethods;
}
