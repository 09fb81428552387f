"use client";

import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";

// A secret shown once (an API key, a webhook's signing secret) with its Copy button.

/** A read-only value with a Copy button: the clipboard when the browser allows it, else the text selected. */
export function CopyField({ label, value, multiline = false }: { label: string; value: string; multiline?: boolean }) {
  const id = useId();
  const line = useRef<HTMLInputElement>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const [copied, setCopied] = useState<string>("");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("Copied");
    } catch {
      const field = line.current ?? area.current;
      field?.focus();
      field?.select();
      setCopied("Selected: press Ctrl+C (⌘C on a Mac) to copy");
    }
  };
  const fieldClass = `${inputClass(false)} font-mono text-sm`;
  const selectAll = (event: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) => event.currentTarget.select();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
        {multiline ? (
          <textarea
            id={id}
            ref={area}
            readOnly
            value={value}
            rows={3}
            spellCheck={false}
            onFocus={selectAll}
            className={`${fieldClass} break-all`}
          />
        ) : (
          <input
            id={id}
            ref={line}
            readOnly
            value={value}
            spellCheck={false}
            onFocus={selectAll}
            className={fieldClass}
          />
        )}
        <Button size="large" onClick={copy} className="mt-1 shrink-0">
          Copy<span className="sr-only"> {label}</span>
        </Button>
      </div>
      <p role="status" className="mt-1 min-h-5 text-sm text-emerald-800">
        {copied}
      </p>
    </div>
  );
}
