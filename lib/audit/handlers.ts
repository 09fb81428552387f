import "server-only";
import { z } from "zod";
import type { SignedInCaller } from "@/lib/admin/guard";
import {
  activityFilterShape,
  activityQuerySchema,
  listActivity,
  type ActivityFilters,
  type ActivityPage,
  type ActivityRecord,
} from "@/lib/audit/activity";
import { csvLine } from "@/lib/csv/write";
import { json, type Handler } from "@/lib/http/api-route";
import { Refusal } from "@/lib/refusal";
import { stringifyJson } from "@/lib/http/json";
import { parseOrThrow, pathParam } from "@/lib/http/validation";
import { log } from "@/lib/log";
import { decodeCursor, encodeCursor } from "@/lib/pets/cursor";
import { queryOf } from "@/lib/pets/handlers";
import { petIdSchema } from "@/lib/pets/schema";
import { orderIdSchema } from "@/lib/orders/schema";

// The activity log's endpoints: a page of records (admins), the same records as a CSV download (admins), and
// one pet's or one order's own history (any staff member). Each parses its query, reads through
// lib/audit/activity.ts and shapes the answer; the next page's cursor travels in X-Next-Cursor, as the catalogue's
// does.

/** The id a cursor stands for; one this app did not issue is a 400 naming it. */
function beforeIdOf(cursor: string | undefined): bigint | undefined {
  if (cursor === undefined) return undefined;
  // The activity log walks ids downwards: its cursors are the catalogue's id-order ones ("after id N").
  const position = decodeCursor(cursor);
  const id = position?.sort === "id" ? position.id : undefined;
  if (id === undefined) {
    throw new Refusal("invalid_query", {
      message: "Invalid query: cursor is not one this app issued; take it from an X-Next-Cursor header.",
      errors: [{ path: "cursor", message: "cursor is not one this app issued" }],
    });
  }
  return id;
}

async function page(
  filters: ActivityFilters,
  query: { limit: number; cursor?: string },
  shape: (record: ActivityRecord) => object = (record) => record,
): Promise<Response> {
  const { records, more } = await listActivity({ ...filters, limit: query.limit, beforeId: beforeIdOf(query.cursor) });
  const last = records.at(-1);
  const headers: Record<string, string> =
    more && last ? { "X-Next-Cursor": encodeCursor({ sort: "id", id: BigInt(last.id) }) } : {};
  return json(records.map(shape), { headers });
}

// GET /admin/api/activity — a page of the activity log, newest first
export const activityHandler: Handler<SignedInCaller> = async ({ url }) => {
  const { limit, cursor, ...filters } = parseOrThrow(
    activityQuerySchema,
    queryOf(url),
    "invalid_query",
    "Invalid query",
  );
  return page(filters, { limit, cursor });
};

const historyQuerySchema = activityQuerySchema.omit({ actor: true, action: true, pet: true });

/**
 * A record as any staff member may read it in a pet's history: without the client's address and the request's id,
 * which say where admins and API clients work from; the admins' own log keeps them.
 */
function historyRecord({ clientAddress: _address, requestId: _requestId, ...record }: ActivityRecord) {
  return record;
}

// GET /admin/api/pets/{petId}/history — one pet's records, newest first (a deleted pet's too)
export const petHistoryHandler: Handler<SignedInCaller> = async ({ url, params }) => {
  const petId = pathParam(params, "petId", petIdSchema);
  const query = parseOrThrow(historyQuerySchema, queryOf(url), "invalid_query", "Invalid query");
  return page({ pet: String(petId) }, query, historyRecord);
};

// GET /admin/api/orders/{orderId}/history — one order's records, newest first: its timeline, with who did what
export const orderHistoryHandler: Handler<SignedInCaller> = async ({ url, params }) => {
  const orderId = pathParam(params, "orderId", orderIdSchema);
  const query = parseOrThrow(historyQuerySchema, queryOf(url), "invalid_query", "Invalid query");
  return page({ order: String(orderId) }, query, historyRecord);
};

const exportQuerySchema = z.strictObject(activityFilterShape, {
  error: (issue) => (issue.code === "unrecognized_keys" ? undefined : "invalid query"),
});

/** Rows read per query while the export streams: the log is never held in memory whole. */
export const EXPORT_PAGE_SIZE = 500;

const CSV_HEADER = [
  "id",
  "at",
  "actor_type",
  "actor_id",
  "actor",
  "action",
  "target_type",
  "target_id",
  "target",
  "summary",
  "client_address",
  "request_id",
  "details",
];

function csvRow(record: ActivityRecord): string {
  return csvLine([
    record.id,
    record.at,
    record.actor.type,
    record.actor.id,
    record.actor.label,
    record.action,
    record.target.type,
    record.target.id,
    record.target.label,
    record.summary,
    record.clientAddress,
    record.requestId,
    record.details === null ? null : stringifyJson(record.details),
  ]);
}

// GET /admin/api/activity/export — the filtered log as CSV, streamed page by page
export const exportHandler: Handler<SignedInCaller> = async ({ url, requestId }) => {
  const filters = parseOrThrow(exportQuerySchema, queryOf(url), "invalid_query", "Invalid query");
  const encoder = new TextEncoder();
  let beforeId: bigint | undefined;
  let started = false;
  let done = false;
  // One page per pull: the next is read only once the client has taken the last, so a slow download holds
  // one page, never the log.
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(csvLine(CSV_HEADER)));
      }
      if (done) {
        controller.close();
        return;
      }
      let page: ActivityPage;
      try {
        page = await listActivity({ ...filters, limit: EXPORT_PAGE_SIZE, beforeId });
      } catch (error) {
        // The status line has gone: the download ends cut short, and the log says why.
        log("error", "activity export failed", { requestId, error: String(error) });
        throw error;
      }
      const { records, more } = page;
      if (records.length > 0) controller.enqueue(encoder.encode(records.map(csvRow).join("")));
      const last = records.at(-1);
      if (more && last) beforeId = BigInt(last.id);
      else done = true;
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8; header=present",
      "Content-Disposition": `attachment; filename="activity-${day}.csv"`,
    },
  });
};
