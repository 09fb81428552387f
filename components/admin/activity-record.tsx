"use client";

import { useSyncExternalStore } from "react";
import { dateTimeText, useTimeZone } from "@/components/ui/date-time";
import type { ActivityRecord } from "@/lib/client/activity-api";

// How one record of the activity log reads, on the Activity page and in a pet's History: its summary, and when
// it happened as a <time> that says it relatively ("5 minutes ago") and, in smaller text below, the exact instant
// with its time zone (components/ui/date-time.tsx, the admin app's one format): shown, not in a title, so that
// keyboard and touch users read it too.

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
const exact = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "medium" });

const steps: [Intl.RelativeTimeFormatUnit, number][] = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 30],
  ["month", 12],
  ["year", Number.POSITIVE_INFINITY],
];

/**
 * "just now", "5 minutes ago", "yesterday", "3 months ago". An instant after `now` (the browser's clock behind the
 * server's, or the clock below read a little while ago) is "just now", never "in 5 seconds".
 */
export function sinceText(at: Date, now: number): string {
  let amount = Math.min(0, (at.getTime() - now) / 1000);
  for (const [unit, size] of steps) {
    if (Math.abs(amount) < size) {
      return unit === "second" && Math.abs(amount) < 10 ? "just now" : relative.format(Math.round(amount), unit);
    }
    amount /= size;
  }
  return exact.format(at);
}

// The clock, read again every half minute so that "just now" grows old on a page left open.
function subscribeToClock(onTick: () => void): () => void {
  const timer = setInterval(onTick, 30_000);
  return () => clearInterval(timer);
}
let clock = Date.now();
function readClock(): number {
  const now = Date.now();
  if (now - clock >= 30_000) clock = now;
  return clock;
}

export function RecordTime({ at }: { at: string }) {
  const now = useSyncExternalStore(subscribeToClock, readClock, readClock);
  const timeZone = useTimeZone();
  const date = new Date(at);
  return (
    <time dateTime={at}>
      <span className="whitespace-nowrap">{sinceText(date, now)}</span>{" "}
      <span className="block text-xs text-slate-600" data-testid="record-exact-time">
        {dateTimeText(date, timeZone)}
      </span>
    </time>
  );
}

/** Who made a change, beyond its label: "staff", "API key #3", "command line"… */
export function actorKind({ type, id }: ActivityRecord["actor"]): string {
  if (type === "api_key") return `API key #${String(id)}`;
  if (type === "staff") return "staff";
  if (type === "cli") return "command line";
  if (type === "system") return "the app";
  return "visitor";
}
