"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { RequestId } from "@/components/admin/form-fields";
import { OrderStatusBadge } from "@/components/admin/status-badge";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClass } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { focusRing } from "@/components/ui/focus-ring";
import { DateTime } from "@/components/ui/date-time";
import { AdminRequestError } from "@/lib/client/admin-api";
import {
  changeOrder,
  fetchOrder,
  fetchOrderHistory,
  movesOf,
  ORDERS_KEY,
  type Order,
  type OrderTransition,
} from "@/lib/client/orders-api";
import { PETS_KEY, petQueryKey } from "@/lib/client/pet-cache";

// One order beside the Orders list, opened by ?order=<id>: its pet, customer, timeline (who did what, when) and the
// buttons its status allows. Deliver and cancel ask first, naming the pet and the customer. Every change carries
// the ETag the panel read (If-Match): a colleague's change made meanwhile is told in words with the order as it is
// now, never overtaken.

const verbs: Record<OrderTransition, { label: string; done: string; pending: string }> = {
  approve: { label: "Approve", done: "approved", pending: "Approving…" },
  deliver: { label: "Deliver", done: "delivered", pending: "Delivering…" },
  cancel: { label: "Cancel order", done: "cancelled", pending: "Cancelling…" },
};

function orderQueryKey(id: string) {
  return [...ORDERS_KEY, "one", id] as const;
}

function petOf(order: Order): string {
  return order.petName;
}

