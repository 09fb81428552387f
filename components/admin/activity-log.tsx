"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useRef, useState, useTransition } from "react";
import { z } from "zod";
import { actorKind, RecordTime } from "@/components/admin/activity-record";
import { RequestId } from "@/components/admin/form-fields";
import { inputClass } from "@/components/ui/field";
import { focusRing } from "@/components/ui/focus-ring";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClass } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { ACTION_LABELS, AUDIT_ACTIONS } from "@/lib/audit/actions";
import { activityPetFilterSchema } from "@/lib/audit/activity-schema";
import { ACTIVITY_KEY, exportHref, fetchActivityPage, type ActivityRecord } from "@/lib/client/activity-api";
import { AdminRequestError } from "@/lib/client/admin-api";
import { staffFieldErrors } from "@/lib/client/pet-form";
import { activityFilterMessages } from "@/lib/pets/staff-messages";

// The Activity page's content. The URL is its state: the filters (actor, action, pet) and the page (cursor) are
// its query string, so a filtered view is a link to share and survives a reload. The filters apply when the form
// is sent (a GET form, so they work before the page's script has loaded too): one history entry per search,
// none per keystroke. Paging goes Older by the cursor, and back to the Newest.

const PATH = "/admin/activity";
// The view's parameters besides the cursor: the filters, and the page size when the URL names one.
const VIEW = ["actor", "action", "pet", "limit"] as const;

const plainButton = buttonClass();

export type ActorOption = { value: string; label: string };

/** What is wrong with a pet id typed in the filter, in staff words; undefined when it is one (or none). */
function petProblem(pet: string | null): string | undefined {
  if (!pet) return undefined;
  const input = { pet };
  const result = z.object({ pet: activityPetFilterSchema }).safeParse(input);
  return result.success ? undefined : staffFieldErrors(result.error, input, activityFilterMessages)[0]?.message;
}

function hrefOf(query: URLSearchParams): string {
  return query.size > 0 ? `${PATH}?${query}` : PATH;
}

/** The URL's view alone (no cursor): the first page of this view. */
function filtersOf(searchParams: URLSearchParams): URLSearchParams {
  const filters = new URLSearchParams();
  for (const name of VIEW) {
    const value = searchParams.get(name);
    if (value) filters.set(name, value);
  }
  return filters;
}

/**
 * What the live status says once a page has arrived: a count, or why there is nothing. It is empty while a page
 * loads, so that the same words after the next change are announced again.
 */
function statusOf(count: number | undefined, { older, filtered }: { older: boolean; filtered: boolean }): string {
  if (count === undefined) return "";
  if (count === 0) {
    return older
      ? "No older records."
      : filtered
        ? "No records match these filters."
        : "Nothing has been recorded yet.";
  }
  const records = `${count} ${older ? "older " : ""}record${count === 1 ? "" : "s"}`;
  return `${records}${filtered ? " matching these filters" : ""}, newest first.`;
}

export function ActivityLog({ actors }: { actors: ActorOption[] }) {
  const searchParams = useSearchParams();
  const router = useRouter();
  const [navigating, startTransition] = useTransition();
  const filters = filtersOf(searchParams);
  const cursor = searchParams.get("cursor") ?? undefined;
  const request = new URLSearchParams(filters);
  if (cursor) request.set("cursor", cursor);
  // A link (or the form before its script loaded) may name a pet id that is none: the form says so, and the
  // server is not asked.
  const badPet = petProblem(filters.get("pet"));
  const query = useQuery({
    queryKey: [...ACTIVITY_KEY, request.toString()],
    queryFn: () => fetchActivityPage(request),
    placeholderData: keepPreviousData,
    enabled: badPet === undefined,
  });
  const heading = useRef<HTMLHeadingElement>(null);
  const filtered = ["actor", "action", "pet"].some((name) => filters.has(name));
  const shown =
    badPet || query.isError || query.isPlaceholderData || navigating ? undefined : query.data?.records.length;
  const empty = shown === 0;
  const status = statusOf(shown, { older: Boolean(cursor), filtered });

  const go = (href: string) =>
    startTransition(() => {
      router.push(href, { scroll: false });
      heading.current?.focus();
    });

  return (
    <section aria-labelledby="activity-title" className="min-w-0">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 id="activity-title" ref={heading} tabIndex={-1} className={`text-2xl font-semibold ${focusRing}`}>
          Activity
        </h1>
        <a href={exportHref(filters)} download className={plainButton} data-testid="export-csv">
          Export CSV{filtered ? " of these records" : ""}
        </a>
      </div>
      <p className="mt-1 text-sm text-slate-600">
        Every change to pets, orders, categories, API keys and staff accounts, newest first.
      </p>

      <FilterForm key={filters.toString()} actors={actors} filters={filters} petError={badPet} onApply={go} />

      <div aria-busy={query.isFetching || navigating} className="mt-6">
        {/* The one live part: a line saying what the list now holds, never the records themselves. */}
        <p
          role="status"
          data-testid="activity-status"
          className={
            empty ? "rounded-md border border-dashed border-slate-300 p-6 text-center text-slate-700" : "sr-only"
          }
        >
          {status}
        </p>
        {query.isError ? (
          <Alert>
            <p>The activity could not be loaded: {query.error.message}</p>
            {query.error instanceof AdminRequestError ? <RequestId id={query.error.requestId} /> : null}
          </Alert>
        ) : badPet ? null : !query.data ? (
          <p className="text-sm text-slate-600">Loading the activity…</p>
        ) : query.data.records.length === 0 ? null : (
          <ol className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" data-testid="activity">
            {query.data.records.map((record) => (
              <ActivityItem key={record.id} record={record} />
            ))}
          </ol>
        )}
      </div>

      <nav aria-label="Pages of the activity" className="mt-4 flex flex-wrap gap-2">
        {cursor ? (
          <Link
            href={hrefOf(filters)}
            scroll={false}
            onClick={(event) => {
              event.preventDefault();
              go(hrefOf(filters));
            }}
            className={plainButton}
          >
            Newest
          </Link>
        ) : null}
        {query.data?.nextCursor && !query.isPlaceholderData ? (
          <OlderLink filters={filters} cursor={query.data.nextCursor} onGo={go} />
        ) : null}
      </nav>
    </section>
  );
}

