"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyField } from "@/components/ui/copy-field";
import { DateTime, dateTimeText } from "@/components/ui/date-time";
import { ConfirmDialog } from "@/components/ui/dialog";
import { TextField } from "@/components/ui/field";
import { focusRing } from "@/components/ui/focus-ring";
import { newKeySchema, type KeyView } from "@/lib/auth/api-key-schema";
import { AdminRequestError } from "@/lib/client/admin-api";
import { createKey, fetchKeys, keysQueryKey, revokeKey, type NewKey } from "@/lib/client/keys-api";
import { refusedFieldErrors, staffFieldErrors } from "@/lib/client/pet-form";
import { keyMessages } from "@/lib/pets/staff-messages";

// The API keys page: every key (newest first) with who made it, its use and its getPet calls; a form that
// creates a key and shows it once, with a Copy button and a curl line to try it; revocation after a
// confirmation naming the key, after which the focus goes to that key's name (its Revoke button is gone). The
// admin app's own key is marked and not revoked here (docs/staff.md says why).

/** When something happened, in the admin app's one format; "never" when it has not. */
function When({ iso, never = "never" }: { iso: string | null; never?: string }) {
  return iso ? <DateTime at={iso} /> : never;
}

const problem = (error: unknown) =>
  error instanceof AdminRequestError
    ? `${error.message} (request id ${error.requestId})`
    : error instanceof Error
      ? error.message
      : String(error);

