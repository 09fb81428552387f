import "server-only";
import { getRequestListener } from "@hono/node-server";

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

/**
 * @hono/node-server's lightweight Response, for answerWithClass in the custom server. The package offers it only by
 * installing it as the global Response (its overrideGlobalObjects), which Next, sharing this process, must not see:
 * it is installed and the standard classes are put back at once, before anything else runs; the class is kept.
 * Should a version not install it, the standard one stays in use.
 */
export function lightweightResponse(): typeof Response {
  const standard = { Request: globalThis.Request, Response: globalThis.Response };
  getRequestListener(() => new standard.Response(null), { overrideGlobalObjects: true });
  const lightweight = globalThis.Response;
  for (const [name, value] of Object.entries(standard))
    Object.defineProperty(globalThis, name, { value, writable: true, enumerable: false, configurable: true });
  return lightweight;
}