function OlderLink({
  filters,
  cursor,
  onGo,
}: {
  filters: URLSearchParams;
  cursor: string;
  onGo: (href: string) => void;
}) {
  const next = new URLSearchParams(filters);
  next.set("cursor", cursor);
  const href = hrefOf(next);
  return (
    <Link
      href={href}
      scroll={false}
      onClick={(event) => {
        event.preventDefault();
        onGo(href);
      }}
      className={plainButton}
    >
      Older
    </Link>
  );
}

function FilterForm({
  actors,
  filters,
  petError,
  onApply,
}: {
  actors: ActorOption[];
  filters: URLSearchParams;
  /** What is wrong with the URL's pet id, if anything. */
  petError?: string;
  onApply: (href: string) => void;
}) {
  const [pet, setPet] = useState(filters.get("pet") ?? "");
  const [petErrors, setPetErrors] = useState(petError ? [petError] : undefined);
  const petInput = useRef<HTMLInputElement>(null);
  const actor = filters.get("actor") ?? "";
  const known = actors.some((option) => option.value === actor);
  return (
    <form
      method="get"
      action={PATH}
      role="search"
      aria-label="Filter the activity"
      onSubmit={(event) => {
        event.preventDefault();
        const problem = petProblem(pet.trim());
        setPetErrors(problem ? [problem] : undefined);
        if (problem) {
          petInput.current?.focus();
          return; // never sent: the server would only refuse it
        }
        const chosen = new URLSearchParams();
        for (const [name, value] of new FormData(event.currentTarget)) {
          if (typeof value === "string" && value.trim()) chosen.set(name, value.trim());
        }
        onApply(hrefOf(chosen));
      }}
      className={
        "mt-4 grid gap-3 rounded-lg border border-slate-200 bg-white p-4 " +
        "sm:grid-cols-[1fr_1fr_10rem_auto] sm:items-start"
      }
    >
      <div>
        <label htmlFor="activity-actor" className="block text-sm font-medium">
          Who
        </label>
        <select id="activity-actor" name="actor" defaultValue={actor} className={inputClass(false)}>
          <option value="">Anyone</option>
          {!known && actor ? <option value={actor}>{actor}</option> : null}
          {actors.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="activity-action" className="block text-sm font-medium">
          What
        </label>
        <select
          id="activity-action"
          name="action"
          defaultValue={filters.get("action") ?? ""}
          className={inputClass(false)}
        >
          <option value="">Any change</option>
          {AUDIT_ACTIONS.map((action) => (
            <option key={action} value={action}>
              {ACTION_LABELS[action]}
            </option>
          ))}
        </select>
      </div>
      <TextField
        id="activity-pet"
        label="Pet id"
        name="pet"
        ref={petInput}
        errors={petErrors}
        inputMode="numeric"
        autoComplete="off"
        value={pet}
        onChange={(event) => setPet(event.target.value)}
      />
      {filters.get("limit") ? <input type="hidden" name="limit" value={filters.get("limit") ?? ""} /> : null}
      <div className="flex flex-wrap gap-2 sm:mt-6">
        <Button type="submit" variant="primary">
          Filter
        </Button>
        {["actor", "action", "pet"].some((name) => filters.has(name)) ? (
          <Link
            href={PATH}
            onClick={(event) => {
              event.preventDefault();
              onApply(PATH);
            }}
            className={plainButton}
          >
            Clear
          </Link>
        ) : null}
      </div>
    </form>
  );
}

function ActivityItem({ record }: { record: ActivityRecord }) {
  const pet = record.target.type === "pet" && record.target.id ? record.target.id : undefined;
  return (
    <li className="grid gap-1 p-3 sm:grid-cols-[9rem_minmax(0,1fr)] sm:gap-4" data-testid="activity-record">
      <div className="text-sm text-slate-600">
        <RecordTime at={record.at} />
      </div>
      <div className="min-w-0">
        <p className="break-words" data-testid="activity-summary">
          {record.summary}
        </p>
        <p className="mt-1 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-600">
          <span>
            By <span className="break-all">{record.actor.label}</span> ({actorKind(record.actor)})
          </span>
          {record.clientAddress ? <span>From {record.clientAddress}</span> : null}
          {record.requestId ? (
            <span className="break-all">
              Request id <code className="font-mono">{record.requestId}</code>
            </span>
          ) : null}
          {pet ? (
            <Link
              href={`/admin?pet=${encodeURIComponent(pet)}`}
              className={`inline-flex min-h-11 items-center font-medium text-indigo-700 underline ${focusRing}`}
            >
              Open pet #{pet}
            </Link>
          ) : null}
        </p>
      </div>
    </li>
  );
}
