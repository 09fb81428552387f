import "server-only";
import http from "node:http";
import https from "node:https";
import { checkLiteralHost, guardedLookup, UnsafeUrl } from "@/lib/webhooks/address";

// One attempt at delivering a webhook: a POST of the body with its headers, answered 2xx within ATTEMPT_TIMEOUT_MS
// or failed. Redirects are not followed (a 3xx is a failure: the endpoint's URL is the one an admin approved), the
// connection goes only to checked addresses (lib/webhooks/address.ts), and at most RESPONSE_LIMIT_BYTES of the
// answer are read: a receiver cannot make the store hold a large or endless answer.

export const ATTEMPT_TIMEOUT_MS = 10_000;
export const RESPONSE_LIMIT_BYTES = 64 * 1024;
/** How much of an answer's body is kept for the Webhooks page. */
const RESPONSE_KEPT_CHARS = 1000;

export type AttemptResult = {
  ok: boolean;
  /** The answer's status, when one came. */
  status?: number;
  /** Why it failed, when it did without a status (timeout, refused address, connection error). */
  error?: string;
  durationMs: number;
  /** The first characters of the answer's body. */
  response?: string;
};

/**
 * The start of a receiver's answer as the Webhooks page shows it: control characters (a NUL, which PostgreSQL's
 * text refuses, and the rest) as U+FFFD, at most RESPONSE_KEPT_CHARS.
 */
export function keptText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.slice(0, RESPONSE_KEPT_CHARS).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "\ufffd");
}

const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 16 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 16 }),
};

export function sendAttempt(url: URL, headers: Record<string, string>, body: string): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<AttemptResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    try {
      checkLiteralHost(url);
    } catch (error) {
      settled = true;
      resolve({ ok: false, error: (error as Error).message, durationMs: 0 });
      return;
    }
    const protocol = url.protocol === "https:" ? https : http;
    const request = protocol.request(url, {
      method: "POST",
      agent: agents[url.protocol as keyof typeof agents],
      lookup: guardedLookup,
      headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
    });
    const timer = setTimeout(() => {
      finish({ ok: false, error: `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s` });
      request.destroy();
    }, ATTEMPT_TIMEOUT_MS);
    request.on("error", (error: NodeJS.ErrnoException) => {
      const why = error instanceof UnsafeUrl ? error.message : `${error.code ?? "error"}: ${error.message}`;
      finish({ ok: false, error: keptText(why) });
    });
    request.on("response", (response) => {
      const status = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let bytes = 0;
      const done = () =>
        finish({
          ok: status >= 200 && status < 300,
          status,
          response: keptText(Buffer.concat(chunks).toString("utf8")),
        });
      response.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes <= RESPONSE_LIMIT_BYTES) chunks.push(chunk);
        else {
          // Enough has been read: the status stands, the rest is not waited for.
          chunks.push(chunk.subarray(0, chunk.length - (bytes - RESPONSE_LIMIT_BYTES)));
          done();
          response.destroy();
        }
      });
      response.on("end", done);
      response.on("error", done);
    });
    request.end(body);
  });
}
