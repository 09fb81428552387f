"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { RecordTime } from "@/components/admin/activity-record";
import { RequestId } from "@/components/admin/form-fields";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { fetchPetHistory, petHistoryKey } from "@/lib/client/activity-api";
import { AdminRequestError } from "@/lib/client/admin-api";

// A pet's History in its panel: who changed it, when, and how, newest first, read from the activity log (any staff
// member may see a pet's own records). A change made in the panel reads it again (use-pet-change.ts).

export function PetHistory({ id }: { id: string }) {
  const query = useInfiniteQuery({
    queryKey: petHistoryKey(id),
    queryFn: ({ pageParam }) => fetchPetHistory(id, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor,
  });
  const records = query.data?.pages.flatMap((page) => page.records) ?? [];

  return (
    <section aria-labelledby="pet-history-title" className="mt-5 border-t border-slate-200 pt-4">
      <h3 id="pet-history-title" className="text-sm font-semibold">
        History
      </h3>
      {query.isError ? (
        <Alert className="mt-2">
          <p>The history could not be loaded: {query.error.message}</p>
          {query.error instanceof AdminRequestError ? <RequestId id={query.error.requestId} /> : null}
        </Alert>
      ) : query.isPending ? (
        <p className="mt-2 text-sm text-slate-600">Loading its history…</p>
      ) : records.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No changes recorded.</p>
      ) : (
        <ol className="mt-2 space-y-2 text-sm" data-testid="pet-history">
          {records.map((record) => (
            <li key={record.id} className="break-words">
              <span data-testid="pet-history-summary">{record.summary}</span>
              <span className="block text-xs text-slate-600">
                <RecordTime at={record.at} />
              </span>
            </li>
          ))}
        </ol>
      )}
      {query.hasNextPage ? (
        <Button
          aria-disabled={query.isFetchingNextPage}
          onClick={() => !query.isFetchingNextPage && void query.fetchNextPage()}
          className="mt-2"
        >
          {query.isFetchingNextPage ? "Loading…" : "Show older changes"}
        </Button>
      ) : null}
    </section>
  );
}
