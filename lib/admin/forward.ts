import "server-only";
import { adminKeyId, type SignedInCaller } from "@/lib/admin/guard";
import { forgetAdminAppKey } from "@/lib/auth/admin-key";
import { Refusal } from "@/lib/refusal";
import { clientAddress } from "@/lib/http/forwarded";
import { log } from "@/lib/log";
import { nextCursorOf } from "@/lib/pets/cursor";
import { dispatchV1 } from "@/lib/v1/router";

// How the admin endpoints reach the catalogue: one in-process call of the very same /v1 route
// functions an API client gets — router, route wrapper, validation, refusals and handlers — with the admin app's
// key named by its id, the signed-in staff member and their address, all passed beside the request (never in a
// header, so nothing a client sends can claim either). The admin endpoint has already counted the
// request against that staff member's own rate-limit bucket (lib/admin/guard.ts), and says so beside
// it, so /v1 does not count it a second time. The browser gets back the status, the body as /v1 wrote it, the
// request id, the rate limit, and the next page's cursor; nothing of the key comes back out.

// Never resolved or connected to: the Request is handed to dispatchV1 as an object.
const IN_PROCESS_ORIGIN = "http://admin-app.internal";

/** Calls /v1 at `pathAndQuery` for the caller, with the method, Content-Type and body of the browser's request. */
export async function forwardToV1(
  request: Request,
  requestId: string,
  caller: SignedInCaller,
  pathAndQuery: string,
): Promise<Response> {
  const headers = new Headers({ "X-Request-Id": requestId });
  for (const name of ["content-type", "content-length", "if-match", "if-none-match", "idempotency-key"]) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  // The body is streamed through, not buffered: /v1 enforces its limit (16 KiB; a batch 32 KiB) on it as it reads.
  const init: RequestInit & { duplex?: "half" } = {
    method: request.method,
    headers,
    body: hasBody ? request.body : undefined,
    duplex: hasBody ? "half" : undefined,
  };
  const url = new URL(pathAndQuery, IN_PROCESS_ORIGIN);
  const dispatch = (keyId: number) =>
    dispatchV1(new Request(url, init), {
      adminKeyId: keyId,
      actingStaff: caller.staff,
      actingAddress: clientAddress(request),
      counted: { limits: caller.limits },
    });

  let keyId = await adminKeyId(requestId);
  let answer = await dispatch(keyId);
  if (answer.status === 401) {
    // Only the admin app's key can be refused here: revoked since this instance looked it up. /v1 refuses
    // before it reads the body, so the request goes once more with the key the app has now (found, or
    // created in its place).
    await forgetAdminAppKey(keyId);
    log("info", "admin app API key revoked; looking up the current one", { requestId, keyId });
    if (hasBody && request.bodyUsed) throw new Refusal("admin_key_refused");
    keyId = await adminKeyId(requestId);
    answer = await dispatch(keyId);
  }
  if (answer.status === 401) {
    log("error", "admin app API key refused by /v1", { requestId, keyId });
    throw new Refusal("admin_key_refused");
  }
  const forwarded = new Headers({ "Content-Type": answer.headers.get("content-type") ?? "application/json" });
  const cursor = nextCursorOf(answer.headers.get("link"));
  if (cursor) forwarded.set("X-Next-Cursor", cursor);
  const passed = [
    "retry-after",
    "ratelimit",
    "ratelimit-policy",
    "allow",
    "etag",
    "accept-patch",
    "idempotent-replayed",
    "content-disposition",
  ];
  for (const name of passed) {
    const value = answer.headers.get(name);
    if (value !== null) forwarded.set(name, value);
  }
  return new Response(answer.body, { status: answer.status, headers: forwarded });
}
