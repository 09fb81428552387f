import "server-only";
import type { Handler } from "@/lib/http/api-route";
import { liveStream } from "@/lib/events/live";
import { eventAfterSchema } from "@/lib/events/schema";
import { sessionStaff } from "@/lib/auth/sessions";
import type { SignedInCaller } from "@/lib/admin/guard";

/**
 * Where to resume: Last-Event-ID (the browser's own reconnection sends it), else `?after=` (the admin app's, when it
 * opens the stream again itself); an event id, or nothing (start at the newest).
 */
function resumeAfter(request: Request, url: URL): bigint | undefined {
  const given = (request.headers.get("last-event-id") ?? url.searchParams.get("after") ?? "").trim();
  const parsed = eventAfterSchema.safeParse(given); // the feed's own rule for `after`
  return parsed.success ? parsed.data : undefined;
}

// GET /admin/api/events — streamEvents: every change as a server-sent event, for the admin app to refetch what it
// shows. A Last-Event-ID (or after) that is not an event id starts at the newest, as a first connection does.
export const liveEventsHandler: Handler<SignedInCaller> = async ({ request, url, caller }) => {
  const headers = {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-store",
    // nginx and other proxies must pass each event on at once, not buffer the stream.
    "X-Accel-Buffering": "no",
  };
  // HEAD gets the headers alone: a stream made for it would never be read nor cancelled, and never end.
  if (request.method === "HEAD") return new Response(null, { headers });
  const sessionLives = async () => (await sessionStaff(caller.sessionToken))?.id === caller.staff.id;
  return new Response(liveStream(resumeAfter(request, url), request.signal, sessionLives), { headers });
};
