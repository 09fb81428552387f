import type { OrderStatus } from "@/lib/orders/schema";
import type { PetStatus } from "@/lib/pets/schema";

const styles: Record<PetStatus, string> = {
  available: "bg-emerald-100 text-emerald-800 ring-emerald-600/30",
  pending: "bg-amber-100 text-amber-900 ring-amber-600/30",
  sold: "bg-slate-200 text-slate-700 ring-slate-500/30",
};

/** A pet's status as a coloured badge; the word is always there, so colour is never the only signal. */
export function StatusBadge({ status }: { status?: PetStatus }) {
  if (!status) return <span className="text-sm text-slate-600 italic">no status</span>;
  return (
    <span
      className={
        "inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset " + styles[status]
      }
    >
      {status}
    </span>
  );
}

const orderStyles: Record<OrderStatus, string> = {
  placed: "bg-amber-100 text-amber-900 ring-amber-600/30",
  approved: "bg-sky-100 text-sky-900 ring-sky-600/30",
  delivered: "bg-emerald-100 text-emerald-800 ring-emerald-600/30",
  cancelled: "bg-slate-200 text-slate-700 ring-slate-500/30",
  expired: "bg-slate-200 text-slate-700 ring-slate-500/30",
};

/** An order's status as a coloured badge, with its word. */
export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return (
    <span
      className={
        "inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset " + orderStyles[status]
      }
    >
      {status}
    </span>
  );
}
