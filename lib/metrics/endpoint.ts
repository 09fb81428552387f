import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { config } from "@/lib/config";
import { bearerToken, apiRoute, routeFunction, type Guard } from "@/lib/http/api-route";
import { Refusal } from "@/lib/refusal";
import { renderMetrics } from "@/lib/metrics/registry";

// GET /metrics for Prometheus, served by server.ts before Next when METRICS_TOKEN is set (unset, the
// path goes to Next like any unknown one and is its 404). Only that bearer token gets in; it is compared
// in constant time, as digests of equal length, so the time of a refusal says nothing of the token.

const digest = (text: string) => createHash("sha256").update(text).digest();

let expected: Buffer | undefined;

function isMetricsToken(token: string | undefined): boolean {
  const configured = config().METRICS_TOKEN;
  if (token === undefined || configured === undefined) return false;
  expected ??= digest(configured);
  return timingSafeEqual(digest(token), expected);
}

const metricsGuard: Guard<true> = {
  label: "metrics request",
  name: "metrics",
  async identify(request) {
    if (!isMetricsToken(bearerToken(request)))
      throw new Refusal("unauthorized", {
        message: "The metrics token is required: send Authorization: Bearer <token>.",
      });
    return true;
  },
};

const route = apiRoute(metricsGuard, {
  // GET /metrics — every metric, in Prometheus's text format
  GET: {
    operationId: "getMetrics",
    handler: async () => {
      const rendered = await renderMetrics();
      if (!rendered) throw new Refusal("not_found"); // not reached: server.ts routes here only with a token
      return new Response(rendered.text, { headers: { "Content-Type": rendered.contentType } });
    },
  },
});

/** Whether a request target is /metrics (with or without a query). */
export function isMetricsPath(url: string | undefined): boolean {
  return url === "/metrics" || url?.startsWith("/metrics?") === true;
}

/** Answers a request for /metrics. */
export function dispatchMetrics(request: Request): Promise<Response> {
  return routeFunction(route, request.method)(request);
}
