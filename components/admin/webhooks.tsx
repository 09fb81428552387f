"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type RefObject } from "react";
import { RequestId } from "@/components/admin/form-fields";
import { EndpointItem, endpointHeadingId } from "@/components/admin/webhooks-endpoint";
import { NewEndpointForm } from "@/components/admin/webhooks-form";
import { failed, OutcomeLines, type Outcome } from "@/components/admin/webhooks-parts";
import { NewSecretPanel } from "@/components/admin/webhooks-secret";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { focusRing } from "@/components/ui/focus-ring";
import { AdminRequestError } from "@/lib/client/admin-api";
import {
  deleteEndpoint,
  useEndpoints,
  WEBHOOKS_KEY,
  type EndpointView,
  type EndpointWithSecret,
} from "@/lib/client/webhooks-api";
import { MAX_ENDPOINTS } from "@/lib/webhooks/schema";

// The Webhooks page, for admins: adding an endpoint (its secret shown at once), every endpoint newest first with its
// actions and deliveries, and deleting one after a confirmation naming it, after which the focus goes to the list's
// heading (the endpoint and its buttons are gone).

export function Webhooks() {
  const [created, setCreated] = useState<EndpointWithSecret>();
  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-semibold">Webhooks</h1>
        <p className="mt-2 max-w-3xl text-slate-700">
          The store sends each change to its pets, orders and categories (the events of <code>/v1/events</code>) to
          these URLs within seconds, signed so that the receiver can tell it comes from this store. A delivery that
          fails is tried again, with longer and longer waits, for about a day. An endpoint that answers 410 Gone, or
          fails every delivery for five days, is disabled, and says why.
        </p>
      </div>

      <section aria-labelledby="add-webhook-title" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="add-webhook-title" className="text-lg font-semibold">
          Add an endpoint
        </h2>
        <div className="mt-3">
          <NewEndpointForm onCreated={setCreated} />
        </div>
        {created && (
          <NewSecretPanel
            key={created.endpoint.id}
            created={created}
            onDone={() => {
              // The panel and its button go: the focus goes to the new endpoint in the list, not the page's body.
              setCreated(undefined);
              document.getElementById(endpointHeadingId(created.endpoint.id))?.focus();
            }}
          />
        )}
      </section>

      <Endpoints onDeleted={(id) => created?.endpoint.id === id && setCreated(undefined)} />
    </div>
  );
}

/** Deleting an endpoint after its confirmation; the focus then goes to `heading`. */
function useDeletion(heading: RefObject<HTMLHeadingElement | null>, onDeleted: (id: number) => void) {
  const queryClient = useQueryClient();
  const [deleting, setDeleting] = useState<EndpointView>();
  const [outcome, setOutcome] = useState<Outcome>();
  // Set once an endpoint is deleted: its Delete button, where the closing dialog puts the focus back, is gone.
  const headingAfterClose = useRef(false);
  const mutation = useMutation({
    mutationFn: (endpoint: EndpointView) => deleteEndpoint(endpoint.id),
    onSuccess: async (_nothing, endpoint) => {
      headingAfterClose.current = true;
      setOutcome({ kind: "done", message: `Deleted ${endpoint.url}: nothing more is sent to it.` });
      onDeleted(endpoint.id);
      await queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY, exact: true });
    },
    onError: (error) => setOutcome(failed("Not deleted", error)),
    onSettled: () => setDeleting(undefined),
  });
  const ask = (endpoint: EndpointView) => {
    setOutcome(undefined);
    setDeleting(endpoint);
  };
  const closed = () => {
    setDeleting(undefined);
    if (headingAfterClose.current) heading.current?.focus();
    headingAfterClose.current = false;
  };
  const confirm = () => deleting && mutation.mutate(deleting);
  return { deleting, outcome, ask, confirm, closed, pending: mutation.isPending };
}

function Endpoints({ onDeleted }: { onDeleted: (id: number) => void }) {
  const endpoints = useEndpoints();
  const heading = useRef<HTMLHeadingElement>(null);
  const deletion = useDeletion(heading, onDeleted);
  const list = [...(endpoints.data ?? [])].reverse();
  return (
    <section aria-labelledby="webhooks-title">
      <h2 id="webhooks-title" ref={heading} tabIndex={-1} className={`text-lg font-semibold ${focusRing}`}>
        Endpoints
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Newest first{endpoints.data ? `: ${endpoints.data.length} of the ${MAX_ENDPOINTS} a store may have` : ""}.
      </p>
      <OutcomeLines outcome={deletion.outcome} testId="webhooks-news" />
      {endpoints.isPending ? (
        <p className="text-slate-700">Loading the endpoints…</p>
      ) : endpoints.isError ? (
        <Alert>
          <p>The endpoints could not be loaded: {endpoints.error.message}</p>
          {endpoints.error instanceof AdminRequestError ? <RequestId id={endpoints.error.requestId} /> : null}
          <Button variant="onError" className="mt-2" onClick={() => void endpoints.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : list.length === 0 ? (
        <p className="text-slate-700">No endpoints yet.</p>
      ) : (
        <ul className="mt-2 space-y-4">
          {list.map((endpoint) => (
            <EndpointItem key={endpoint.id} endpoint={endpoint} onDelete={() => deletion.ask(endpoint)} />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deletion.deleting !== undefined}
        idPrefix="delete-webhook"
        size="large"
        title={deletion.deleting ? <span className="wrap-anywhere">Delete {deletion.deleting.url}?</span> : ""}
        description="Nothing more is sent to it, and its deliveries are deleted with it. This cannot be undone."
        confirmLabel="Delete endpoint"
        pendingLabel="Deleting…"
        pending={deletion.pending}
        onConfirm={deletion.confirm}
        onCancel={deletion.closed}
      />
    </section>
  );
}
