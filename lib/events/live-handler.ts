import "server-only";
import type { Handler } from "@/lib/http/api-route";
import { liveStream } from "@/lib/events/live";
import type { SignedInCaller } from "@/lib/admin/guard";

/** Last-Event-ID as the position to resume after: an event id, or nothing (start at the newest). */
function resumeAfter(request: Request): bigint | undefined {
  const header = request.headers.get("last-event-id")?.trim();
  return header && /^(0|[1-9][0-9]{0,18})$/.test(header) && BigInt(header) < 2n ** 63n ? BigInt(header) : undefined;
}

// GET /admin/api/events — streamEvents: every change as a server-sent event, for the admin app to refetch what it
// shows. A Last-Event-ID that is not an event id starts at the newest, as a first connection does.
export const liveEventsHandler: Handler<SignedInCaller> = async ({ request }) =>
  new Response(liveStream(resumeAfter(request), request.signal), {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      // nginx and other proxies must pass each event on at once, not buffer the stream.
      "X-Accel-Buffering": "no",
    },
  });
