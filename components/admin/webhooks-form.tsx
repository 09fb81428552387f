"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { FormProblems } from "@/components/admin/form-fields";
import { Button } from "@/components/ui/button";
import { FieldHint, TextField } from "@/components/ui/field";
import { focusRing } from "@/components/ui/focus-ring";
import { AdminRequestError } from "@/lib/client/admin-api";
import { byField, staffFieldErrors, type FormErrors } from "@/lib/client/pet-form";
import { createEndpoint, WEBHOOKS_KEY, type EndpointWithSecret } from "@/lib/client/webhooks-api";
import { EVENT_TYPES, type EventType } from "@/lib/events/schema";
import { webhookMessages } from "@/lib/pets/staff-messages";
import { newEndpointSchema } from "@/lib/webhooks/schema";

// Adding a webhook endpoint: its URL and the event types it receives, checked in the browser with the endpoint's
// own schema (lib/webhooks/schema.ts). The server's refusal of the URL (not http or https, a private address…) is
// shown under the URL, which takes the focus.

const KIND_NAMES: Record<string, string> = { pet: "Pets", order: "Orders", category: "Categories" };

const kindOf = (type: EventType) => type.slice(0, type.indexOf("."));

/** The event types by resource, in the feed's order: pet.*, order.*, category.*. */
const TYPE_GROUPS = [...new Set(EVENT_TYPES.map(kindOf))].map(
  (kind) => [kind, EVENT_TYPES.filter((type) => kindOf(type) === kind)] as const,
);

function useNewEndpoint(onCreated: (created: EndpointWithSecret) => void, focusUrl: () => void) {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState("");
  const [types, setTypes] = useState<ReadonlySet<EventType>>(new Set());
  const [errors, setErrors] = useState<FormErrors<"url">>({});
  const [requestId, setRequestId] = useState<string>();
  const mutation = useMutation({
    mutationFn: createEndpoint,
    onSuccess: async (created) => {
      setUrl("");
      setTypes(new Set());
      onCreated(created);
      await queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY, exact: true });
    },
    onError: (error) => {
      const refused = error instanceof AdminRequestError ? error : undefined;
      setErrors(
        refused?.code === "webhook_url_refused"
          ? { url: [refused.message] }
          : refused?.errors?.length
            ? byField(["url"], refused.errors)
            : { form: [error.message] },
      );
      setRequestId(refused?.requestId);
      focusUrl();
    },
  });
  const toggle = (type: EventType, on: boolean) =>
    setTypes((chosen) => new Set(EVENT_TYPES.filter((each) => (each === type ? on : chosen.has(each)))));
  const submit = () => {
    if (mutation.isPending) return;
    setRequestId(undefined);
    const input = { url, eventTypes: [...types] };
    const parsed = newEndpointSchema.safeParse(input);
    if (!parsed.success) {
      setErrors(byField(["url"], staffFieldErrors(parsed.error, input, webhookMessages)));
      focusUrl();
      return;
    }
    setErrors({});
    mutation.mutate(parsed.data);
  };
  return { url, setUrl, types, toggle, errors, requestId, submit, pending: mutation.isPending };
}

export function NewEndpointForm({ onCreated }: { onCreated: (created: EndpointWithSecret) => void }) {
  const urlInput = useRef<HTMLInputElement>(null);
  const form = useNewEndpoint(onCreated, () => urlInput.current?.focus());
  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        form.submit();
      }}
    >
      <FormProblems
        id="new-webhook-problems"
        errors={form.errors}
        requestId={form.requestId}
        requestIdTestId="new-webhook-request-id"
      />
      <TextField
        id="webhook-url"
        label="Endpoint URL"
        hint="The receiver's address, e.g. https://shop.example/webhooks: each message is a POST of JSON to it."
        errors={form.errors.url}
        ref={urlInput}
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        value={form.url}
        onChange={(event) => form.setUrl(event.target.value)}
      />
      <EventTypeChoices chosen={form.types} onToggle={form.toggle} />
      <div>
        <Button type="submit" variant="primary" size="large" aria-disabled={form.pending}>
          {form.pending ? "Adding…" : "Add endpoint"}
        </Button>
      </div>
    </form>
  );
}

/** The event types as checkboxes, one group per resource; none checked is every event. */
function EventTypeChoices({
  chosen,
  onToggle,
}: {
  chosen: ReadonlySet<EventType>;
  onToggle: (type: EventType, on: boolean) => void;
}) {
  return (
    <fieldset aria-describedby="webhook-types-hint">
      <legend className="text-sm font-medium">Event types</legend>
      <FieldHint id="webhook-types-hint">
        Leave every box empty to receive all events, including types added later.
      </FieldHint>
      <div className="mt-2 grid gap-3 sm:grid-cols-3">
        {TYPE_GROUPS.map(([kind, types]) => (
          <fieldset key={kind} className="rounded-md border border-slate-200 px-3 pb-2">
            <legend className="px-1 text-sm font-medium">
              {KIND_NAMES[kind] ?? kind} <span className="font-mono text-xs text-slate-600">{kind}.*</span>
            </legend>
            {types.map((type) => (
              <label key={type} className="flex min-h-11 items-center gap-2 font-mono text-sm">
                <input
                  type="checkbox"
                  name="eventTypes"
                  value={type}
                  checked={chosen.has(type)}
                  onChange={(event) => onToggle(type, event.target.checked)}
                  className={`size-5 shrink-0 accent-indigo-700 ${focusRing}`}
                />
                {type}
              </label>
            ))}
          </fieldset>
        ))}
      </div>
    </fieldset>
  );
}
