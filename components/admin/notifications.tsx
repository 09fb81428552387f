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
// was before it entered the notifications (or to the page's heading), never to <body>. One with an action (a
// deletion's Undo) has no timer at all: it stays until it is used or dismissed, whoever reads slowly or tabs far,
// and its action has a key of its own (Alt+Z for Undo) and is where the next Tab goes from wherever the focus was put.
// When the action can no longer work (the server's minute to undo has passed) its button says so instead. A success
// with a link also stays until dismissed for a staff member working by keyboard (whose last input was a key, not a
// pointer): reaching it takes Tab presses, and a timer would take it away meanwhile (WCAG 2.2.1).

/** How long a success stays on screen, unless it says otherwise. */
export const NOTIFICATION_MS = 6_000;
/** How long a deletion's Undo can work: the server restores for a minute; a few seconds are kept for the request. */
export const UNDO_WINDOW_MS = 55_000;
/** At most this many on screen; the oldest success leaves first. */
const MAX_SHOWN = 4;

export type NotificationInput = {
  kind: "success" | "failure";
  message: string;
  /** A notification with the key of one on screen replaces it (one pet's changes, one after the other). */
  key?: string;
  /** A link shown with it, e.g. to the pet just added. */
  link?: { href: string; label: string };
  /**
   * A button shown with it, e.g. Undo; the notification is dismissed when `run` settles. It stays until then or
   * until dismissed (no timer). Alt and the letter `key` run it from anywhere on the page (outside text fields and
   * dialogs); until `until` (epoch ms) it can run, after it the button shows `lateLabel`, disabled.
   */
  action?: {
    label: string;
    busyLabel: string;
    run: () => Promise<void>;
    key?: string;
    until?: number;
    lateLabel?: string;
  };
  /** The failed request's id (X-Request-Id), to quote to whoever runs the server. */
  requestId?: string;
  /** For a success: how long it stays; default NOTIFICATION_MS. */
  durationMs?: number;
  /** Put the focus on it when it appears (it replaces a control that had the focus). */
  focus?: boolean;
};

type Shown = NotificationInput & { id: number; key: string; staysForKeyboard: boolean };

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

/**
 * Which edge of the screen the notifications keep to: the bottom, unless there they would cover the control that
 * has the focus (a field at the foot of the screen, the pager's buttons), then the top. Checked whenever the focus
 * moves, the page scrolls or is resized, and the notifications change; a focus inside them changes nothing.
 */
function useEdgeOutOfTheWay(region: React.RefObject<HTMLElement | null>, shown: readonly unknown[]) {
  const [edge, setEdge] = useState<"top" | "bottom">("bottom");
  useLayoutEffect(() => {
    const place = () => {
      const box = region.current?.getBoundingClientRect();
      const active = document.activeElement;
      if (!box || box.height === 0 || !(active instanceof HTMLElement) || active === document.body) return;
      if (region.current!.contains(active)) return;
      const control = active.getBoundingClientRect();
      const across = control.left < box.right && box.left < control.right;
      const atBottom = across && control.bottom > window.innerHeight - box.height;
      const atTop = across && control.top < box.height;
      setEdge(atBottom && !atTop ? "top" : "bottom");
    };
    place();
    const options = { capture: true, passive: true };
    document.addEventListener("focusin", place);
    window.addEventListener("scroll", place, options);
    window.addEventListener("resize", place, options);
    return () => {
      document.removeEventListener("focusin", place);
      window.removeEventListener("scroll", place, options);
      window.removeEventListener("resize", place, options);
    };
  }, [region, shown]);
  return edge;
}

