import type { ReactNode } from "react";

// The boxed alert: a failure (the red box) or a warning (amber, e.g. a conflict), announced at once (role="alert"),
// or, `polite`, when the reader is done with what they are saying (role="status": news that is not an error).

const tones = {
  error: "border-red-300 bg-red-50 text-red-900",
  warning: "border-amber-400 bg-amber-50 text-amber-950",
} as const;

export function Alert({
  tone = "error",
  id,
  polite = false,
  className = "",
  children,
}: {
  tone?: keyof typeof tones;
  polite?: boolean;
  id?: string;
  /** Margins, where the alert sits. */
  className?: string;
  children: ReactNode;
}) {
  return (
    <div
      id={id}
      role={polite ? "status" : "alert"}
      className={`rounded-md border p-3 text-sm ${tones[tone]} ${className}`.trim()}
    >
      {children}
    </div>
  );
}