export function OrderPanel({ id, closeHref }: { id: string; closeHref: string }) {
  const client = useQueryClient();
  const heading = useRef<HTMLHeadingElement>(null);
  const [confirming, setConfirming] = useState<OrderTransition | undefined>();
  const [conflict, setConflict] = useState<{ tried: OrderTransition; message: string } | undefined>();
  const [done, setDone] = useState("");
  const query = useQuery({ queryKey: orderQueryKey(id), queryFn: () => fetchOrder(id) });
  const history = useQuery({ queryKey: [...orderQueryKey(id), "history"], queryFn: () => fetchOrderHistory(id) });
  const order = query.data?.order;

  useEffect(() => heading.current?.focus(), [id]);

  // A status this panel did not set arrived (a colleague's change, through the live stream or a refetch): say so,
  // since the buttons it allowed may have gone, and if the focus went with them, put it on the heading.
  const status = order?.status;
  const ownStatus = useRef<string>(undefined);
  const seen = useRef<{ id: string; status: string }>(undefined);
  useEffect(() => {
    if (!status) return;
    const last = seen.current;
    seen.current = { id, status };
    if (last?.id !== id || last.status === status || status === ownStatus.current) return;
    setDone(`Order #${id} is now ${status}: someone else changed it.`);
    if (document.activeElement === document.body) heading.current?.focus();
  }, [id, status]);

  const change = useMutation({
    mutationFn: (transition: OrderTransition) => changeOrder(id, transition, query.data?.etag ?? ""),
    // Before the request: the live stream may bring this change's own event before its answer.
    onMutate: (transition) => void (ownStatus.current = verbs[transition].done),
    onSuccess: (answer, transition) => {
      client.setQueryData(orderQueryKey(id), answer);
      setConflict(undefined);
      setDone(`Order #${id} ${verbs[transition].done}.`);
    },
    onError: (error, transition) => {
      ownStatus.current = undefined; // not made: that status, if it comes, is someone else's
      if (error instanceof AdminRequestError && (error.status === 409 || error.status === 412)) {
        setConflict({ tried: transition, message: error.message });
        setDone("");
      }
    },
    onSettled: () => {
      setConfirming(undefined);
      // The order, the list, the counts, and the pet whose status moved.
      void client.invalidateQueries({ queryKey: ORDERS_KEY });
      void client.invalidateQueries({ queryKey: PETS_KEY });
      if (order) void client.invalidateQueries({ queryKey: petQueryKey(String(order.petId)) });
    },
  });
  const failed = change.error && !conflict ? change.error : undefined;

  return (
    <section
      aria-labelledby="order-panel-title"
      className="order-first h-fit min-w-0 rounded-lg border border-indigo-200 bg-white p-4 lg:order-none"
      data-testid="order-panel"
    >
      <div className="flex items-start justify-between gap-3">
        <h2
          id="order-panel-title"
          ref={heading}
          tabIndex={-1}
          className={`min-w-0 text-lg font-semibold break-words ${focusRing}`}
        >
          Order #{id}
        </h2>
        <Link href={closeHref} scroll={false} className={buttonClass({ className: "shrink-0" })}>
          Close
        </Link>
      </div>

      {query.isError ? (
        <Alert className="mt-3">
          <p>This order could not be loaded: {query.error.message}</p>
          {query.error instanceof AdminRequestError ? <RequestId id={query.error.requestId} /> : null}
        </Alert>
      ) : !order ? (
        <p className="mt-3 text-sm text-slate-600">Loading the order…</p>
      ) : (
        <>
          <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-600">Pet</dt>
            <dd className="break-words">
              <Link
                href={`/admin?pet=${String(order.petId)}`}
                className={`text-indigo-800 underline ${focusRing}`}
                data-testid="order-pet"
              >
                {order.petName}
              </Link>{" "}
              <span className="text-slate-600">(#{String(order.petId)})</span>
            </dd>
            <dt className="text-slate-600">Customer</dt>
            <dd className="break-words" data-testid="order-customer">
              {order.customerName}
              {order.customerEmail ? <span className="block text-slate-700">{order.customerEmail}</span> : null}
            </dd>
            <dt className="text-slate-600">Status</dt>
            <dd data-testid="order-status">
              <OrderStatusBadge status={order.status} />
              {order.expiresAt ? (
                <span className="ml-2 text-slate-700">
                  holds the pet until <DateTime at={order.expiresAt} />
                </span>
              ) : null}
            </dd>
          </dl>

          {conflict ? (
            <Alert tone="warning" className="mt-3">
              <p className="font-medium">This order was changed meanwhile.</p>
              <p className="mt-1">
                {query.isFetching ? "Reading it again…" : `It is now ${order.status}.`} Your change (
                {verbs[conflict.tried].label.toLowerCase()}) was not made: {conflict.message}
              </p>
            </Alert>
          ) : null}
          {failed ? (
            <Alert className="mt-3">
              <p>The change was not made: {failed.message}</p>
              {failed instanceof AdminRequestError ? <RequestId id={failed.requestId} /> : null}
            </Alert>
          ) : null}
          <p role="status" className="mt-2 min-h-5 text-sm text-emerald-800">
            {done}
          </p>

          <Moves
            order={order}
            busy={change.isPending}
            onMove={(transition) => (transition === "approve" ? change.mutate(transition) : setConfirming(transition))}
          />
          <ConfirmDialog
            open={confirming !== undefined}
            idPrefix="order-confirm"
            size="small"
            tone={confirming === "deliver" ? "primary" : "danger"}
            title={
              confirming === "deliver"
                ? `Deliver ${petOf(order)} to ${order.customerName}?`
                : `Cancel the order of ${petOf(order)} for ${order.customerName}?`
            }
            description={
              confirming === "deliver"
                ? `The pet is sold: it becomes sold in the catalogue.`
                : `The pet is available again at once, for anyone to order.`
            }
            confirmLabel={confirming ? verbs[confirming].label : ""}
            pendingLabel={confirming ? verbs[confirming].pending : undefined}
            pending={change.isPending}
            onConfirm={() => confirming && change.mutate(confirming)}
            onCancel={() => setConfirming(undefined)}
          />

          <h3 className="mt-5 text-sm font-semibold">Timeline</h3>
          {history.isError ? (
            <p className="mt-1 text-sm text-red-800">The timeline could not be loaded: {history.error.message}</p>
          ) : !history.data ? (
            <p className="mt-1 text-sm text-slate-600">Loading…</p>
          ) : (
            <ol className="mt-2 space-y-2 text-sm" data-testid="order-timeline">
              {[...history.data].reverse().map((record) => (
                <li key={record.id}>
                  <DateTime at={record.at} className="block text-xs text-slate-600" />
                  {record.summary}
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}

/** The buttons the order's status allows; none, with the reason, when it is over. */
function Moves({ order, busy, onMove }: { order: Order; busy: boolean; onMove: (move: OrderTransition) => void }) {
  const moves = movesOf(order.status);
  if (moves.length === 0) {
    return <p className="mt-3 text-sm text-slate-700">This order is {order.status}: nothing more can be done to it.</p>;
  }
  return (
    <div role="group" aria-label="Change the order" className="mt-3 flex flex-wrap gap-2">
      {moves.map((move) => (
        <Button
          key={move}
          variant={move === "cancel" ? "dangerOutline" : move === "deliver" ? "primary" : "plain"}
          aria-disabled={busy}
          aria-haspopup={move === "approve" ? undefined : "dialog"}
          onClick={() => !busy && onMove(move)}
        >
          {move === "approve" ? verbs[move].label : `${verbs[move].label}…`}
        </Button>
      ))}
    </div>
  );
}
