"use client";

import Link from "next/link";
import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { RequestId } from "@/components/admin/form-fields";
import { focusRing } from "@/components/ui/focus-ring";

// The admin app's one place for what just happened: "Added “Rex” with id 12." with a link to the pet, a change
// saved, a deletion with its Undo, a failure with its request id. Successes sit in a polite live region (role
// status), failures in an assertive one (role alert); both regions are on the page from the start, empty, so a
// screen reader hears each notification as it arrives. A success leaves after a few seconds, but never while the
// pointer is over it or the focus is in it (WCAG 2.2.1: the time pauses); a failure stays until it is dismissed.
// Each has a Dismiss button, and Escape dismisses the one holding the focus; the focus then goes back to where it
// was before it entered the notifications (or to the page's heading), never to <body>.

/** How long a success stays on screen, unless it says otherwise. */
export const NOTIFICATION_MS = 6_000;
/** At most this many on screen; the oldest success leaves first. */
const MAX_SHOWN = 4;

export type NotificationInput = {
  kind: "success" | "failure";
  message: string;
  /** A notification with the key of one on screen replaces it (one pet's changes, one after the other). */
  key?: string;
  /** A link shown with it, e.g. to the pet just added. */
  link?: { href: string; label: string };
  /** A button shown with it, e.g. Undo; the notification is dismissed when `run` settles. */
  action?: { label: string; busyLabel: string; run: () => Promise<void> };
  /** The failed request's id (X-Request-Id), to quote to whoever runs the server. */
  requestId?: string;
  /** For a success: how long it stays; default NOTIFICATION_MS. */
  durationMs?: number;
  /** Put the focus on it when it appears (it replaces a control that had the focus). */
  focus?: boolean;
};

type Shown = NotificationInput & { id: number; key: string };

type Notifications = {
  notify: (notification: NotificationInput) => number;
  dismiss: (id: number) => void;
};

const NotificationsContext = createContext<Notifications | null>(null);

export function useNotifications(): Notifications {
  const notifications = useContext(NotificationsContext);
  if (!notifications) throw new Error("useNotifications is used outside NotificationsProvider");
  return notifications;
}

/** The page's heading, where the focus goes when nothing better is left. */
export function focusPageHeading(): void {
  const heading = document.querySelector<HTMLElement>("main h1");
  if (!heading) return;
  if (!heading.hasAttribute("tabindex")) heading.tabIndex = -1;
  heading.focus();
}

export function NotificationsProvider({ children }: { children: React.ReactNode }) {
  const [shown, setShown] = useState<Shown[]>([]);
  const nextId = useRef(1);
  // Where the focus was before it entered the notifications, to give it back when the one holding it leaves.
  const focusedBefore = useRef<HTMLElement | null>(null);

  const dismiss = useCallback((id: number) => setShown((current) => current.filter((each) => each.id !== id)), []);
  const notify = useCallback((notification: NotificationInput) => {
    const id = nextId.current++;
    const key = notification.key ?? `notification-${id}`;
    setShown((current) => {
      let next = [...current.filter((each) => each.key !== key), { ...notification, id, key }];
      while (next.length > MAX_SHOWN) {
        const oldest = next.find((each) => each.kind === "success") ?? next[0];
        next = next.filter((each) => each !== oldest);
      }
      return next;
    });
    return id;
  }, []);
  const value = useMemo(() => ({ notify, dismiss }), [notify, dismiss]);

  /** Dismisses a notification that may hold the focus, and gives the focus back. */
  const leave = (id: number, element: HTMLElement | null) => {
    const hadFocus = Boolean(element?.contains(document.activeElement));
    dismiss(id);
    if (!hadFocus) return;
    const back = focusedBefore.current;
    if (back?.isConnected) back.focus();
    else focusPageHeading();
  };

  const list = (kind: Shown["kind"]) =>
    shown
      .filter((each) => each.kind === kind)
      .map((each) => <Notification key={each.id} notification={each} onLeave={leave} />);

  return (
    <NotificationsContext.Provider value={value}>
      {children}
      <section
        aria-label="Notifications"
        className="pointer-events-none fixed inset-x-0 bottom-0 z-40 flex flex-col gap-2 p-3 sm:left-auto sm:w-96"
        onFocus={(event) => {
          const from = event.relatedTarget;
          if (from instanceof HTMLElement && !event.currentTarget.contains(from)) focusedBefore.current = from;
        }}
        data-testid="notifications"
      >
        <div role="alert" className="flex flex-col gap-2">
          {list("failure")}
        </div>
        <div role="status" aria-live="polite" className="flex flex-col gap-2">
          {list("success")}
        </div>
      </section>
    </NotificationsContext.Provider>
  );
}

const controlStyle = `inline-flex min-h-11 items-center rounded-md px-3 text-sm font-medium ${focusRing}`;

function Notification({
  notification,
  onLeave,
}: {
  notification: Shown;
  onLeave: (id: number, element: HTMLElement | null) => void;
}) {
  const { id, kind, message, link, action, requestId, focus } = notification;
  const box = useRef<HTMLDivElement>(null);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [busy, setBusy] = useState(false);
  const failure = kind === "failure";
  const duration = failure ? undefined : (notification.durationMs ?? NOTIFICATION_MS);

  // The time left runs only while the notification is neither hovered nor focused (nor busy with its action).
  const remaining = useRef(duration ?? 0);
  const paused = hovered || focused || busy;
  useEffect(() => {
    if (duration === undefined || paused) return;
    const started = Date.now();
    const timer = setTimeout(() => onLeave(id, box.current), remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current -= Date.now() - started;
    };
  }, [duration, paused, id, onLeave]);

  // In the commit that shows it (which removed what it replaces), so the focus never rests on <body> between.
  useLayoutEffect(() => {
    if (focus) box.current?.querySelector<HTMLElement>("a, button")?.focus();
  }, [focus]);

  return (
    // Escape anywhere in it dismisses it: its buttons and link are the controls, the box only listens.
    // eslint-disable-next-line jsx-a11y/no-static-element-interactions
    <div
      ref={box}
      data-testid="notification"
      data-kind={kind}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
      }}
      onKeyDown={(event) => {
        if (event.key !== "Escape" || busy) return;
        event.preventDefault();
        onLeave(id, box.current);
      }}
      className={
        "pointer-events-auto rounded-lg border p-3 text-sm shadow-lg " +
        (failure ? "border-red-300 bg-red-50 text-red-950" : "border-slate-300 bg-white text-slate-900")
      }
    >
      <p className="font-medium break-words">{message}</p>
      {requestId ? <RequestId id={requestId} testId="notification-request-id" className="mt-1" /> : null}
      <div className="mt-1 -mb-1 flex flex-wrap items-center justify-end gap-1">
        {link ? (
          <Link href={link.href} scroll={false} className={`${controlStyle} text-indigo-800 underline`}>
            {link.label}
          </Link>
        ) : null}
        {action ? (
          <button
            type="button"
            aria-disabled={busy}
            onClick={() => {
              if (busy) return;
              setBusy(true);
              void action.run().finally(() => onLeave(id, box.current));
            }}
            className={`${controlStyle} border border-indigo-700 bg-indigo-700 text-white hover:bg-indigo-800`}
          >
            {busy ? action.busyLabel : action.label}
          </button>
        ) : null}
        <button
          type="button"
          aria-label={`Dismiss: ${message}`}
          aria-keyshortcuts="Escape"
          onClick={() => onLeave(id, box.current)}
          className={`${controlStyle} underline hover:bg-slate-100`}
        >
          Dismiss
        </button>
      </div>
    </div>
  );
}