export function NotificationsProvider({ children }: { children: React.ReactNode }) {
  const [shown, setShown] = useState<Shown[]>([]);
  const region = useRef<HTMLElement>(null);
  const edge = useEdgeOutOfTheWay(region, shown);
  const nextId = useRef(1);
  // Where the focus was before it entered the notifications, to give it back when the one holding it leaves.
  const focusedBefore = useRef<HTMLElement | null>(null);

  const dismiss = useCallback((id: number) => setShown((current) => current.filter((each) => each.id !== id)), []);
  // Whether the staff member's last input was a key (rather than a pointer): their successes with a link stay.
  const byKeyboard = useRef(false);
  useEffect(() => {
    const keys = (event: KeyboardEvent) => {
      if (!["Shift", "Control", "Alt", "Meta"].includes(event.key)) byKeyboard.current = true;
    };
    const pointer = () => (byKeyboard.current = false);
    document.addEventListener("keydown", keys, true);
    document.addEventListener("pointerdown", pointer, true);
    return () => {
      document.removeEventListener("keydown", keys, true);
      document.removeEventListener("pointerdown", pointer, true);
    };
  }, []);
  // The action the next Tab goes to: armed when a notification with one arrives, spent by the next key or click.
  const tabToAction = useRef<number | undefined>(undefined);
  const notify = useCallback((notification: NotificationInput) => {
    const id = nextId.current++;
    if (notification.action) tabToAction.current = id;
    const key = notification.key ?? `notification-${id}`;
    const staysForKeyboard = byKeyboard.current && Boolean(notification.link);
    setShown((current) => {
      let next = [...current.filter((each) => each.key !== key), { ...notification, id, key, staysForKeyboard }];
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

  // Alt and an action's key, pressed anywhere but in a text field or a dialog, runs the newest action with that key
  // (with a modifier, so that no single typed letter runs anything: WCAG 2.1.4); and the first Tab after an action
  // appears goes to it (once), from wherever the page put the focus meanwhile.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey) return;
      const target = event.target as HTMLElement | null;
      // A checkbox or radio button takes no text: Alt+Z there (the bulk actions leave the focus on one) is for Undo.
      const typing = target?.closest(
        "input:not([type='checkbox']):not([type='radio']), textarea, select, [contenteditable='true']",
      );
      const pending = tabToAction.current;
      if (event.key !== "Shift") tabToAction.current = undefined;
      const button = (id: number | undefined) =>
        id === undefined ? null : document.querySelector<HTMLElement>(`[data-notification-action="${id}"]`);
      // Never out of a dialog that holds the focus, and never to a notification the focus is already in.
      const inDialog = target?.closest("dialog, [aria-modal='true']");
      if (event.key === "Tab" && !event.shiftKey && !event.altKey && !typing && !inDialog) {
        const action = button(pending);
        if (!action || action.contains(document.activeElement)) return;
        event.preventDefault();
        action.focus();
        return;
      }
      if (typing || inDialog || event.shiftKey || !event.altKey) return;
      // By the key's place (event.code), not its character: Alt+Z types "Ω" on a Mac keyboard.
      const keyed = shown.findLast((each) => each.action?.key && event.code === `Key${each.action.key.toUpperCase()}`);
      const action = button(keyed?.id);
      if (!action) return;
      event.preventDefault();
      action.focus();
      action.click();
    };
    // A click elsewhere means the staff member went on with something else: the next Tab goes where it would.
    const onPointerDown = () => (tabToAction.current = undefined);
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
    };
  }, [shown]);

  const list = (kind: Shown["kind"]) =>
    shown
      .filter((each) => each.kind === kind)
      .map((each) => <Notification key={each.id} notification={each} onLeave={leave} />);

  return (
    <NotificationsContext.Provider value={value}>
      {children}
      <section
        ref={region}
        aria-label="Notifications"
        className={
          // No size while empty, so that moving it between the edges never moves anything on screen.
          "pointer-events-none fixed inset-x-0 z-40 flex flex-col sm:left-auto sm:w-96 " +
          (shown.length > 0 ? "gap-2 p-3 " : "") +
          (edge === "top" ? "top-0" : "bottom-0")
        }
        data-edge={edge}
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
  const duration =
    failure || action || notification.staysForKeyboard ? undefined : (notification.durationMs ?? NOTIFICATION_MS);
  const late = useLate(action?.until);

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
            data-notification-action={id}
            aria-disabled={busy || late}
            aria-keyshortcuts={action.key && !late ? `Alt+${action.key.toUpperCase()}` : undefined}
            onClick={() => {
              // The clock as well as the timer: after a laptop's sleep the timer may not have fired yet.
              if (busy || late || (action.until !== undefined && Date.now() >= action.until)) return;
              setBusy(true);
              void action.run().finally(() => onLeave(id, box.current));
            }}
            className={
              `${controlStyle} border ` +
              (late
                ? "border-slate-300 bg-white text-slate-700"
                : "border-indigo-700 bg-indigo-700 text-white hover:bg-indigo-800")
            }
          >
            {busy ? action.busyLabel : late ? (action.lateLabel ?? action.label) : action.label}
            {action.key && !busy && !late ? (
              <kbd aria-hidden="true" className="ml-2 rounded border border-white/60 px-1 font-sans text-xs">
                Alt+{action.key.toUpperCase()}
              </kbd>
            ) : null}
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

/** Whether the time `until` (epoch ms) has passed, turning true when it does. */
function useLate(until: number | undefined): boolean {
  const [late, setLate] = useState(() => until !== undefined && Date.now() >= until);
  useEffect(() => {
    if (until === undefined || late) return;
    const timer = setTimeout(() => setLate(true), Math.max(0, until - Date.now()));
    return () => clearTimeout(timer);
  }, [until, late]);
  return late;
}
