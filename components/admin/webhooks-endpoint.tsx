"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Deliveries, deliveryLabel, lastResult } from "@/components/admin/webhooks-deliveries";
import { Badge, failed, OutcomeLines, timeText, When, type Outcome } from "@/components/admin/webhooks-parts";
import { VerifyNote } from "@/components/admin/webhooks-secret";
import { CopyField } from "@/components/ui/copy-field";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { focusRing } from "@/components/ui/focus-ring";
import {
  deliveriesKey,
  fetchSecret,
  resendDelivery,
  rotateSecret,
  sendTestEvent,
  setEndpointState,
  useDeliveries,
  WEBHOOKS_KEY,
  type DeliveryView,
  type EndpointView,
} from "@/lib/client/webhooks-api";

// One webhook endpoint on the Webhooks page: what it receives, its state (and why the worker disabled it), its
// actions, its secret on request, and its recent deliveries. A test event or a resend is followed in the status
// line until it settles, from the deliveries the page polls.

/** What the status line says: an action's outcome, or the delivery it follows. */
type News = Outcome | { kind: "following"; deliveryId: string; what: string };

/** A followed delivery's progress, in a sentence. */
function deliveryNews(what: string, delivery?: DeliveryView): string {
  if (!delivery || delivery.attempts === 0) return `${what} is queued: it is sent within a few seconds.`;
  const result = lastResult(delivery);
  if (delivery.state === "succeeded") return `${what} was delivered: ${result} in ${delivery.lastDurationMs} ms.`;
  if (delivery.state === "failed") return `${what} failed: ${result}. It is not tried again.`;
  const next = delivery.nextAttemptAt ? ` Next attempt at ${timeText(delivery.nextAttemptAt)}.` : "";
  return `${what} was not delivered yet: ${result}.${next}`;
}

/** The status line's outcome: an action's, or the followed delivery's progress as the polled deliveries show it. */
function useNews(endpointId: number) {
  const [news, setNews] = useState<News>();
  const deliveries = useDeliveries(endpointId);
  if (news?.kind !== "following") return { outcome: news, setNews };
  const followed = deliveries.data?.find((delivery) => delivery.id === news.deliveryId);
  const outcome: Outcome = { kind: "done", message: deliveryNews(news.what, followed) };
  return { outcome, setNews };
}

/** The id of an endpoint's heading, which takes the focus once its secret's panel is done. */
export const endpointHeadingId = (id: number) => `webhook-${id}-url`;

export function EndpointItem({ endpoint, onDelete }: { endpoint: EndpointView; onDelete: () => void }) {
  const { outcome, setNews } = useNews(endpoint.id);
  const state = useStateChange(endpoint, setNews);
  const secret = useSecret(endpoint, setNews);
  const sends = useSends(endpoint, setNews);
  const titleId = endpointHeadingId(endpoint.id);

  return (
    <li aria-labelledby={titleId} className="rounded-lg border border-slate-200 bg-white p-4" data-testid="webhook">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={titleId} tabIndex={-1} className={`min-w-0 font-semibold wrap-anywhere ${focusRing}`}>
          {endpoint.url}
        </h3>
        <StateBadge state={endpoint.state} />
      </div>
      <EndpointFacts endpoint={endpoint} />
      <EndpointActions endpoint={endpoint} state={state} secret={secret} sends={sends} onDelete={onDelete} />
      <OutcomeLines outcome={outcome} testId="webhook-news" />
      {secret.shown ? (
        <div className="mt-2 space-y-2 rounded-md border border-slate-200 p-3">
          <CopyField key={secret.shown.value} label={secret.shown.label} value={secret.shown.value} />
          <VerifyNote />
        </div>
      ) : null}
      <Deliveries endpoint={endpoint} resending={sends.pending} onResend={sends.resend} />
      <ConfirmDialog
        open={secret.asking}
        idPrefix={`webhook-${endpoint.id}-rotate`}
        title={<span className="wrap-anywhere">Rotate the secret of {endpoint.url}?</span>}
        description={
          "A new secret signs every message from now on. The old one keeps signing too for 24 hours, so the " +
          "receiver can move to the new one; after that only the new one verifies."
        }
        confirmLabel="Rotate secret"
        pendingLabel="Rotating…"
        tone="primary"
        pending={secret.rotating}
        onConfirm={secret.rotate}
        onCancel={secret.cancel}
      />
    </li>
  );
}

function StateBadge({ state }: { state: EndpointView["state"] }) {
  return state === "enabled" ? (
    <Badge look="bg-emerald-100 text-emerald-800 ring-emerald-600/30">Enabled</Badge>
  ) : (
    <Badge look="bg-slate-200 text-slate-800 ring-slate-500/30">Disabled</Badge>
  );
}

/** The endpoint's buttons; each names the endpoint for a screen reader, since every endpoint has the same ones. */
function EndpointActions({
  endpoint,
  state,
  secret,
  sends,
  onDelete,
}: {
  endpoint: EndpointView;
  state: ReturnType<typeof useStateChange>;
  secret: ReturnType<typeof useSecret>;
  sends: ReturnType<typeof useSends>;
  onDelete: () => void;
}) {
  return (
    <div className="mt-3 flex flex-wrap gap-2">
      <Button aria-disabled={sends.pending} onClick={sends.test}>
        Send test event<span className="sr-only"> to {endpoint.url}</span>
      </Button>
      <Button aria-disabled={secret.pending} onClick={secret.toggle}>
        {secret.shown ? "Hide secret" : "Show secret"}
        <span className="sr-only"> of {endpoint.url}</span>
      </Button>
      <Button onClick={secret.ask}>
        Rotate secret…<span className="sr-only"> of {endpoint.url}</span>
      </Button>
      <Button aria-disabled={state.pending} onClick={state.toggle}>
        {endpoint.state === "enabled" ? "Disable" : "Enable"}
        <span className="sr-only"> {endpoint.url}</span>
      </Button>
      <Button variant="dangerOutline" onClick={onDelete}>
        Delete…<span className="sr-only"> {endpoint.url}</span>
      </Button>
    </div>
  );
}

