"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRef, useState } from "react";
import { RequestId } from "@/components/admin/form-fields";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { focusRing } from "@/components/ui/focus-ring";
import { categoryRenameSchema, unnamedCategoryLabel, type Category } from "@/lib/categories/schema";
import { AdminRequestError } from "@/lib/client/admin-api";
import {
  addCategory,
  CATEGORIES_KEY,
  CATEGORY_COUNTS_KEY,
  fetchCategoryCounts,
  renameCategory,
  type CategoryListing,
} from "@/lib/client/categories-api";
import { staffFieldErrors } from "@/lib/client/pet-form";
import { categoryMessages } from "@/lib/pets/staff-messages";

// The Categories page's content: every named category (by name) and every id pets carry without a name, each with
// how many pets it holds. Admins add a category (a name; the server picks a free id), rename one, or name an
// unnamed id, each in a small form validated by the server's own schema; a refusal (a name taken, in any case) is
// shown beside the input, which keeps the focus. After a rename the focus returns to the row's button, and a
// polite status says what changed.

/** The id of a row's Rename / Name button, to give the focus back to. */
const actionId = (id: bigint) => `category-action-${id}`;

type Problem = { message: string; requestId?: string };

/** A name's problem: the schema's first refusal in staff words, or undefined when it is a valid name. */
function nameProblem(name: string): string | undefined {
  const input = { name };
  const result = categoryRenameSchema.safeParse(input);
  return result.success ? undefined : staffFieldErrors(result.error, input, categoryMessages)[0]?.message;
}

/** A refused request as the form shows it: the server's message for the name, with the request id. */
function problemOf(error: Error): Problem {
  if (!(error instanceof AdminRequestError)) return { message: error.message };
  const named = error.errors?.find((item) => item.path === "name" || item.path === "id");
  return { message: named?.message ?? error.message, requestId: error.requestId };
}

export function Categories({ isAdmin }: { isAdmin: boolean }) {
  const client = useQueryClient();
  const query = useQuery({ queryKey: CATEGORY_COUNTS_KEY, queryFn: fetchCategoryCounts });
  const [editing, setEditing] = useState<bigint>();
  const [said, setSaid] = useState("");

  /** After a change: the names and counts are read again (every page showing a name follows), then focus moves. */
  const changed = async (message: string, focusId?: string) => {
    setSaid(message);
    await client.invalidateQueries({ queryKey: CATEGORIES_KEY });
    if (focusId) document.getElementById(focusId)?.focus();
  };

  const stopEditing = (id: bigint) => {
    setEditing(undefined);
    requestAnimationFrame(() => document.getElementById(actionId(id))?.focus());
  };

  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <section aria-labelledby="category-list-title" className="min-w-0">
        <h2 id="category-list-title" className="text-lg font-semibold">
          All categories
        </h2>
        <p role="status" className="mt-1 min-h-5 text-sm text-emerald-800" data-testid="categories-status">
          {said}
        </p>
        <div className="mt-2" aria-busy={query.isFetching}>
          {query.isError && !query.data ? (
            <Alert>
              <p className="font-medium">The categories could not be loaded.</p>
              <p className="mt-1">{query.error.message}</p>
              {query.error instanceof AdminRequestError ? <RequestId id={query.error.requestId} /> : null}
              <Button onClick={() => void query.refetch()} className="mt-3">
                Try again
              </Button>
            </Alert>
          ) : !query.data ? (
            <p role="status" className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-600">
              Loading categories…
            </p>
          ) : query.data.length === 0 ? (
            <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-sm">
              No category has a name yet, and no pet carries a category id.
              {isAdmin ? " Add a category with the form." : ""}
            </p>
          ) : (
            <CategoryTable
              rows={query.data}
              isAdmin={isAdmin}
              editing={editing}
              onEdit={setEditing}
              onCancel={stopEditing}
              onDone={(id, message) => {
                setEditing(undefined);
                void changed(message, actionId(id));
              }}
            />
          )}
        </div>
      </section>
      {isAdmin ? (
        <AddCategoryForm onAdded={(category) => void changed(`Added “${category.name}” as category ${category.id}.`)} />
      ) : null}
    </div>
  );
}

