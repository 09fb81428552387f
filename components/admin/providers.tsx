"use client";

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { LiveUpdates } from "@/components/admin/live-updates";
import { NotificationsProvider } from "@/components/admin/notifications";
import { createDrafts, DraftsContext, SessionEndedDialog, signInAgainHref } from "@/components/admin/session-ended";
import { AdminRequestError, isSessionEnded } from "@/lib/client/admin-api";

export function AdminProviders({ children }: { children: React.ReactNode }) {
  const [drafts] = useState(createDrafts);
  // The sign-in link of the session-ended dialog while it is open.
  const [signInHref, setSignInHref] = useState<string>();
  const [client] = useState(() => {
    // A 401 from an admin endpoint means the session ended (signed out elsewhere, expired): say so, and offer
    // sign-in back to this page. No redirect: the page, and what its forms hold, stay.
    const onError = (error: Error) => {
      if (!isSessionEnded(error)) return;
      drafts.endSession();
      setSignInHref(signInAgainHref());
    };
    return new QueryClient({
      queryCache: new QueryCache({ onError }),
      mutationCache: new MutationCache({ onError }),
      defaultOptions: {
        queries: {
          staleTime: 10_000,
          // A 4xx will not change by asking again; a dropped connection or a 503 might.
          retry: (failures, error) =>
            failures < 2 && !(error instanceof AdminRequestError && error.status >= 400 && error.status < 500),
        },
      },
    });
  });
  return (
    <QueryClientProvider client={client}>
      <LiveUpdates />
      <DraftsContext value={drafts}>
        <NotificationsProvider>{children}</NotificationsProvider>
        <SessionEndedDialog signInHref={signInHref} onClose={() => setSignInHref(undefined)} />
      </DraftsContext>
    </QueryClientProvider>
  );
}
