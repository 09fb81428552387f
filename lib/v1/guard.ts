import "server-only";
import { authenticateApiKey, authenticateApiKeyId, type AuthenticatedKey } from "@/lib/auth/api-keys";
import type { SignedInStaff } from "@/lib/auth/staff";
import type { AuditContext } from "@/lib/audit/record";
import { bearerToken, type Guard } from "@/lib/http/api-route";
import { clientAddress } from "@/lib/http/forwarded";
import { Refusal } from "@/lib/refusal";
import { consumeRateLimit, rateLimitHeaders, rateLimitPolicyHeader, type RateLimitState } from "@/lib/rate-limit";
import { applyCors } from "@/lib/v1/cors";
import { settleExpiredHolds } from "@/lib/orders/store";

// How /v1 identifies its callers: a bearer API key, checked before anything else, then the key's rate
// limit. The admin app's in-process forwards name its key by id instead, and are limited per staff
// member, by the admin endpoint that forwards them (lib/admin/guard.ts). Every answer carries the
// RateLimit fields and, for allowed origins, the CORS headers.

export type ApiClient = {
  apiKey: AuthenticatedKey;
  limits?: RateLimitState;
  /** The staff member behind a request the admin app forwarded in-process; undefined for API clients. */
  actingStaff?: SignedInStaff;
  /** The client's address: the API client's, or the staff member's browser's. */
  address: string;
  /** Counted already, by the admin endpoint that forwarded the request: not counted again. */
  counted?: boolean;
};

/**
 * Whom the audit trail names for a change this caller makes: the staff member when the admin app forwarded it
 * (never the admin app's key), else the API key.
 */
export function auditContextOf(caller: ApiClient, requestId: string): AuditContext {
  const { actingStaff, apiKey } = caller;
  const actor = actingStaff
    ? { type: "staff" as const, id: actingStaff.id, label: actingStaff.email }
    : { type: "api_key" as const, id: apiKey.id, label: apiKey.name };
  return { actor, clientAddress: caller.address, requestId };
}

export const v1Guard: Guard<ApiClient> = {
  label: "request",
  name: "v1",
  async identify(request, context) {
    if (context?.adminKeyId !== undefined) {
      // The admin app's forward, in-process: nothing the request carries is looked at.
      const apiKey = await authenticateApiKeyId(context.adminKeyId);
      if (!apiKey) throw new Refusal("unauthorized", { message: "The admin app's API key has been revoked." });
      return {
        apiKey,
        actingStaff: context.actingStaff,
        address: context.actingAddress ?? clientAddress(request),
        limits: context.counted?.limits,
        counted: context.counted !== undefined,
      };
    }
    const token = bearerToken(request);
    const apiKey = token === undefined ? undefined : await authenticateApiKey(token);
    if (!apiKey) {
      const message =
        token === undefined
          ? "Missing API key: send Authorization: Bearer <key>."
          : "The API key is invalid or has been revoked.";
      throw new Refusal("unauthorized", { message });
    }
    return { apiKey, address: clientAddress(request) };
  },
  async admit(caller) {
    // What the admin app forwards counts against the staff member's own bucket, not the app's key as a whole.
    // Then, before any work: no placed order is ever read past its hold (lib/orders/store.ts); free per request
    // until a hold can have lapsed.
    const { actingStaff } = caller;
    if (caller.counted) return settleExpiredHolds();
    const limits = await consumeRateLimit(caller.apiKey.id, actingStaff ? `staff:${actingStaff.id}` : "");
    caller.limits = limits;
    if (limits && !limits.allowed) {
      throw new Refusal("rate_limited", {
        message: actingStaff
          ? "Too many requests from this staff member; retry after the time in Retry-After."
          : undefined,
        headers: { "Retry-After": String(limits.resetSeconds) },
      });
    }
    await settleExpiredHolds();
  },
  logFields: ({ apiKey, actingStaff }) => ({
    apiKeyId: apiKey.id,
    ...(actingStaff ? { staffId: actingStaff.id } : {}),
  }),
  finish(request, response, { caller, allow }) {
    const limits = caller?.limits;
    for (const [name, value] of Object.entries(limits ? rateLimitHeaders(limits) : rateLimitPolicyHeader()))
      response.headers.set(name, value);
    applyCors(request, response, allow);
  },
};