function CategoryTable({
  rows,
  isAdmin,
  editing,
  onEdit,
  onCancel,
  onDone,
}: {
  rows: CategoryListing[];
  isAdmin: boolean;
  editing: bigint | undefined;
  onEdit: (id: bigint) => void;
  onCancel: (id: bigint) => void;
  onDone: (id: bigint, message: string) => void;
}) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">
          Categories by name, then the category ids pets carry without a name, with how many pets each holds
        </caption>
        <thead className="bg-slate-100 text-xs tracking-wide text-slate-600 uppercase">
          <tr>
            <th scope="col" className="px-3 py-2">
              Category
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Pets
            </th>
            {isAdmin ? (
              <th scope="col" className="px-3 py-2">
                <span className="sr-only">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => {
            const label = row.name ?? unnamedCategoryLabel(row.id);
            return (
              <tr key={String(row.id)} data-testid="category-row">
                <th scope="row" className="px-3 py-2 font-normal">
                  {editing === row.id ? (
                    <NameForm
                      row={row}
                      onCancel={() => onCancel(row.id)}
                      onDone={(message) => onDone(row.id, message)}
                    />
                  ) : (
                    <>
                      <span
                        className={row.name === null ? "text-slate-700 italic" : "font-medium break-words"}
                        data-testid="category-name"
                      >
                        {label}
                      </span>
                      <span className="block font-mono text-xs text-slate-600 tabular-nums">id {String(row.id)}</span>
                    </>
                  )}
                </th>
                <td className="px-3 py-2 text-right font-mono tabular-nums" data-testid="category-pets">
                  <CountLink id={row.id} pets={row.pets} label={label} />
                </td>
                {isAdmin ? (
                  <td className="px-3 py-2 text-right">
                    {editing === row.id ? null : (
                      <Button
                        id={actionId(row.id)}
                        onClick={() => onEdit(row.id)}
                        aria-label={row.name === null ? `Name ${label}` : `Rename ${label}`}
                      >
                        {row.name === null ? "Name" : "Rename"}
                      </Button>
                    )}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A category name's form: the name typed, its problem (checked by the schema before anything is sent, then the
 * server's), and the submit that sends it with `save`; a refusal puts the focus back in the input.
 */
function useNameForm<Result>(
  initial: string,
  save: (name: string) => Promise<Result>,
  onSaved: (
    result: Result,
    form: { setName: (name: string) => void; input: React.RefObject<HTMLInputElement | null> },
  ) => void,
) {
  const [name, setName] = useState(initial);
  const [problem, setProblem] = useState<Problem>();
  const input = useRef<HTMLInputElement>(null);
  const mutation = useMutation({
    mutationFn: save,
    onSuccess: (result) => onSaved(result, { setName, input }),
    onError: (error) => {
      setProblem(problemOf(error));
      input.current?.focus();
    },
  });

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (mutation.isPending) return;
    const message = nameProblem(name);
    if (message) {
      setProblem({ message });
      input.current?.focus();
      return;
    }
    setProblem(undefined);
    mutation.mutate(name);
  }

  return { name, setName, problem, input, mutation, onSubmit };
}

/** Renaming a category, or naming an id pets carry without a name, inline in its row. Escape cancels. */
function NameForm({
  row,
  onCancel,
  onDone,
}: {
  row: CategoryListing;
  onCancel: () => void;
  onDone: (message: string) => void;
}) {
  const inputId = `category-name-${row.id}`;
  const label = row.name ?? unnamedCategoryLabel(row.id);
  const { name, setName, problem, input, mutation, onSubmit } = useNameForm(
    row.name ?? "",
    (next) =>
      row.name === null
        ? addCategory({ id: row.id, name: next }).then((category) => `Named category ${row.id} “${category.name}”.`)
        : renameCategory(row.id, next).then(({ category, renamed }) =>
            renamed ? `Renamed “${row.name}” to “${category.name}”.` : `“${category.name}” is unchanged.`,
          ),
    onDone,
  );

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-2" aria-label={`Name for ${label}`}>
      <TextField
        id={inputId}
        label={row.name === null ? `Name for id ${row.id}` : `New name for “${row.name}”`}
        errors={problem ? [problem.message] : undefined}
        ref={input}
        // Moving the focus into the form that just opened is what the button pressed asked for.
        // eslint-disable-next-line jsx-a11y/no-autofocus
        autoFocus
        value={name}
        onChange={(event) => setName(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") {
            event.preventDefault();
            onCancel();
          }
        }}
        autoComplete="off"
      />
      {problem?.requestId ? <RequestId id={problem.requestId} className="text-slate-600" /> : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="primary" disabled={mutation.isPending}>
          {mutation.isPending ? "Saving…" : "Save"}
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}

/** Adding a category: a name; the server gives it a free id (lib/categories/store.ts). */
function AddCategoryForm({ onAdded }: { onAdded: (category: Category) => void }) {
  const { name, setName, problem, input, mutation, onSubmit } = useNameForm(
    "",
    (next) => addCategory({ name: next }),
    (category, { setName: clear, input: field }) => {
      clear("");
      onAdded(category);
      field.current?.focus(); // ready for the next one
    },
  );

  return (
    <section
      aria-labelledby="add-category-title"
      className="order-first h-fit rounded-lg border border-slate-200 bg-white p-4 lg:order-none"
    >
      <h2 id="add-category-title" className="text-lg font-semibold">
        Add a category
      </h2>
      <form noValidate onSubmit={onSubmit} className="mt-3 space-y-3">
        <div>
          <TextField
            id="category-name"
            label="Name"
            hint="1 to 100 characters; no two categories share a name, whatever its case."
            errors={problem ? [problem.message] : undefined}
            ref={input}
            value={name}
            onChange={(event) => setName(event.target.value)}
            autoComplete="off"
          />
          {problem?.requestId ? <RequestId id={problem.requestId} className="text-slate-600" /> : null}
        </div>
        <Button type="submit" variant="primary" disabled={mutation.isPending} className="w-full">
          {mutation.isPending ? "Adding…" : "Add category"}
        </Button>
      </form>
    </section>
  );
}

const countLinkClass =
  "inline-flex min-h-11 min-w-11 items-center justify-end rounded text-indigo-700 underline underline-offset-2 " +
  `hover:text-indigo-900 ${focusRing}`;

/** A category's count of pets, a link to the catalogue showing them (`/admin?categoryId=…`). */
function CountLink({ id, pets, label }: { id: bigint; pets: number; label: string }) {
  const count = pets.toLocaleString("en");
  return (
    <Link
      href={`/admin?${new URLSearchParams({ categoryId: String(id) })}`}
      aria-label={`${count} ${pets === 1 ? "pet" : "pets"} in ${label}: show in the catalogue`}
      className={countLinkClass}
    >
      {count}
    </Link>
  );
}
