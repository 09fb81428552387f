import type { ComponentProps } from "react";
import { focusRing } from "@/components/ui/focus-ring";

// The app's buttons, in one place: a link that looks like a button takes buttonClass(). A busy button keeps the
// keyboard focus with aria-disabled (styled like disabled); `disabled` is for a button nobody may press yet.

const base =
  "inline-flex min-h-11 items-center justify-center rounded-md border font-medium disabled:opacity-60 " +
  `aria-disabled:cursor-not-allowed aria-disabled:opacity-60 ${focusRing}`;

const variants = {
  /** The everyday button: Cancel, Try again, Copy. */
  plain: "border-slate-300 bg-white text-slate-900 hover:bg-slate-100",
  /** The one action a form or dialog is for. */
  primary: "border-indigo-700 bg-indigo-700 text-white hover:bg-indigo-800",
  /** What cannot be taken back, confirmed: Delete, Revoke key, Disable. */
  danger: "border-red-700 bg-red-700 text-white hover:bg-red-800",
  /** What opens a dangerous confirmation: Delete this pet…. */
  dangerOutline: "border-red-700 bg-white text-red-800 hover:bg-red-50",
  /** An action inside an error alert; the alert's text colour. */
  onError: "border-red-300 bg-white hover:bg-red-100",
  /** An action inside a warning alert. */
  onWarning: "border-amber-600 bg-white hover:bg-amber-100",
} as const;

const sizes = {
  small: "px-3 py-2 text-sm",
  large: "px-4 py-2",
} as const;

export type ButtonVariant = keyof typeof variants;
export type ButtonSize = keyof typeof sizes;
type Look = { variant?: ButtonVariant; size?: ButtonSize; className?: string };

export function buttonClass({ variant = "plain", size = "small", className = "" }: Look = {}): string {
  return `${base} ${sizes[size]} ${variants[variant]} ${className}`.trim();
}

/** A button of the app; `type` is "button" unless said otherwise, so it never submits a form by accident. */
export function Button({ variant, size, className, type = "button", ...props }: ComponentProps<"button"> & Look) {
  return <button type={type} className={buttonClass({ variant, size, className })} {...props} />;
}
