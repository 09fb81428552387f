// A lane that starts at most one piece of work per turn of the event loop, in arrival order. The custom
// server sends sign-in requests through it: a flood of them from many connections at once would otherwise
// have every request's parsing, body read and refusal run back to back in one turn, ahead of a /v1 request
// that became ready in the same turn. Through the lane each turn runs one sign-in's start beside whatever
// else is ready, so the flood costs another request at most that much per turn; when nothing else is
// waiting the turns are microseconds apart and a refusal is still answered at once.

/**
 * Queues `start`, which must not throw (the server's catches what its request handler throws or rejects); false,
 * and nothing queued, when `limit` starts are waiting already.
 */
export type Lane = (start: () => void) => boolean;

export function onePerTurn(limit = Infinity): Lane {
  const queue: (() => void)[] = [];
  let scheduled = false;
  const startNext = () => {
    queue.shift()?.();
    if (queue.length) setImmediate(startNext);
    else scheduled = false;
  };
  return (start) => {
    if (queue.length >= limit) return false;
    queue.push(start);
    if (!scheduled) {
      scheduled = true;
      setImmediate(startNext);
    }
    return true;
  };
}
