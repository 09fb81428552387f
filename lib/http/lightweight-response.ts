import "server-only";
import { getRequestListener } from "@hono/node-server";

// Imported by server.ts alone (and its unit test): Next's bundles, which import lib/http/response.ts, need not carry
// @hono/node-server.

/**
 * @hono/node-server's lightweight Response, for answerWithClass in the custom server. The package offers it only by
 * installing it as the global Response (its overrideGlobalObjects), which Next, sharing this process, must not see:
 * it is installed and the standard classes are put back at once, before anything else runs; the class is kept.
 * Should a version not install it, the standard one stays in use.
 */
export function lightweightResponse(): typeof Response {
  const names = ["Request", "Response"] as const;
  const standard = names.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)] as const);
  const StandardResponse = globalThis.Response;
  getRequestListener(() => new StandardResponse(null), { overrideGlobalObjects: true });
  const lightweight = globalThis.Response;
  for (const [name, descriptor] of standard) if (descriptor) Object.defineProperty(globalThis, name, descriptor);
  return lightweight;
}
