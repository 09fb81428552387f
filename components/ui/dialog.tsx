"use client";

import { useLayoutEffect, useRef, type ReactNode, type RefObject } from "react";
import { Button } from "@/components/ui/button";

// The app's modal dialogs, on the native <dialog>: showModal() moves the focus into it (to `initialFocus`, else
// its first control) and keeps it there, Escape closes it, and closing gives the focus back to the control that
// had it before. `open` drives it; `onClose` runs once it has closed, however (a button, Escape), and is the place
// to move the focus elsewhere when the opener is gone. It may run twice for one closing (at Escape and at the close
// event), so it must be idempotent: set state, move the focus.

const sizes = { small: "max-w-sm", medium: "max-w-md", large: "max-w-lg" } as const;

export function Modal({
  open,
  onClose,
  titleId,
  descriptionId,
  initialFocus,
  size = "medium",
  testId,
  children,
}: {
  open: boolean;
  onClose: () => void;
  titleId: string;
  descriptionId?: string;
  initialFocus?: RefObject<HTMLElement | null>;
  size?: keyof typeof sizes;
  testId?: string;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  // A layout effect: the dialog opens (and the focus moves) in the commit that asked for it.
  useLayoutEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      initialFocus?.current?.focus();
    } else if (!open && element.open) element.close();
  }, [open, initialFocus]);
  return (
    <dialog
      ref={dialog}
      onCancel={(event) => {
        // Escape: closed here and now, and in React's state at once. Left to the browser, the close event comes in a
        // later task, which Chromium may run after the next key: an Enter on the opener would then find the dialog
        // still open in React's state and open nothing.
        event.preventDefault();
        event.currentTarget.close();
        onClose();
      }}
      onClose={(event) => {
        if (!event.currentTarget.open) onClose(); // not the late close event of a dialog opened again since
      }}
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      data-testid={testId}
      className={
        `m-auto w-[calc(100%-2rem)] ${sizes[size]} rounded-lg bg-white p-5 text-slate-900 shadow-xl ` +
        "backdrop:bg-slate-900/50 dark:backdrop:bg-black/70"
      }
    >
      {children}
    </dialog>
  );
}

/**
 * A question before a change that cannot be taken back: a title, what follows, Cancel (which has the focus first:
 * the safe choice) and the button that confirms. The confirming button stays in place, aria-disabled, while the
 * change is sent.
 */
export function ConfirmDialog({
  open,
  idPrefix,
  title,
  description,
  confirmLabel,
  pendingLabel,
  pending = false,
  tone = "danger",
  size,
  onConfirm,
  onCancel,
  onClose = onCancel,
}: {
  open: boolean;
  /** `${idPrefix}-title` and `${idPrefix}-text` name and describe the dialog. */
  idPrefix: string;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  pendingLabel?: string;
  pending?: boolean;
  tone?: "danger" | "primary";
  size?: "small" | "medium" | "large";
  onConfirm: () => void;
  /** Cancel pressed; the dialog should close. */
  onCancel: () => void;
  /** The dialog closed, however (Escape too): by default, as Cancel. */
  onClose?: () => void;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      open={open}
      onClose={onClose}
      titleId={`${idPrefix}-title`}
      descriptionId={`${idPrefix}-text`}
      initialFocus={cancel}
      size={size}
    >
      <h2 id={`${idPrefix}-title`} className="text-lg font-semibold break-words">
        {title}
      </h2>
      <p id={`${idPrefix}-text`} className="mt-2 text-sm text-slate-700">
        {description}
      </p>
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <Button ref={cancel} onClick={onCancel}>
          Cancel
        </Button>
        <Button variant={tone} aria-disabled={pending} onClick={() => !pending && onConfirm()}>
          {pending && pendingLabel ? pendingLabel : confirmLabel}
        </Button>
      </div>
    </Modal>
  );
}
