"use client";

import { useQueryClient, type QueryClient, type QueryKey } from "@tanstack/react-query";
import { useEffect } from "react";
import { ACTIVITY_KEY, petHistoryKey } from "@/lib/client/activity-api";
import { CATEGORIES_KEY } from "@/lib/client/categories-api";
import { liveChangeSchema, tellLiveChange, type LiveChange } from "@/lib/client/live";
import { ORDERS_KEY } from "@/lib/client/orders-api";
import { PETS_KEY, petQueryKey } from "@/lib/client/pet-cache";
import { PHOTOS_KEY } from "@/lib/client/photos-api";

// The admin app, live: every page of /admin listens to the server's stream of changes (GET /admin/api/events) and
// refetches what shows the changed resource, whoever made the change (a colleague, an API client, an import). An
// open pet's panel is not refetched under the staff member's hands: it is told (lib/client/live.ts) and decides
// (use-pet-panel.ts). Changes are gathered for a quarter of a second, so an import's thousands of events make a
// few refetches, not thousands. The browser's EventSource reconnects by itself, sending the last event's id.

const GATHER_MS = 250;

/** What to read again after these changes. */
function staleKeys(changes: LiveChange[]): { refetch: QueryKey[]; markStale: QueryKey[] } {
  const refetch: QueryKey[] = [ACTIVITY_KEY];
  const markStale: QueryKey[] = [];
  const kinds = new Set(changes.map((change) => change.type.slice(0, change.type.indexOf("."))));
  // The category counts count pets; a photo change is a pet.updated, and the covers and photos show it.
  if (kinds.has("pet")) refetch.push(PETS_KEY, CATEGORIES_KEY, PHOTOS_KEY);
  if (kinds.has("order")) refetch.push(ORDERS_KEY);
  if (kinds.has("category")) refetch.push(CATEGORIES_KEY);
  for (const change of changes) {
    if (!change.type.startsWith("pet.")) continue;
    refetch.push(petHistoryKey(change.id));
    markStale.push(petQueryKey(change.id)); // read again when next opened; an open panel decides for itself
  }
  return { refetch, markStale };
}

/** The keys once each: a burst of changes to one resource is one refetch. */
function distinct(keys: QueryKey[]): QueryKey[] {
  return [...new Map(keys.map((key) => [JSON.stringify(key), key])).values()];
}

function apply(client: QueryClient, changes: LiveChange[]): void {
  const stale = staleKeys(changes);
  const refetch = distinct(stale.refetch);
  const markStale = distinct(stale.markStale);
  for (const queryKey of markStale) void client.invalidateQueries({ queryKey, refetchType: "none" });
  // A refetch already under way is left to finish: a burst of changes must not restart it again and again.
  for (const queryKey of refetch) void client.invalidateQueries({ queryKey }, { cancelRefetch: false });
  for (const change of changes) tellLiveChange(change);
}

/** How long to wait before opening the stream again after a refusal (a restart's 503, a 429), doubling to 30 s. */
const RETRY_MS = { first: 2000, most: 30_000 };

export function LiveUpdates() {
  const client = useQueryClient();
  useEffect(() => {
    let source: EventSource | undefined;
    let gathered: LiveChange[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let wait = RETRY_MS.first;
    let lastId = "";
    const onChange = (message: MessageEvent<string>) => {
      lastId = message.lastEventId || lastId;
      let change;
      try {
        change = liveChangeSchema.safeParse(JSON.parse(message.data));
      } catch {
        return; // not JSON: not a change this page knows
      }
      if (!change.success) return;
      gathered.push(change.data);
      timer ??= setTimeout(() => {
        timer = undefined;
        const changes = gathered;
        gathered = [];
        apply(client, changes);
      }, GATHER_MS);
    };
    // More was missed than the server resends (a long sleep): read everything again, but an open pet's panel,
    // which is not refreshed under the staff member's hands (use-pet-panel.ts).
    const onReset = (message: MessageEvent<string>) => {
      lastId = message.lastEventId || lastId;
      void client.invalidateQueries({ predicate: (query) => query.queryKey[0] !== "pet" });
    };
    // EventSource reconnects by itself after a dropped connection, but not after an answer other than 200 (a
    // draining instance's 503, a 429): then it is opened again here, after a wait, from the last event seen.
    const open = () => {
      const url = lastId ? `/admin/api/events?after=${encodeURIComponent(lastId)}` : "/admin/api/events";
      source = new EventSource(url);
      source.addEventListener("change", onChange);
      source.addEventListener("reset", onReset);
      source.addEventListener("open", () => (wait = RETRY_MS.first));
      source.addEventListener("error", () => {
        if (source?.readyState !== EventSource.CLOSED) return;
        retry = setTimeout(open, wait);
        wait = Math.min(wait * 2, RETRY_MS.most);
      });
    };
    open();
    return () => {
      source?.close();
      clearTimeout(timer);
      clearTimeout(retry);
    };
  }, [client]);
  return null;
}
