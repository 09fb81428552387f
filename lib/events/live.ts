import "server-only";
import { db } from "@/lib/db/client";
import { listEvents, type StoredEvent } from "@/lib/events/store";

// The admin app's live updates: GET /admin/api/events streams the events feed to signed-in staff as server-sent
// events. One poller per process reads the new events every POLL_MS (one indexed read, however many staff are
// connected) and hands them to every open stream: a change made through any instance on the same database reaches
// every instance's streams within a poll, with no server beyond the database (docs/decisions/016). A stream that
// reconnects sends Last-Event-ID and gets what it missed first.

/** How often the poller reads new events while a stream is open. */
export const POLL_MS = 500;
/** What a reconnecting stream is sent at most of what it missed; past that it is told to read everything again. */
export const BACKLOG_LIMIT = 500;
/** How often an open stream checks that its staff session is still valid. */
const SESSION_CHECK_MS = 5000;
/** A comment line this often keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;

type Stream = { send: (events: StoredEvent[]) => void; end: () => void };

type Live = { streams: Set<Stream>; timer?: NodeJS.Timeout; last?: bigint; polling: boolean };

// One per process: Next's bundle and server.ts's (which ends the streams at shutdown) share it.
const holder = globalThis as typeof globalThis & { __animalStoreLive?: Live };
const live: Live = (holder.__animalStoreLive ??= { streams: new Set(), polling: false });

/** The newest event's id, 0 when there is none. */
async function newestEventId(): Promise<bigint> {
  const newest = await db().event.findFirst({ orderBy: { id: "desc" }, select: { id: true } });
  return newest?.id ?? 0n;
}

/** The oldest event kept's id, or undefined when there is none (housekeeping deletes the oldest). */
async function oldestEventId(): Promise<bigint | undefined> {
  return (await db().event.findFirst({ orderBy: { id: "asc" }, select: { id: true } }))?.id;
}

async function poll(): Promise<void> {
  if (live.polling) return;
  live.polling = true;
  try {
    // Set by the first stream, from the newest event: never from what a client sent.
    if (live.last === undefined) return;
    for (;;) {
      const events = await listEvents({ after: live.last, limit: 100 });
      if (events.length === 0 || live.streams.size === 0) break; // the last stream left meanwhile
      live.last = events.at(-1)!.id;
      for (const stream of live.streams) stream.send(events);
      if (events.length < 100) break;
    }
  } catch {
    // The database is away for a moment: the next poll tries again, from the same position.
  } finally {
    live.polling = false;
  }
}

function watch(stream: Stream): () => void {
  live.streams.add(stream);
  live.timer ??= setInterval(() => void poll(), POLL_MS);
  return () => {
    live.streams.delete(stream);
    if (live.streams.size === 0 && live.timer) {
      clearInterval(live.timer);
      live.timer = undefined;
      live.last = undefined; // the next first stream starts from the newest
    }
  };
}

/** Ends every open stream (server.ts at shutdown: a stream would otherwise hold the connection to the end). */
export function endLiveStreams(): void {
  for (const stream of [...live.streams]) stream.end();
}

/** What a stream tells the admin app of an event: its type and the resource's id, which is what a page refetches. */
function message(event: StoredEvent): string {
  const id = /^\{\s*"id"\s*:\s*(\d+)/.exec(event.data)?.[1] ?? "";
  return `id: ${event.id}\nevent: change\ndata: ${JSON.stringify({ type: event.type, id })}\n\n`;
}

/**
 * A server-sent events stream of every change from `after` on: first what was missed (at most BACKLOG_LIMIT, else a
 * `reset` event: read everything again), then each new event as the poller reads it, and a heartbeat comment. Without
 * `after` it starts at the newest event. Ends when the client goes (`signal`) or the server shuts down.
 */
export function liveStream(
  after: bigint | undefined,
  signal: AbortSignal,
  stillAllowed: () => Promise<boolean> = () => Promise.resolve(true),
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let stop = () => {};
  return new ReadableStream<Uint8Array>(
    {
      async start(controller) {
        let position = after;
        let open = true;
        const write = (text: string) => {
          if (!open) return;
          // A client that stopped reading: end its stream rather than hold what it does not read. It reconnects
          // with its Last-Event-ID and gets what it missed.
          if ((controller.desiredSize ?? 1) <= 0) return stop();
          controller.enqueue(encoder.encode(text));
        };
        const held: StoredEvent[] = [];
        let caughtUp = false;
        const sendNew = (events: StoredEvent[]) => {
          const fresh = events.filter((event) => position === undefined || event.id > position);
          if (fresh.length === 0) return;
          position = fresh.at(-1)!.id;
          write(fresh.map(message).join(""));
        };
        const stream: Stream = {
          send: (events) => (caughtUp ? sendNew(events) : held.push(...events)),
          end: () => stop(),
        };
        if (signal.aborted) return controller.close();
        const unwatch = watch(stream);
        const heartbeat = setInterval(() => write(": heartbeat\n\n"), HEARTBEAT_MS);
        // A session signed out, expired or disabled meanwhile ends the stream; the page's reconnection is refused.
        const recheck = setInterval(() => {
          stillAllowed().then(
            (allowed) => allowed || stop(),
            () => {}, // the database is away for a moment: the next check decides
          );
        }, SESSION_CHECK_MS);
        stop = () => {
          if (!open) return;
          open = false;
          clearInterval(heartbeat);
          clearInterval(recheck);
          unwatch();
          try {
            controller.close();
          } catch {
            // cancelled by the reader already
          }
        };
        signal.addEventListener("abort", stop, { once: true });
        write("retry: 2000\n\n");
        try {
          const newest = await newestEventId();
          live.last ??= newest;
          // A position this database never reached (another database's, a restore's), or one before what
          // housekeeping has deleted: what was missed cannot be told event by event, so the page reads everything.
          const oldest = position === undefined ? undefined : await oldestEventId();
          const lost =
            position !== undefined && (position > newest || (oldest !== undefined && position < oldest - 1n));
          // What committed since `position`, whether the poller has passed it already or not: the poller's later
          // reads are held meanwhile, and whatever both bring is sent once (sendNew skips what is not newer).
          const missed = lost ? [] : await listEvents({ after: position ?? newest, limit: BACKLOG_LIMIT + 1 });
          if (lost || missed.length > BACKLOG_LIMIT) {
            position = await newestEventId();
            write(`id: ${position}\nevent: reset\ndata: {}\n\n`);
          } else {
            position ??= newest;
            sendNew(missed);
          }
        } catch {
          stop(); // the client reconnects, with its Last-Event-ID
          return;
        }
        caughtUp = true;
        sendNew(held.splice(0));
      },
      cancel() {
        stop();
      },
    },
    // What a slow reader may leave unread before its stream is ended (see write).
    new ByteLengthQueuingStrategy({ highWaterMark: 1024 * 1024 }),
  );
}
