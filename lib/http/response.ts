import "server-only";

// The Response the API's answers are made with. The standard one by default; in the custom server's own module graph
// (server.ts, which sends /v1 and the session endpoint straight to their route functions), @hono/node-server's
// lightweight Response, which its bridge writes to the socket as it was given: a string or bytes body without the
// ReadableStream a standard Response makes of it, a Headers object only once something asks for one. Both answer
// every property alike (the lightweight one makes the standard one behind it when asked for anything else), so a
// route function cannot tell them apart; Next's bundles, which share the process, keep the standard one
// (docs/performance.md, request cost).

let answerClass: typeof Response = Response;

/** Has `respond` make responses of this class: server.ts, once, before it serves anything. */
export function answerWithClass(responseClass: typeof Response): void {
  answerClass = responseClass;
}

/** `new Response(body, init)`, of the class in use. */
export function respond(body?: BodyInit | null, init?: ResponseInit): Response {
  return new answerClass(body, init);
}
