"use client";

import { RequestId } from "@/components/admin/form-fields";
import { Badge, When } from "@/components/admin/webhooks-parts";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { AdminRequestError } from "@/lib/client/admin-api";
import { useDeliveries, type DeliveryView, type EndpointView } from "@/lib/client/webhooks-api";

// An endpoint's latest deliveries, newest first, read again every 2 s while the page is open: what each carried,
// how it went (the last answer's status or the error, how long it took), when it is tried next, and Resend. On a
// phone the table scrolls sideways inside its own labelled box, never the page.

const TEST_TYPE = "webhook.test";

const stateStyles: Record<DeliveryView["state"], string> = {
  succeeded: "bg-emerald-100 text-emerald-800 ring-emerald-600/30",
  pending: "bg-amber-100 text-amber-900 ring-amber-600/30",
  failed: "bg-red-100 text-red-900 ring-red-600/30",
};

const stateNames: Record<DeliveryView["state"], string> = {
  succeeded: "Succeeded",
  pending: "Pending",
  failed: "Failed",
};

/** What a delivery carried, in words: "test message", "pet.created event 42". */
export function deliveryLabel(delivery: DeliveryView): string {
  return delivery.eventType === TEST_TYPE ? "test message" : `${delivery.eventType} event ${delivery.eventId ?? ""}`;
}

/** The last attempt's result: the answer's status, or why there was none. */
export function lastResult(delivery: DeliveryView): string {
  if (delivery.lastStatus !== null) return `HTTP ${delivery.lastStatus}`;
  return delivery.lastError ?? (delivery.attempts === 0 ? "not sent yet" : "no answer");
}

export function Deliveries({
  endpoint,
  resending,
  onResend,
}: {
  endpoint: EndpointView;
  resending: boolean;
  onResend: (delivery: DeliveryView) => void;
}) {
  const deliveries = useDeliveries(endpoint.id);
  return (
    <div className="mt-4">
      <h4 className="text-base font-semibold">Recent deliveries</h4>
      {deliveries.isPending ? (
        <p className="mt-2 text-sm text-slate-600">Loading the deliveries…</p>
      ) : deliveries.isError ? (
        <Alert className="mt-2">
          <p>The deliveries could not be loaded: {deliveries.error.message}</p>
          {deliveries.error instanceof AdminRequestError ? <RequestId id={deliveries.error.requestId} /> : null}
          <Button variant="onError" className="mt-2" onClick={() => void deliveries.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : deliveries.data.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">
          None yet: send a test event, or wait for the next change in the store.
        </p>
      ) : (
        <DeliveryTable endpoint={endpoint} deliveries={deliveries.data} resending={resending} onResend={onResend} />
      )}
    </div>
  );
}

function DeliveryTable({
  endpoint,
  deliveries,
  resending,
  onResend,
}: {
  endpoint: EndpointView;
  deliveries: DeliveryView[];
  resending: boolean;
  onResend: (delivery: DeliveryView) => void;
}) {
  const headings = ["Event", "State", "Attempts", "Last result", "Duration", "Last attempt", "Next retry"];
  return (
    // Scrolled from the keyboard too: the box takes the focus, and its name says whose deliveries it holds. It is
    // `relative` so that the visually hidden texts (absolutely placed) stay inside it, not widen a phone's page.
    <div
      role="region"
      aria-label={`Deliveries to ${endpoint.url}`}
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling box is scrolled from the keyboard
      tabIndex={0}
      className={
        "relative mt-2 overflow-x-auto rounded-lg border border-slate-200 bg-white " +
        "focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600"
      }
    >
      <table className="w-full text-left text-sm">
        <caption className="sr-only">The latest deliveries to this endpoint, newest first</caption>
        <thead className="bg-slate-100 text-xs tracking-wide text-slate-600 uppercase">
          <tr>
            {headings.map((heading) => (
              <th key={heading} scope="col" className="px-3 py-2 whitespace-nowrap">
                {heading}
              </th>
            ))}
            <th scope="col" className="px-3 py-2">
              <span className="sr-only">Resend</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {deliveries.map((delivery) => (
            <DeliveryRow key={delivery.id} delivery={delivery} resending={resending} onResend={onResend} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function DeliveryRow({
  delivery,
  resending,
  onResend,
}: {
  delivery: DeliveryView;
  resending: boolean;
  onResend: (delivery: DeliveryView) => void;
}) {
  const cell = "px-3 py-2 align-top";
  return (
    <tr data-testid="webhook-delivery">
      <td className={cell}>
        {delivery.eventType === TEST_TYPE ? (
          "Test"
        ) : (
          <>
            <span className="font-mono">{delivery.eventType}</span>
            <span className="block text-xs whitespace-nowrap text-slate-600">event {delivery.eventId}</span>
          </>
        )}
      </td>
      <td className={cell}>
        <Badge look={stateStyles[delivery.state]}>{stateNames[delivery.state]}</Badge>
      </td>
      <td className={`${cell} tabular-nums`}>{delivery.attempts}</td>
      <td className={`${cell} max-w-64 min-w-40 wrap-anywhere`}>{lastResult(delivery)}</td>
      <td className={`${cell} whitespace-nowrap tabular-nums`}>
        {delivery.lastDurationMs === null ? "—" : `${delivery.lastDurationMs} ms`}
      </td>
      <td className={`${cell} whitespace-nowrap`}>
        {delivery.lastAttemptAt ? <When iso={delivery.lastAttemptAt} /> : "—"}
      </td>
      <td className={`${cell} whitespace-nowrap`}>
        {delivery.nextAttemptAt ? <When iso={delivery.nextAttemptAt} /> : "—"}
      </td>
      <td className="px-3 py-1 align-top">
        <Button aria-disabled={resending} onClick={() => !resending && onResend(delivery)}>
          Resend<span className="sr-only"> the {deliveryLabel(delivery)}</span>
        </Button>
      </td>
    </tr>
  );
}
