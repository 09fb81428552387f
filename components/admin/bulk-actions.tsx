"use client";

import { useId, useState } from "react";
import { RequestId } from "@/components/admin/form-fields";
import { actionPhrase, type useBulkActions } from "@/components/admin/use-bulk-actions";
import type { Selection } from "@/components/admin/use-selection";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { focusRing } from "@/components/ui/focus-ring";
import { BATCH_MAX_PETS } from "@/lib/pets/batch-schema";
import { petStatuses } from "@/lib/pets/schema";

// The catalogue's bar of bulk actions, shown while pets are selected: how many, Clear, the offer to select every
// pet the view lists, Set status, Change category, Delete and Export selection; a refused batch's words with the
// offer to apply it to the others; and the confirmation of a deletion or of a change reaching pets off the page.
// The state is in use-selection.ts and use-bulk-actions.ts.

type Bulk = ReturnType<typeof useBulkActions>;
type Names = ReadonlyMap<string, string> | undefined;

export function BulkActions({
  selection,
  bulk,
  total,
  pageSize,
  names,
}: {
  selection: Selection;
  bulk: Bulk;
  /** How many pets the view lists, when known exactly. */
  total: number | undefined;
  /** How many pets the page on screen shows. */
  pageSize: number;
  names: Names;
}) {
  const { count } = selection;
  const asking = bulk.asking;
  return (
    <>
      {bulk.refused ? <RefusalAlert bulk={bulk} /> : null}
      {bulk.failure ? (
        <Alert className="mb-3">
          <p>{bulk.failure.message}</p>
          {bulk.failure.requestId ? <RequestId id={bulk.failure.requestId} className="mt-1" /> : null}
        </Alert>
      ) : null}
      {selection.collectFailure ? (
        <Alert className="mb-3">
          <p data-testid="select-all-failure">{selection.collectFailure.message}</p>
          {selection.collectFailure.requestId ? (
            <RequestId id={selection.collectFailure.requestId} className="mt-1" />
          ) : null}
        </Alert>
      ) : null}
      {count > 0 ? (
        <section
          aria-label="Selected pets"
          data-testid="bulk-bar"
          className={
            "mb-3 flex flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border border-indigo-200 bg-indigo-50 p-3"
          }
        >
          <div className="flex flex-wrap items-center gap-2">
            <p className="text-sm font-medium" data-testid="selected-count">
              {`${count.toLocaleString("en")} selected`}
            </p>
            <Button onClick={selection.clear}>Clear selection</Button>
          </div>
          <MatchingOffer selection={selection} total={total} pageSize={pageSize} />
          <div role="group" aria-label="Set status" className="flex flex-wrap items-center gap-2">
            <span aria-hidden="true" className="text-sm">
              Set status:
            </span>
            {petStatuses.map((status) => (
              <Button key={status} aria-disabled={bulk.busy} onClick={() => bulk.request({ kind: "status", status })}>
                {status[0].toUpperCase() + status.slice(1)}
              </Button>
            ))}
          </div>
          <CategoryChange bulk={bulk} names={names} />
          <div className="flex flex-wrap items-center gap-2">
            <Button variant="dangerOutline" aria-disabled={bulk.busy} onClick={() => bulk.request({ kind: "delete" })}>
              Delete…
            </Button>
            <Button onClick={bulk.exportSelection}>Export selection</Button>
          </div>
          <p role="status" className="text-sm">
            {bulk.running ? "Working…" : ""}
          </p>
        </section>
      ) : null}
      <ConfirmDialog
        open={asking !== undefined}
        idPrefix="bulk-confirm"
        title={asking ? `${actionPhrase(asking, count, names)}?` : ""}
        description={
          (selection.offPage > 0 ? `${selection.offPage.toLocaleString("en")} of them are not on this page. ` : "") +
          "All of them change, or none do." +
          (asking?.kind === "delete" ? " Undo can bring them back for a minute." : "")
        }
        confirmLabel={asking ? actionPhrase(asking, count, names) : ""}
        pendingLabel="Working…"
        pending={bulk.running}
        tone={asking?.kind === "delete" ? "danger" : "primary"}
        onConfirm={bulk.confirm}
        onCancel={bulk.cancel}
      />
    </>
  );
}

/** Once the whole page is selected: select every pet the view lists (a bulk change takes at most 1,000). */
function MatchingOffer({ selection, total, pageSize }: { selection: Selection; total?: number; pageSize: number }) {
  if (selection.collecting) {
    const { read, of } = selection.collecting;
    return (
      <p className="text-sm" role="status">{`Selecting… ${read.toLocaleString("en")} of ${of.toLocaleString("en")}`}</p>
    );
  }
  if (total === undefined || total <= pageSize) return null;
  if (selection.count >= total)
    return <p className="text-sm">{`All ${total.toLocaleString("en")} matching pets are selected.`}</p>;
  if (selection.pageState !== "all") return null;
  if (total > BATCH_MAX_PETS)
    return (
      <p className="text-sm">
        {`${total.toLocaleString("en")} pets match: a bulk change takes at most ` +
          `${BATCH_MAX_PETS.toLocaleString("en")}. Narrow the filter or search to select them all.`}
      </p>
    );
  return (
    <Button onClick={() => void selection.selectAllMatching(total)}>
      {`Select all ${total.toLocaleString("en")} matching`}
    </Button>
  );
}

function CategoryChange({ bulk, names }: { bulk: Bulk; names: Names }) {
  const id = useId();
  const [chosen, setChosen] = useState("");
  const categories = [...(names ?? [])].sort((a, b) => a[1].localeCompare(b[1]));
  if (categories.length === 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label htmlFor={id} className="text-sm">
        Category
      </label>
      <select
        id={id}
        value={chosen}
        onChange={(event) => setChosen(event.target.value)}
        className={`min-h-11 max-w-48 rounded-md border border-slate-300 bg-white px-2 text-sm ${focusRing}`}
      >
        <option value="">Choose…</option>
        {categories.map(([value, name]) => (
          <option key={value} value={value}>
            {name}
          </option>
        ))}
      </select>
      <Button
        aria-disabled={bulk.busy || chosen === ""}
        onClick={() => chosen && bulk.request({ kind: "category", categoryId: BigInt(chosen) })}
      >
        Change category
      </Button>
    </div>
  );
}

function RefusalAlert({ bulk }: { bulk: Bulk }) {
  const refused = bulk.refused!;
  const others = refused.rest.length;
  return (
    <Alert tone="warning" className="mb-3">
      <p data-testid="bulk-refusal">{refused.message}</p>
      <div className="mt-2 flex flex-wrap gap-2">
        {others > 0 ? (
          <Button variant="onWarning" aria-disabled={bulk.busy} onClick={bulk.applyToRest}>
            {`Apply to the other ${others.toLocaleString("en")}`}
          </Button>
        ) : null}
        <Button variant="onWarning" onClick={bulk.dismissRefusal}>
          Dismiss
        </Button>
      </div>
    </Alert>
  );
}
