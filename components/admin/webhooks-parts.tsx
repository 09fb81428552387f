import type { ReactNode } from "react";
import { RequestId } from "@/components/admin/form-fields";
import { Alert } from "@/components/ui/alert";
import { DateTime, dateTimeText } from "@/components/ui/date-time";
import { AdminRequestError } from "@/lib/client/admin-api";

// What the Webhooks page's parts share: a time as it shows one, and what an action did (a polite status line) or
// why it was refused (an alert with the request's id).

/** A time in words made in an event handler (the browser's zone is known there): the admin app's one format. */
export const timeText = (iso: string) => dateTimeText(iso);

export function When({ iso }: { iso: string }) {
  return <DateTime at={iso} />;
}

export type Outcome = { kind: "done"; message: string } | { kind: "error"; message: string; requestId?: string };

/** A refused or failed request as an Outcome, with what it was: "Not deleted". */
export function failed(what: string, error: Error): Outcome {
  const requestId = error instanceof AdminRequestError ? error.requestId : undefined;
  return { kind: "error", message: `${what}: ${error.message}`, requestId };
}

/** The status line (always there, so each change of it is announced) and, after a failure, its alert. */
export function OutcomeLines({ outcome, testId }: { outcome?: Outcome; testId?: string }) {
  return (
    <>
      <p role="status" className="mt-2 min-h-5 text-sm wrap-anywhere text-emerald-800" data-testid={testId}>
        {outcome?.kind === "done" ? outcome.message : ""}
      </p>
      {outcome?.kind === "error" ? (
        <Alert className="mt-2">
          <p className="wrap-anywhere">{outcome.message}</p>
          {outcome.requestId ? <RequestId id={outcome.requestId} /> : null}
        </Alert>
      ) : null}
    </>
  );
}

/** A state as a coloured badge; its word is always there, so colour is never the only signal. */
export function Badge({ look, children }: { look: string; children: ReactNode }) {
  return (
    <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${look}`}>
      {children}
    </span>
  );
}
