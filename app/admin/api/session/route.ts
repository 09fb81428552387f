import { readJsonBody } from "@/lib/api/body";
import { json } from "@/lib/api/route";
import { parseOrThrow } from "@/lib/api/validation";
import { AdminError, adminRoute, clearedSessionCookie, sessionCookie } from "@/lib/admin/route";
import { signInSchema } from "@/lib/schemas/staff";
import { signIn } from "@/lib/staff/accounts";
import { endSession, startSession } from "@/lib/staff/sessions";

export const dynamic = "force-dynamic";

// POST /admin/api/session — sign in: { email, password } → a new session in the cookie
export const POST = adminRoute(
  async ({ request, sessionToken }) => {
    const { email, password } = parseOrThrow(signInSchema, (await readJsonBody(request)).json, "invalid_body", "Invalid sign-in");
    const staff = await signIn(email, password);
    if (!staff) throw new AdminError("invalid_credentials");
    await endSession(sessionToken); // a browser signing in again leaves no older session behind
    const { token } = await startSession(staff.id);
    return json({ email: staff.email }, { headers: { "Set-Cookie": sessionCookie(request, token) } });
  },
  { session: "optional" },
);

// DELETE /admin/api/session — sign out: the session row is deleted, so the cookie is dead everywhere
export const DELETE = adminRoute(
  async ({ request, sessionToken }) => {
    await endSession(sessionToken);
    return new Response(null, { status: 204, headers: { "Set-Cookie": clearedSessionCookie(request) } });
  },
  { session: "optional" },
);
