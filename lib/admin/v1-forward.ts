import "server-only";
import { dispatchV1 } from "@/lib/api/v1-router";
import { adminApiKey, forgetAdminApiKey } from "@/lib/admin/api-key";
import { AdminError } from "@/lib/admin/route";
import { ConfigError } from "@/lib/config";
import { log } from "@/lib/log";

// How the admin endpoints reach the catalogue: they call the very same /v1 contract in-process —
// the same router, wrapper, validation, errors and handlers an API client gets — with the admin
// app's key, and hand the browser the status, the body as /v1 wrote it, the request id, and the next
// page's cursor. The key goes into the in-process request only; nothing of it comes back out.

// Never resolved or connected to: the Request is handed to dispatchV1 as an object.
const IN_PROCESS_ORIGIN = "http://admin-app.internal";

/** The cursor of a Link rel="next" header, for the browser's Next button. */
export function nextCursor(link: string | null): string | undefined {
  const target = link ? /<([^>]+)>\s*;\s*rel="next"/.exec(link)?.[1] : undefined;
  return target ? (new URL(target, IN_PROCESS_ORIGIN).searchParams.get("cursor") ?? undefined) : undefined;
}

/** Calls /v1 at `pathAndQuery` with the method, Content-Type and body of the browser's request. */
export async function forwardToV1(request: Request, requestId: string, pathAndQuery: string): Promise<Response> {
  const { key } = await adminApiKey().catch((error: unknown) => {
    // ADMIN_API_KEY revoked while the app runs: not a bug of this request; say so, and log why.
    if (!(error instanceof ConfigError)) throw error;
    log("error", "admin app API key unusable", { requestId, error: error.message });
    throw new AdminError("admin_key_refused");
  });
  const headers = new Headers({ Authorization: `Bearer ${key}`, "X-Request-Id": requestId });
  for (const name of ["content-type", "content-length"]) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  // The body is streamed through, not buffered: /v1 enforces its 16 KiB limit on it as it reads.
  const init: RequestInit & { duplex?: "half" } = { method: request.method, headers, body: hasBody ? request.body : undefined, duplex: hasBody ? "half" : undefined };
  const answer = await dispatchV1(new Request(new URL(pathAndQuery, IN_PROCESS_ORIGIN), init));

  if (answer.status === 401) {
    // Only our own key can be refused here: revoked since start-up. The next request resolves it again.
    forgetAdminApiKey();
    log("error", "admin app API key refused by /v1", { requestId });
    throw new AdminError("admin_key_refused");
  }
  const forwarded = new Headers({ "Content-Type": answer.headers.get("content-type") ?? "application/json" });
  const cursor = nextCursor(answer.headers.get("link"));
  if (cursor) forwarded.set("X-Next-Cursor", cursor);
  for (const name of ["retry-after", "allow"]) {
    const value = answer.headers.get(name);
    if (value !== null) forwarded.set(name, value);
  }
  return new Response(await answer.text(), { status: answer.status, headers: forwarded });
}
