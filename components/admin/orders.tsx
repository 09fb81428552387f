"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useRef, useTransition } from "react";
import { RequestId } from "@/components/admin/form-fields";
import { OrderPanel } from "@/components/admin/order-panel";
import { OrderStatusBadge } from "@/components/admin/status-badge";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { focusRing } from "@/components/ui/focus-ring";
import { DateTime } from "@/components/ui/date-time";
import { AdminRequestError } from "@/lib/client/admin-api";
import { fetchOrderCounts, fetchOrderPage, ORDERS_KEY } from "@/lib/client/orders-api";
import { orderStatuses, type OrderStatus } from "@/lib/orders/schema";

// The Orders page's content. The URL is its state, as on the Activity page: the status chip, the customer search
// (q) and the page (cursor) are its query string, and ?order=<id> opens one order beside the list. Newest first.

const PATH = "/admin/orders";
const PAGE_SIZE = "20";

function hrefOf(query: URLSearchParams): string {
  return query.size > 0 ? `${PATH}?${query}` : PATH;
}

/** The URL's view (status, q) without the page or the open order. */
function viewOf(searchParams: URLSearchParams): URLSearchParams {
  const view = new URLSearchParams();
  const status = searchParams.get("status");
  if (status && (orderStatuses as readonly string[]).includes(status)) view.set("status", status);
  const q = searchParams.get("q")?.trim();
  if (q) view.set("q", q.slice(0, 100));
  return view;
}

function withParam(query: URLSearchParams, name: string, value: string | undefined): URLSearchParams {
  const next = new URLSearchParams(query);
  if (value === undefined) next.delete(name);
  else next.set(name, value);
  return next;
}

export function Orders() {
  const searchParams = useSearchParams();
  const router = useRouter();
  const [navigating, startTransition] = useTransition();
  const heading = useRef<HTMLHeadingElement>(null);
  const view = viewOf(searchParams);
  const cursor = searchParams.get("cursor") ?? undefined;
  const openOrder = searchParams.get("order") ?? undefined;
  const here = new URLSearchParams(view);
  if (cursor) here.set("cursor", cursor);

  const request = new URLSearchParams({ ...Object.fromEntries(view), sort: "-id", limit: PAGE_SIZE });
  if (cursor) request.set("cursor", cursor);
  const page = useQuery({
    queryKey: [...ORDERS_KEY, "page", request.toString()],
    queryFn: () => fetchOrderPage(request),
    placeholderData: keepPreviousData,
  });
  const counts = useQuery({ queryKey: [...ORDERS_KEY, "counts"], queryFn: fetchOrderCounts });

  const go = (href: string) =>
    startTransition(() => {
      router.push(href, { scroll: false });
      heading.current?.focus();
    });
  const shown = page.isPlaceholderData || navigating ? undefined : page.data?.orders.length;
  const status = view.get("status") as OrderStatus | null;
  const filtered = view.size > 0;

  return (
    <div className={openOrder ? "grid gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]" : ""}>
      <section aria-labelledby="orders-title" className="min-w-0">
        <h1 id="orders-title" ref={heading} tabIndex={-1} className={`text-2xl font-semibold ${focusRing}`}>
          Orders
        </h1>
        <p className="mt-1 max-w-prose text-sm text-slate-700">
          Every sale, newest first. A placed order holds its pet (pending) until it is approved, delivered or cancelled,
          or its hold ends; place one from a pet&apos;s panel in the catalogue.
        </p>

        <nav aria-label="Order status" className="mt-4">
          <ul className="flex flex-wrap gap-2">
            {[undefined, ...orderStatuses].map((chip) => {
              const current = (status ?? undefined) === chip;
              const count = chip ? counts.data?.byStatus[chip] : counts.data?.total;
              return (
                <li key={chip ?? "all"}>
                  <Link
                    href={hrefOf(withParam(view, "status", chip))}
                    aria-current={current ? "page" : undefined}
                    data-testid={`order-chip-${chip ?? "all"}`}
                    className={buttonClass({ variant: current ? "primary" : "plain" })}
                  >
                    {chip ?? "All"} <span className="ml-1 tabular-nums">{count ?? "…"}</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>

        <SearchForm key={view.get("q") ?? ""} view={view} onSearch={(q) => go(hrefOf(withParam(view, "q", q)))} />

        <div aria-busy={page.isFetching || navigating} className="mt-4">
          <p role="status" className={shown === 0 ? "rounded-md border border-dashed p-6 text-center" : "sr-only"}>
            {shown === undefined
              ? ""
              : shown === 0
                ? filtered
                  ? "No orders match."
                  : "No orders yet."
                : `${shown} order${shown === 1 ? "" : "s"}${cursor ? " further back" : ""}, newest first.`}
          </p>
          {page.isError ? (
            <Alert>
              <p>The orders could not be loaded: {page.error.message}</p>
              {page.error instanceof AdminRequestError ? <RequestId id={page.error.requestId} /> : null}
              <Button variant="onError" className="mt-2" onClick={() => void page.refetch()}>
                Try again
              </Button>
            </Alert>
          ) : !page.data ? (
            <p className="text-sm text-slate-600">Loading the orders…</p>
          ) : page.data.orders.length === 0 ? null : (
            <ol className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" data-testid="orders">
              {page.data.orders.map((order) => {
                const id = String(order.id);
                const selected = id === openOrder;
                return (
                  <li key={id} data-testid="order-row" className={selected ? "bg-indigo-50" : ""}>
                    <Link
                      href={hrefOf(withParam(here, "order", id))}
                      scroll={false}
                      aria-current={selected ? "true" : undefined}
                      className={`flex min-h-11 flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3 ${focusRing}`}
                    >
                      <span className="font-mono text-sm tabular-nums">#{id}</span>
                      <span className="min-w-0 font-medium break-words">
                        {order.petName}
                        <span className="font-normal text-slate-700"> to {order.customerName}</span>
                      </span>
                      <OrderStatusBadge status={order.status} />
                      <span className="text-sm text-slate-600">
                        placed <DateTime at={order.placedAt} />
                      </span>
                    </Link>
                  </li>
                );
              })}
            </ol>
          )}
          <div className="mt-4 flex flex-wrap gap-2">
            {cursor ? <Button onClick={() => go(hrefOf(view))}>Newest orders</Button> : null}
            {page.data?.nextCursor ? (
              <Button onClick={() => go(hrefOf(withParam(view, "cursor", page.data.nextCursor)))}>Older orders</Button>
            ) : null}
          </div>
        </div>
      </section>
      {openOrder ? <OrderPanel key={openOrder} id={openOrder} closeHref={hrefOf(here)} /> : null}
    </div>
  );
}

/** The customer search: a GET form, so it works before the page's script has loaded; one history entry a search. */
function SearchForm({ view, onSearch }: { view: URLSearchParams; onSearch: (q: string | undefined) => void }) {
  return (
    <form
      role="search"
      action={PATH}
      className="mt-4 flex flex-wrap items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        const q = new FormData(event.currentTarget).get("q");
        onSearch(typeof q === "string" && q.trim() ? q.trim() : undefined);
      }}
    >
      {view.get("status") ? <input type="hidden" name="status" value={view.get("status")!} /> : null}
      <div className="min-w-0 grow sm:max-w-sm">
        <label htmlFor="order-search" className="text-sm font-medium">
          Customer name contains
        </label>
        <input
          id="order-search"
          name="q"
          type="search"
          maxLength={100}
          defaultValue={view.get("q") ?? ""}
          className={inputClass(false)}
        />
      </div>
      <Button type="submit">Search</Button>
    </form>
  );
}
