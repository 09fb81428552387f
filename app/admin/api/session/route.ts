import { visitorSurface } from "@/lib/admin/surface";
import { clearedSessionCookie, sessionCookie } from "@/lib/auth/cookies";
import { endSession, startSession } from "@/lib/auth/sessions";
import { signInFrom } from "@/lib/auth/staff";
import { signInSchema } from "@/lib/auth/staff-schema";
import { readJsonBody } from "@/lib/http/body";
import { edgeRoute, json } from "@/lib/http/edge";
import { ApiError } from "@/lib/http/errors";
import { clientAddress } from "@/lib/http/forwarded";
import { parseOrThrow } from "@/lib/http/validation";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = edgeRoute(visitorSurface, {
  // POST /admin/api/session — sign in: { email, password } → a new session in the cookie; 429 past the limits
  POST: {
    handler: async ({ request, caller }) => {
      const { email, password } = parseOrThrow(
        signInSchema,
        (await readJsonBody(request)).json,
        "invalid_body",
        "Invalid sign-in",
      );
      const staff = await signInFrom(clientAddress(request), email, password);
      if (!staff) throw new ApiError("invalid_credentials");
      await endSession(caller.sessionToken); // a browser signing in again leaves no older session behind
      const { token } = await startSession(staff.id);
      return json({ email: staff.email }, { headers: { "Set-Cookie": sessionCookie(request, token) } });
    },
  },
  // DELETE /admin/api/session — sign out: the session row is deleted, so the cookie is dead everywhere
  DELETE: {
    handler: async ({ request, caller }) => {
      await endSession(caller.sessionToken);
      return new Response(null, { status: 204, headers: { "Set-Cookie": clearedSessionCookie(request) } });
    },
  },
});
