import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";
import { parseJson, stringifyJson } from "@/lib/http/json";

export type Reply = { status: number; headers: Headers; text: string; body: any };

/** A request to the server under test; `body` objects are sent as JSON, strings as they are. */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.Authorization = `Bearer ${options.key}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : stringifyJson(options.body); // bigints as digits
    headers["Content-Type"] ??= "application/json";
  }
  const response = await fetch(new URL(path, baseUrl), { method, headers, body, redirect: "manual" });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? parseJson(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

/** A raw request over node:http, for what fetch will not send: chunked bodies without a length, odd targets. */
export function rawCall(
  baseUrl: string,
  options: { method: string; path: string; headers?: Record<string, string>; chunks?: Buffer[] },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: options.method,
        path: options.path,
        headers: options.headers,
        agent: false,
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, text }));
      },
    );
    request.on("error", reject); // a no-op once the answer has been read
    for (const chunk of options.chunks ?? []) request.write(chunk);
    request.end();
  });
}

/** rawCall's answer in the shape `call` gives, for assertError. */
export function asReply(raw: Awaited<ReturnType<typeof rawCall>>): Reply {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw.headers)) {
    for (const each of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, each);
  }
  let body: unknown;
  try {
    body = raw.text ? parseJson(raw.text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: raw.status, headers, text: raw.text, body };
}

/**
 * Asserts an Error body: the status, the code, `status` repeated in the body, a message, a request id, no stack
 * trace, and, when `path` is given, an entry of errors[] naming that member ("" for the whole body).
 */
export function assertError(reply: Reply, status: number, code: string, path?: string): void {
  assert.equal(reply.status, status, reply.text);
  assert.match(reply.headers.get("content-type") ?? "", /^application\/json/);
  assert.equal(reply.body.code, code, reply.text);
  assert.equal(reply.body.status, BigInt(status));
  assert.equal(typeof reply.body.message, "string");
  assert.ok(reply.body.message.length > 0);
  assert.ok(reply.headers.get("x-request-id"), "X-Request-Id");
  assert.doesNotMatch(reply.text, /\bat .+\.(ts|js):\d+/, "no stack trace");
  if (path !== undefined) {
    assert.ok(Array.isArray(reply.body.errors), `errors[] in ${reply.text}`);
    assert.ok(
      reply.body.errors.some((error: { path: string }) => error.path === path),
      `errors[] names ${path}: ${reply.text}`,
    );
  }
}

/** Signs a staff member in to the admin app; resolves with the Cookie header that carries the session. */
export async function signInStaff(baseUrl: string, email: string, password: string): Promise<string> {
  const reply = await call(baseUrl, "POST", "/admin/api/session", {
    headers: { Origin: baseUrl },
    body: { email, password },
  });
  assert.equal(reply.status, 200, reply.text);
  return reply.headers.get("set-cookie")!.split(";")[0];
}

/**
 * Sends a request's head announcing a body of `contentLength` bytes, then waits for the answer without sending the
 * body: for a server that refuses from the head alone. (fetch cannot read such an answer on Node 26: the server
 * closes the connection unread, and undici reports the failed write instead of the answer.)
 */
export function headOnlyCall(
  baseUrl: string,
  options: { method: string; path: string; headers: Record<string, string>; contentLength: number },
): Promise<Reply> {
  const url = new URL(baseUrl);
  const head = [
    `${options.method} ${options.path} HTTP/1.1`,
    `Host: ${url.host}`,
    `Content-Length: ${options.contentLength}`,
    ...Object.entries(options.headers).map(([name, value]) => `${name}: ${value}`),
    "",
    "",
  ].join("\r\n");
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port) }, () => socket.write(head));
    const received: Buffer[] = [];
    let settled = false;
    // The answer once it is whole: its head, then Content-Length bytes of body, or whatever came before the close.
    const settle = (closed: boolean) => {
      if (settled) return;
      const text = Buffer.concat(received).toString("utf8");
      const end = text.indexOf("\r\n\r\n");
      const length = end < 0 ? undefined : /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end))?.[1];
      const chunked = end >= 0 && /\r\ntransfer-encoding: *chunked/i.test(text.slice(0, end));
      const whole =
        end >= 0 &&
        (chunked
          ? text.endsWith("\r\n0\r\n\r\n")
          : length !== undefined && Buffer.byteLength(text.slice(end + 4)) >= Number(length));
      if (!whole && !closed) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (end < 0) return reject(new Error(`the connection closed without an answer: ${JSON.stringify(text)}`));
      const [statusLine, ...lines] = text.slice(0, end).split("\r\n");
      const headers: http.IncomingHttpHeaders = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = chunked ? unchunked(text.slice(end + 4)) : text.slice(end + 4);
      resolve(asReply({ status: Number(statusLine.split(" ")[1]), headers, text: body }));
    };
    const timer = setTimeout(() => {
      settled = true;
      socket.destroy();
      reject(new Error("no answer to the head in 10 s"));
    }, 10_000);
    socket.on("data", (chunk: Buffer) => {
      received.push(chunk);
      settle(false);
    });
    socket.on("close", () => settle(true));
    socket.on("error", () => settle(true)); // a reset after the answer: what came is read
  });
}

/** A chunked body's data (ASCII sizes; the bodies here are JSON). */
function unchunked(encoded: string): string {
  let body = "";
  let at = 0;
  for (;;) {
    const lineEnd = encoded.indexOf("\r\n", at);
    const size = lineEnd < 0 ? 0 : parseInt(encoded.slice(at, lineEnd), 16);
    if (!size) return body;
    body += encoded.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}