function EndpointFacts({ endpoint }: { endpoint: EndpointView }) {
  return (
    <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
      <dt className="text-slate-600">Events</dt>
      <dd className="wrap-anywhere">
        {endpoint.eventTypes.length === 0 ? "All events" : <code>{endpoint.eventTypes.join(", ")}</code>}
      </dd>
      <dt className="text-slate-600">State</dt>
      <dd data-testid="webhook-state">
        {endpoint.state === "enabled" ? (
          "Enabled"
        ) : (
          <>
            Disabled
            {endpoint.disabledAt ? (
              <>
                {" "}
                on <When iso={endpoint.disabledAt} />
              </>
            ) : null}
            {endpoint.disabledReason ? <span className="block wrap-anywhere">{endpoint.disabledReason}</span> : null}
          </>
        )}
      </dd>
      {endpoint.failingSince ? (
        <>
          <dt className="text-slate-600">Failing since</dt>
          <dd className="text-amber-900">
            <When iso={endpoint.failingSince} />: every delivery of an event since has failed.
            {endpoint.state === "enabled" ? " After five days of failures the endpoint is disabled." : null}
          </dd>
        </>
      ) : null}
      {endpoint.previousSecretUntil ? (
        <>
          <dt className="text-slate-600">Old secret</dt>
          <dd>
            Also signs until <When iso={endpoint.previousSecretUntil} />
          </dd>
        </>
      ) : null}
      <dt className="text-slate-600">Added</dt>
      <dd>
        <When iso={endpoint.createdAt} /> by {endpoint.createdBy ?? "unknown"}
      </dd>
    </dl>
  );
}

/** Disable or Enable. */
function useStateChange(endpoint: EndpointView, report: (news: News) => void) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (state: EndpointView["state"]) => setEndpointState(endpoint.id, state),
    onSuccess: async ({ endpoint: after, changed }) => {
      report({
        kind: "done",
        message: !changed
          ? `It was ${after.state} already; nothing changed.`
          : after.state === "disabled"
            ? "Disabled: nothing is sent to it until it is enabled again."
            : "Enabled: it receives what happens from now on (not what happened while it was disabled).",
      });
      await queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY, exact: true });
    },
    onError: (error, state) => report(failed(state === "disabled" ? "Not disabled" : "Not enabled", error)),
  });
  const toggle = () => {
    if (!mutation.isPending) mutation.mutate(endpoint.state === "enabled" ? "disabled" : "enabled");
  };
  return { toggle, pending: mutation.isPending };
}

/** Show secret / Hide secret, and Rotate secret after its confirmation. */
function useSecret(endpoint: EndpointView, report: (news: News) => void) {
  const queryClient = useQueryClient();
  const [shown, setShown] = useState<{ label: string; value: string }>();
  const [asking, setAsking] = useState(false);
  const show = useMutation({
    mutationFn: () => fetchSecret(endpoint.id),
    onSuccess: (value) => setShown({ label: "Signing secret", value }),
    onError: (error) => report(failed("The secret could not be shown", error)),
  });
  const rotation = useMutation({
    mutationFn: () => rotateSecret(endpoint.id),
    onSuccess: async ({ endpoint: after, secret }) => {
      setShown({ label: "New signing secret", value: secret });
      const until = after.previousSecretUntil ? ` until ${timeText(after.previousSecretUntil)}` : "";
      report({ kind: "done", message: `New secret made, shown below. The old one also signs${until}.` });
      await queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY, exact: true });
    },
    onError: (error) => report(failed("Not rotated", error)),
    onSettled: () => setAsking(false),
  });
  const toggle = () => {
    if (shown) setShown(undefined);
    else if (!show.isPending) show.mutate();
  };
  return {
    shown,
    toggle,
    pending: show.isPending,
    asking,
    ask: () => setAsking(true),
    cancel: () => setAsking(false),
    rotate: () => rotation.mutate(),
    rotating: rotation.isPending,
  };
}

/** Send test event, and Resend of a delivery: each then followed in the status line. */
function useSends(endpoint: EndpointView, report: (news: News) => void) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (delivery?: DeliveryView) =>
      delivery ? resendDelivery(endpoint.id, delivery.id) : sendTestEvent(endpoint.id),
    onSuccess: async (queued, delivery) => {
      const what = delivery ? `The resent ${deliveryLabel(delivery)}` : "The test event";
      report({ kind: "following", deliveryId: queued.id, what });
      await queryClient.invalidateQueries({ queryKey: deliveriesKey(endpoint.id) });
    },
    onError: (error, delivery) => report(failed(delivery ? "Not resent" : "No test event sent", error)),
  });
  const send = (delivery?: DeliveryView) => {
    if (!mutation.isPending) mutation.mutate(delivery);
  };
  return { test: () => send(), resend: send, pending: mutation.isPending };
}