/** The key just created, shown this once. */
function NewKeyPanel({ created, onDone }: { created: NewKey; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Shown only after a creation in this browser, so the page's own address is known.
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  useEffect(() => heading.current?.focus(), []);
  return (
    <section
      aria-labelledby="new-key-title"
      className="mt-4 space-y-3 rounded-lg border-2 border-amber-500 bg-amber-50 p-4"
    >
      <h3 id="new-key-title" ref={heading} tabIndex={-1} className={`text-lg font-semibold wrap-anywhere ${focusRing}`}>
        New key “{created.name}”
      </h3>
      <p className="font-medium text-amber-900">
        Copy it now: it is shown only this once. The store keeps only a fingerprint of it, so it cannot be shown again;
        if it is lost, create another and revoke this one.
      </p>
      <CopyField label="API key" value={created.key} />
      <CopyField
        label="Try it with curl"
        value={`curl -H "Authorization: Bearer ${created.key}" ${origin}/v1/pets`}
        multiline
      />
      <Button variant="primary" size="large" onClick={onDone}>
        I have copied it
      </Button>
    </section>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (created: NewKey) => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [errors, setErrors] = useState<string[]>();
  const input = useRef<HTMLInputElement>(null);
  const mutation = useMutation({
    mutationFn: createKey,
    onSuccess: (created) => {
      setName("");
      setErrors(undefined);
      onCreated(created);
      void queryClient.invalidateQueries({ queryKey: keysQueryKey });
    },
    onError: (error) => {
      // The page's own check passed: a refused name is one an outdated page let through.
      const fields = error instanceof AdminRequestError ? error.errors : undefined;
      setErrors(fields?.length ? refusedFieldErrors(fields).map((field) => field.message) : [problem(error)]);
      input.current?.focus();
    },
  });
  return (
    <form
      noValidate
      className="flex flex-col gap-3 sm:flex-row sm:items-start"
      onSubmit={(event) => {
        event.preventDefault();
        // The server's own schema (lib/auth/api-key-schema.ts), its refusal in staff words; nothing is sent.
        const body = { name };
        const parsed = newKeySchema.safeParse(body);
        if (!parsed.success) {
          setErrors(staffFieldErrors(parsed.error, body, keyMessages).map((field) => field.message));
          input.current?.focus();
          return;
        }
        mutation.mutate(parsed.data.name);
      }}
    >
      <div className="grow">
        <TextField
          id="key-name"
          label="Name of the new key"
          hint="Who or what will use it, e.g. “shop website”: up to 100 characters."
          errors={errors}
          ref={input}
          name="name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          autoComplete="off"
        />
      </div>
      <Button type="submit" variant="primary" size="large" disabled={mutation.isPending} className="sm:mt-6">
        {mutation.isPending ? "Creating…" : "Create key"}
      </Button>
    </form>
  );
}

function KeyState({ apiKey }: { apiKey: KeyView }) {
  return apiKey.revokedAt ? (
    <span className="rounded bg-slate-200 px-2 py-0.5 text-sm text-slate-800">
      Revoked <When iso={apiKey.revokedAt} />
    </span>
  ) : (
    <span className="rounded bg-emerald-100 px-2 py-0.5 text-sm text-emerald-900">Active</span>
  );
}

const keyHeadingId = (id: KeyView["id"]) => `key-${String(id)}-name`;

function KeyItem({ apiKey, onRevoke }: { apiKey: KeyView; onRevoke: (key: KeyView) => void }) {
  const adminApp = apiKey.purpose === "admin_app";
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4" data-testid={`key-${apiKey.id}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={keyHeadingId(apiKey.id)} tabIndex={-1} className={`text-base font-semibold wrap-anywhere ${focusRing}`}>
          {apiKey.name}
        </h3>
        <KeyState apiKey={apiKey} />
      </div>
      <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-3">
        <div>
          <dt className="text-slate-600">Prefix</dt>
          <dd className="font-mono">{apiKey.prefix}…</dd>
        </div>
        <div>
          <dt className="text-slate-600">Purpose</dt>
          <dd>{adminApp ? <strong>Used by the admin app</strong> : "API clients"}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Created</dt>
          <dd>
            <When iso={apiKey.createdAt} /> by {apiKey.createdBy ?? "unknown"}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">Last used</dt>
          <dd>
            <When iso={apiKey.lastUsedAt} />
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">getPet calls, last 30 days</dt>
          <dd data-testid="getpet-30d">{apiKey.getPet.last30Days}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Last getPet call</dt>
          <dd>
            <When iso={apiKey.getPet.lastCallAt} />
          </dd>
        </div>
      </dl>
      {!apiKey.revokedAt &&
        (adminApp ? (
          <p className="mt-3 text-sm text-slate-700">
            The admin app uses this key to reach the API for you; no one holds its secret, so it is not revoked here.
          </p>
        ) : (
          <Button size="large" onClick={() => onRevoke(apiKey)} className="mt-3">
            Revoke<span className="sr-only"> “{apiKey.name}”</span>
          </Button>
        ))}
    </li>
  );
}

export function ApiKeys({ getPetSunset }: { getPetSunset: string }) {
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: keysQueryKey, queryFn: fetchKeys });
  const [created, setCreated] = useState<NewKey>();
  const [revoking, setRevoking] = useState<KeyView>();
  const [notice, setNotice] = useState("");
  // The key whose heading takes the focus once the dialog has closed (and the browser has put the focus back on
  // the Revoke button, which is about to go).
  const focusAfterClose = useRef<KeyView["id"]>(undefined);
  const revocation = useMutation({
    mutationFn: revokeKey,
    onSuccess: ({ key, alreadyRevoked }) => {
      focusAfterClose.current = key.id;
      const since = key.revokedAt ? ` (${dateTimeText(key.revokedAt)})` : "";
      setNotice(
        alreadyRevoked
          ? `“${key.name}” was already revoked${since}; nothing changed.`
          : `Revoked “${key.name}”: requests with it are refused from now on.`,
      );
      void queryClient.invalidateQueries({ queryKey: keysQueryKey });
    },
    onError: (error) => setNotice(`Not revoked: ${problem(error)}`),
    onSettled: () => setRevoking(undefined),
  });
  const sunset = new Date(getPetSunset).toLocaleDateString("en-GB", { dateStyle: "long", timeZone: "UTC" });
  const list = [...(keys.data ?? [])].reverse();

  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-semibold">API keys</h1>
        <p className="mt-2 max-w-3xl text-slate-700">
          Programs call the store&apos;s API (<code>/v1</code>) with these keys. Give each program its own key, so that
          one can be revoked without stopping the others.
        </p>
      </div>

      <section aria-labelledby="create-key-title" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="create-key-title" className="text-lg font-semibold">
          Create a key
        </h2>
        <div className="mt-3">
          <CreateKeyForm onCreated={setCreated} />
        </div>
        {created && (
          <NewKeyPanel
            key={created.id}
            created={created}
            onDone={() => {
              // The panel and its button go: the focus goes to the new key in the list, not the page's body.
              setCreated(undefined);
              document.getElementById(keyHeadingId(created.id))?.focus();
            }}
          />
        )}
      </section>

      <section aria-labelledby="keys-title">
        <h2 id="keys-title" className="text-lg font-semibold">
          Keys
        </h2>
        <p className="mt-1 max-w-3xl text-sm text-slate-700">
          getPet (reading one pet by its id) is deprecated and goes away on {sunset}: from then on it answers 410 Gone.
          The getPet figures of each key show whether it still calls it, so their owners can move to listing pets in
          time. Counts are written every 10 seconds.
        </p>
        <p role="status" className="mt-2 min-h-6 text-sm wrap-anywhere text-emerald-800">
          {notice}
        </p>
        {keys.isPending ? (
          <p className="text-slate-700">Loading keys…</p>
        ) : keys.isError ? (
          <Alert>The keys could not be loaded: {problem(keys.error)}</Alert>
        ) : list.length === 0 ? (
          <p className="text-slate-700">No keys yet.</p>
        ) : (
          <ul className="mt-2 space-y-3">
            {list.map((apiKey) => (
              <KeyItem key={apiKey.id} apiKey={apiKey} onRevoke={setRevoking} />
            ))}
          </ul>
        )}
      </section>

      <ConfirmDialog
        open={revoking !== undefined}
        idPrefix="revoke"
        size="large"
        title={revoking ? `Revoke “${revoking.name}” (${revoking.prefix}…)?` : ""}
        description="Programs using it stop working at once. This cannot be undone."
        confirmLabel="Revoke key"
        pendingLabel="Revoking…"
        pending={revocation.isPending}
        onConfirm={() => revoking && revocation.mutate(revoking.id)}
        onCancel={() => setRevoking(undefined)}
        onClose={() => {
          setRevoking(undefined);
          const id = focusAfterClose.current;
          focusAfterClose.current = undefined;
          if (id !== undefined) document.getElementById(keyHeadingId(id))?.focus();
        }}
      />
    </div>
  );
}
