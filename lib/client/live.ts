import { z } from "zod";

// What the admin app's live stream (GET /admin/api/events, lib/events/live.ts) says of a change, and who in the
// page listens: components/admin/live-updates.tsx reads the stream and tells these listeners (an open pet's
// panel) after refetching the lists.

/** One change: the event's type and the changed resource's id. */
export const liveChangeSchema = z.object({ type: z.string(), id: z.string() });
export type LiveChange = z.output<typeof liveChangeSchema>;

const listeners = new Set<(change: LiveChange) => void>();

/** Calls `listener` with every change the stream reports; returns the unsubscribe. */
export function onLiveChange(listener: (change: LiveChange) => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

export function tellLiveChange(change: LiveChange): void {
  for (const listener of listeners) listener(change);
}
