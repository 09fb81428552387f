import "server-only";
import { Refusal } from "@/lib/refusal";
import { JsonDepthGauge, JsonTooDeepError, MAX_JSON_DEPTH, parseJson } from "@/lib/http/json";

export const BODY_LIMIT_BYTES = 16 * 1024;

/** A 400 about a body that cannot be read as JSON: like every 400 about the body, it names the body. */
function unreadable(message: string): Refusal {
  return new Refusal("invalid_json", { message, errors: [{ path: "", message }] });
}

function tooDeep(): Refusal {
  return unreadable(
    `The request body is nested too deeply: at most ${MAX_JSON_DEPTH} levels of arrays and objects are accepted.`,
  );
}

/** The media type of a body without its parameters, lower-cased. */
function mediaTypeOf(contentType: string | null): string {
  return contentType?.split(";", 1)[0].trim().toLowerCase() ?? "";
}

/** application/json, or any application/*+json, whatever its parameters. */
function isJsonMediaType(essence: string): boolean {
  return essence === "application/json" || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(essence);
}

/** The body types a PATCH takes (RFC 7396's own, and plain JSON), as the Accept-Patch header lists them. */
export const MERGE_PATCH_TYPES = ["application/merge-patch+json", "application/json"];

/**
 * Reads a JSON request body of at most `limit` bytes (16 KiB unless an operation needs more), nested at most
 * MAX_JSON_DEPTH deep. A declared length over the limit is refused before any of the body is read; an undeclared
 * one as soon as it passes the limit or the depth. `mediaTypes` narrows the accepted types (else any JSON type); a
 * body of another type is a 415 that lists them in Accept-Patch.
 */
export async function readJsonBody(
  request: Request,
  mediaTypes?: string[],
  limit = BODY_LIMIT_BYTES,
): Promise<{ json: unknown; text: string }> {
  const type = mediaTypeOf(request.headers.get("content-type"));
  if (mediaTypes ? !mediaTypes.includes(type) : !isJsonMediaType(type)) {
    if (!mediaTypes) throw new Refusal("unsupported_media_type");
    throw new Refusal("unsupported_media_type", {
      message: `The request body must be sent as Content-Type: ${mediaTypes.join(" or ")}.`,
      headers: { "Accept-Patch": mediaTypes.join(", ") },
    });
  }
  const tooLarge = () =>
    limit === BODY_LIMIT_BYTES
      ? new Refusal("payload_too_large")
      : new Refusal("payload_too_large", { message: `The request body is larger than ${limit / 1024} KiB.` });
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge();

  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.headers.has("content-length")) {
    // The length is declared and within the limit, and HTTP framing holds the body to it: read it whole.
    const whole = new Uint8Array(await request.arrayBuffer());
    chunks.push(whole);
    size = whole.byteLength;
  } else if (request.body) {
    const reader = request.body.getReader();
    const depth = new JsonDepthGauge();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      // The depth is judged on the first 16 KiB whatever the chunks' sizes, so the same body always gets
      // the same answer. The rest is left unread: the HTTP layer drains a little of it, then closes.
      if (!depth.feed(chunk.value.subarray(0, Math.max(0, BODY_LIMIT_BYTES - size)))) throw tooDeep();
      size += chunk.value.byteLength;
      if (size > limit) throw tooLarge();
      chunks.push(chunk.value);
    }
  }
  if (size === 0) throw unreadable("The request body is empty; send a JSON object.");

  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw unreadable("The request body is not valid UTF-8.");
  }
  try {
    return { json: parseJson(text), text };
  } catch (error) {
    // parseJson scans the depth before it parses: a body too deep is refused without any recursion.
    if (error instanceof JsonTooDeepError) throw tooDeep();
    throw unreadable(
      `The request body is not valid JSON: ${error instanceof Error ? error.message : "it cannot be parsed"}.`,
    );
  }
}

/**
 * Reads a request body of at most `limit` bytes, whatever its type (a file upload). A declared length over the
 * limit is refused before any of the body is read, an undeclared one as soon as it passes the limit: never read
 * whole first. `tooLarge` is the 413's message.
 */
export async function readLimitedBytes(request: Request, limit: number, tooLarge: string): Promise<Uint8Array> {
  // The rest of the body is left unsent or unread: the connection is closed after the answer, so that a client
  // does not send its next request on a connection still carrying this one's body.
  const refusal = () => new Refusal("payload_too_large", { message: tooLarge, headers: { Connection: "close" } });
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw refusal();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      size += chunk.value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        throw refusal();
      }
      chunks.push(chunk.value);
    }
  }
  return Buffer.concat(chunks, size);
}
