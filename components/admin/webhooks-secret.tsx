"use client";

import { useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { CopyField } from "@/components/ui/copy-field";
import { focusRing } from "@/components/ui/focus-ring";
import type { EndpointWithSecret } from "@/lib/client/webhooks-api";

// An endpoint's signing secret as the Webhooks page shows it: once, prominently, after the endpoint is added, and
// again on request (Show secret, or after Rotate secret), each time with a Copy button and how receivers use it.

/** How a receiver checks a message with the secret. */
export function VerifyNote() {
  return (
    <p className="text-sm text-slate-700">
      Every message is signed as{" "}
      <a
        href="https://www.standardwebhooks.com"
        className={`font-medium text-indigo-800 underline ${focusRing}`}
        rel="noreferrer"
      >
        Standard Webhooks
      </a>{" "}
      specifies: the receiver checks its <code>webhook-signature</code> header with this secret (the whole{" "}
      <code>whsec_…</code> value) and ignores a message that does not verify. Its libraries do that in one call: with
      the <code>standardwebhooks</code> npm package, <code>new Webhook(secret).verify(body, headers)</code>.
    </p>
  );
}

/** The endpoint just added and its secret, with the focus on its heading. */
export function NewSecretPanel({ created, onDone }: { created: EndpointWithSecret; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section
      aria-labelledby="new-webhook-title"
      className="mt-4 space-y-3 rounded-lg border-2 border-amber-500 bg-amber-50 p-4"
    >
      <h3
        id="new-webhook-title"
        ref={heading}
        tabIndex={-1}
        className={`text-lg font-semibold wrap-anywhere ${focusRing}`}
      >
        Added {created.endpoint.url}
      </h3>
      <p className="font-medium text-amber-900">
        Put this secret into the receiver now: it verifies that messages come from this store. (An admin can show it
        again from the endpoint&apos;s Show secret.)
      </p>
      <CopyField label="Signing secret" value={created.secret} />
      <VerifyNote />
      <Button variant="primary" size="large" onClick={onDone}>
        Done
      </Button>
    </section>
  );
}
