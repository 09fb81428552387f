"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { signOut } from "@/lib/client/admin-api";
import { clearDrafts } from "@/lib/client/drafts";

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
      <Button
        disabled={pending}
        onClick={async () => {
          setPending(true);
          setFailed(undefined);
          try {
            await signOut();
            queryClient.clear();
            clearDrafts();
            // A full navigation: no page or data of the session stays in memory.
            // The sign-in page confirms it ("You have signed out.").
            window.location.replace("/sign-in?reason=signed-out");
          } catch (error) {
            setFailed(`Sign-out failed: ${error instanceof Error ? error.message : String(error)}`);
            setPending(false);
          }
        }}
      >
        {pending ? "Signing out…" : "Sign out"}
      </Button>
    </span>
  );
}
