"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { signOut } from "@/lib/client/admin-api";

export function SignOutButton() {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState<string>();
  return (
    <span className="flex items-center gap-2">
      {failed ? (
        <span role="alert" className="text-sm text-red-700">
          {failed}
        </span>
      ) : null}
      <button
        type="button"
        disabled={pending}
        onClick={async () => {
          setPending(true);
          setFailed(undefined);
          try {
            await signOut();
            queryClient.clear();
            // A full navigation: no page or data of the session stays in memory.
            window.location.replace("/sign-in");
          } catch (error) {
            setFailed(`Sign-out failed: ${error instanceof Error ? error.message : String(error)}`);
            setPending(false);
          }
        }}
        className={
          "min-h-11 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium hover:bg-slate-100 " +
          "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60"
        }
      >
        {pending ? "Signing out…" : "Sign out"}
      </button>
    </span>
  );
}
