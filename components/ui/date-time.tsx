"use client";

import { useSyncExternalStore } from "react";

// The one way the admin app writes an instant: "28 Nov 2026, 09:12 UTC", day month year and a 24-hour time in the
// staff member's time zone (the browser's), always with the zone's name. The server does not know that zone: it
// renders UTC, and the browser's zone takes over once the page is hydrated (useTimeZone), so the first render
// matches the server's and the text changes only where the zone is not UTC.

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? "";
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", {
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZoneName: "short",
      timeZone,
    });
    formats.set(key, format);
  }
  return format;
}

/** An instant as staff read it, "28 Nov 2026, 09:12 UTC"; in `timeZone`, or the browser's when none is given. */
export function dateTimeText(at: string | Date, timeZone?: string): string {
  return formatIn(timeZone).format(typeof at === "string" ? new Date(at) : at);
}

const noSubscription = () => () => {};
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
const serverZone = () => "UTC";

/** The zone to show times in: UTC on the server and while hydrating, then the browser's. */
export function useTimeZone(): string {
  return useSyncExternalStore(noSubscription, browserZone, serverZone);
}

/** An instant as a <time>: its exact ISO value for machines, the one format for people. */
export function DateTime({ at, className, testId }: { at: string; className?: string; testId?: string }) {
  const timeZone = useTimeZone();
  return (
    <time dateTime={at} className={className} data-testid={testId}>
      {dateTimeText(at, timeZone)}
    </time>
  );
}
