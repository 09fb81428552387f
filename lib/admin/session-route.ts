import "server-only";
import { respond } from "@/lib/http/response";
import { visitorGuard } from "@/lib/admin/guard";
import { clearedSessionCookie, sessionCookie } from "@/lib/auth/cookies";
import { endSession, startSession } from "@/lib/auth/sessions";
import { signInFrom } from "@/lib/auth/staff";
import { signInSchema } from "@/lib/auth/staff-schema";
import { readJsonBody } from "@/lib/http/body";
import { apiRoute, json, type Method } from "@/lib/http/api-route";
import { Refusal } from "@/lib/refusal";
import { clientAddress } from "@/lib/http/forwarded";
import { parseOrThrow } from "@/lib/http/validation";

// Sign-in and sign-out. Its route file (app/admin/api/session) re-exports these functions for Next, and
// the custom server dispatches to them directly, as it does /v1: Next's page pipeline costs a request
// several times what a /v1 list costs, and this is the endpoint a flood of bogus sign-ins hits, where
// every refusal must stay cheap for everyone else (the figures: docs/performance.md, Sign-in floods).

export const SESSION_PATH = "/admin/api/session";

export const sessionRoute = apiRoute(visitorGuard, {
  // POST /admin/api/session — sign in: { email, password } → a new session in the cookie; 429 past the limits
  POST: {
    operationId: "signIn",
    handler: async ({ request, requestId, caller }) => {
      const { email, password } = parseOrThrow(
        signInSchema,
        (await readJsonBody(request)).json,
        "invalid_body",
        "Invalid sign-in",
      );
      const staff = await signInFrom(clientAddress(request), email, password, new Date(), requestId);
      if (!staff) throw new Refusal("invalid_credentials");
      await endSession(caller.sessionToken); // a browser signing in again leaves no older session behind
      const { token } = await startSession(staff.id);
      return json({ email: staff.email }, { headers: { "Set-Cookie": sessionCookie(request, token) } });
    },
  },
  // DELETE /admin/api/session — sign out: the session row is deleted, so the cookie is dead everywhere
  DELETE: {
    operationId: "signOut",
    handler: async ({ request, caller }) => {
      await endSession(caller.sessionToken);
      return respond(null, { status: 204, headers: { "Set-Cookie": clearedSessionCookie(request) } });
    },
  },
});

/** Answers a request for SESSION_PATH: the custom server's entry. */
export function dispatchSession(request: Request): Promise<Response> {
  const handle = Object.hasOwn(sessionRoute, request.method)
    ? sessionRoute[request.method as Method]
    : sessionRoute.otherMethods;
  return handle(request);
}
