"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { RequestId } from "@/components/admin/form-fields";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { focusRing } from "@/components/ui/focus-ring";
import { DateTime } from "@/components/ui/date-time";
import { AdminRequestError } from "@/lib/client/admin-api";
import { fetchOpenOrderOf, ORDERS_KEY, placeOrder, type Order } from "@/lib/client/orders-api";
import { PETS_KEY, petQueryKey } from "@/lib/client/pet-cache";
import { byField, refusedFieldErrors, staffFieldErrors, type FormErrors } from "@/lib/client/pet-form";
import { CUSTOMER_NAME_MAX_LENGTH, newOrderSchema } from "@/lib/orders/schema";
import type { Pet } from "@/lib/pets/schema";
import { orderMessages } from "@/lib/pets/staff-messages";

// A pet's sale, in its panel: while an order holds the pet, a banner naming the customer, until when, and the order
// (its status and deletion are then the order's to change: the panel says so instead of offering them); for an
// available pet, Place order, a counter or phone sale with the customer's name and email.

const orderFields = ["customerName", "customerEmail"] as const;

export function petOrderQueryKey(petId: string) {
  return [...ORDERS_KEY, "of-pet", petId] as const;
}

/** The open order holding this pet, if one does (undefined while it is being read). */
export function useOpenOrder(petId: string) {
  return useQuery({ queryKey: petOrderQueryKey(petId), queryFn: () => fetchOpenOrderOf(petId) });
}

/** Why the pet's status and deletion are not offered: the order holding it. */
export function holdReason(order: Order): string {
  return `Order #${String(order.id)} holds this pet: deliver or cancel the order to change its status or delete it.`;
}

export function PetOrder({ pet, order }: { pet: Pet; order: Order | null | undefined }) {
  // The order placed from this panel: its banner takes the focus and says so, where the form was.
  const [placed, setPlaced] = useState<bigint | undefined>();
  if (order) return <HoldBanner order={order} justPlaced={order.id === placed} />;
  if (order === null && pet.status === "available") return <PlaceOrder pet={pet} onPlaced={setPlaced} />;
  return null;
}

function HoldBanner({ order, justPlaced }: { order: Order; justPlaced: boolean }) {
  const id = String(order.id);
  const banner = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (justPlaced) banner.current?.focus();
  }, [justPlaced]);
  return (
    <div
      ref={banner}
      tabIndex={-1}
      className={`mt-3 rounded-md border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950 ${focusRing}`}
      data-testid="hold"
    >
      {justPlaced ? (
        <p className="font-medium">
          Order #{id} placed for {order.customerName}.
        </p>
      ) : null}
      <p>
        {order.status === "placed" && order.expiresAt ? (
          <>
            On hold for {order.customerName} until <DateTime at={order.expiresAt} /> (order #{id}).
          </>
        ) : (
          `Held for ${order.customerName}: order #${id} is approved.`
        )}
      </p>
      <Link
        href={`/admin/orders?order=${id}`}
        className={`mt-1 inline-flex min-h-11 items-center underline ${focusRing}`}
      >
        Open order #{id}
      </Link>
    </div>
  );
}

function PlaceOrder({ pet, onPlaced }: { pet: Pet; onPlaced: (orderId: bigint) => void }) {
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [errors, setErrors] = useState<FormErrors<(typeof orderFields)[number]>>({});
  const nameField = useRef<HTMLInputElement>(null);
  const emailField = useRef<HTMLInputElement>(null);
  /** The errors beside their inputs, and the focus on the first input refused. */
  const show = (found: typeof errors) => {
    setErrors(found);
    if (found.customerName) nameField.current?.focus();
    else if (found.customerEmail) emailField.current?.focus();
  };
  const opener = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    // Into the form once when it opens; back to its button when it is cancelled.
    if (open) nameField.current?.focus();
    else if (wasOpen.current) opener.current?.focus();
    wasOpen.current = open;
  }, [open]);
  const petId = String(pet.id);
  const place = useMutation({
    mutationFn: (input: { customerName: string; customerEmail?: string }) => placeOrder({ petId: pet.id, ...input }),
    onSuccess: ({ order }) => {
      // The hold at once, in place of this form (the refetches below confirm it).
      client.setQueryData(petOrderQueryKey(petId), order);
      onPlaced(order.id);
    },
    onError: (error) => {
      // The form's own check passed: a refused field is one an outdated page let through.
      if (error instanceof AdminRequestError && error.errors?.length)
        show(byField(orderFields, refusedFieldErrors(error.errors)));
    },
    onSettled: () => {
      void client.invalidateQueries({ queryKey: ORDERS_KEY });
      void client.invalidateQueries({ queryKey: PETS_KEY });
      void client.invalidateQueries({ queryKey: petQueryKey(petId) });
    },
  });

  if (!open) {
    return (
      <div className="mt-3">
        <Button ref={opener} variant="primary" onClick={() => setOpen(true)} aria-expanded={false}>
          Place order…
        </Button>
      </div>
    );
  }
  const failed = place.error && !errors.customerName && !errors.customerEmail && !errors.form ? place.error : null;
  return (
    <form
      aria-labelledby="place-order-title"
      className="mt-3 space-y-3 rounded-md border border-slate-200 p-3"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        const text = (name: string) => {
          const value = data.get(name);
          return typeof value === "string" ? value : "";
        };
        const email = text("customerEmail").trim();
        const input = {
          customerName: text("customerName"),
          ...(email ? { customerEmail: email } : {}),
        };
        // The API's own schema, its refusal in staff words beside the inputs; nothing is sent.
        const body = { petId: pet.id, ...input };
        const parsed = newOrderSchema.safeParse(body);
        if (!parsed.success) return show(byField(orderFields, staffFieldErrors(parsed.error, body, orderMessages)));
        setErrors({});
        if (!place.isPending) place.mutate(input);
      }}
    >
      <h3 id="place-order-title" className="text-sm font-semibold">
        Place an order for {pet.name}
      </h3>
      <TextField
        id="order-customer-name"
        name="customerName"
        label="Customer name"
        autoComplete="off"
        maxLength={CUSTOMER_NAME_MAX_LENGTH}
        required
        ref={nameField}
        errors={errors.customerName}
      />
      <TextField
        id="order-customer-email"
        name="customerEmail"
        type="email"
        label="Customer email (optional)"
        autoComplete="off"
        ref={emailField}
        errors={errors.customerEmail}
      />
      {errors.form ? (
        <Alert>
          <p>The order was not placed: {errors.form.join(" ")}</p>
        </Alert>
      ) : null}
      {failed ? (
        <Alert>
          <p>The order was not placed: {failed.message}</p>
          {failed instanceof AdminRequestError ? <RequestId id={failed.requestId} /> : null}
        </Alert>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="primary" aria-disabled={place.isPending}>
          {place.isPending ? "Placing…" : "Place order"}
        </Button>
        <Button onClick={() => setOpen(false)}>Cancel</Button>
      </div>
    </form>
  );
}
