"use client";

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { NotificationsProvider } from "@/components/admin/notifications";
import { AdminRequestError } from "@/lib/client/admin-api";

/** A 401 from an admin endpoint means the session ended (signed out elsewhere, expired): go and sign in. */
function signInAgainOn401(error: Error): void {
  if (error instanceof AdminRequestError && error.status === 401 && error.code === "session_required") {
    window.location.assign(`/sign-in?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
  }
}

export function AdminProviders({ children }: { children: React.ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        queryCache: new QueryCache({ onError: signInAgainOn401 }),
        mutationCache: new MutationCache({ onError: signInAgainOn401 }),
        defaultOptions: {
          queries: {
            staleTime: 10_000,
            // A 4xx will not change by asking again; a dropped connection or a 503 might.
            retry: (failures, error) =>
              failures < 2 && !(error instanceof AdminRequestError && error.status >= 400 && error.status < 500),
          },
        },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      <NotificationsProvider>{children}</NotificationsProvider>
    </QueryClientProvider>
  );
}
