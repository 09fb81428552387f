import { signedInGuard } from "@/lib/admin/guard";
import { liveEventsHandler } from "@/lib/events/live-handler";
import { apiRoute } from "@/lib/http/api-route";

// The admin app's live updates, for any signed-in staff member: a server-sent events stream of every change
// (lib/events/live.ts).
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(signedInGuard, {
  // GET /admin/api/events — text/event-stream; Last-Event-ID (or ?after=) resumes after that event
  GET: { operationId: "streamEvents", handler: liveEventsHandler },
});
