import "server-only";
import { jsonText, type Handler } from "@/lib/http/api-route";
import { parseOrThrow } from "@/lib/http/validation";
import { listEventsQuerySchema } from "@/lib/events/schema";
import { eventJson, listEvents } from "@/lib/events/store";
import { queryOf } from "@/lib/pets/handlers";
import type { ApiClient } from "@/lib/v1/guard";

// GET /v1/events — listEvents: the feed of every change, oldest first. Its Link rel="next" is always there: the
// position after this page (the last id shown, or the same `after` when the page is empty), so that a follower
// that keeps following it sees every event once, in order (lib/events/outbox.ts says why none can appear behind).
export const listEventsHandler: Handler<ApiClient> = async ({ url }) => {
  const {
    after = 0n,
    limit,
    type,
  } = parseOrThrow(listEventsQuerySchema, queryOf(url), "invalid_query", "Invalid query");
  const events = await listEvents({ after, limit, types: type });
  const next = new URLSearchParams({ after: String(events.at(-1)?.id ?? after), limit: String(limit) });
  const typeFilter = url.searchParams.get("type");
  if (typeFilter !== null) next.set("type", typeFilter);
  return jsonText(`[${events.map(eventJson).join(",")}]`, {
    headers: { Link: `<${url.pathname}?${next}>; rel="next"` },
  });
};
