"use client";

import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { signOut } from "@/lib/client/admin-api";
import { clearDrafts } from "@/lib/client/drafts";

/**
 * Ends the session and leaves for the sign-in page, which confirms it ("You have signed out."): a full navigation,
 * so no page or data of the session stays in memory. Throws when the sign-out was refused or not sent.
 */
export async function signOutAndLeave(queryClient: QueryClient): Promise<void> {
  await signOut();
  queryClient.clear();
  clearDrafts();
  window.location.replace("/sign-in?reason=signed-out");
}

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
        className="shrink-0 whitespace-nowrap"
        disabled={pending}
        onClick={async () => {
          setPending(true);
          setFailed(undefined);
          try {
            await signOutAndLeave(queryClient);
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
