"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type RefObject } from "react";
import { newStaffSchema, staffPasswordBodySchema, type NewStaff } from "@/lib/auth/staff-schema";
import { AdminRequestError } from "@/lib/client/admin-api";
import { byField, staffFieldErrors, type FormErrors } from "@/lib/client/pet-form";
import {
  changeStaffState,
  createStaffAccount,
  fetchStaff,
  resetStaffPassword,
  setStaffRole,
  STAFF_QUERY_KEY,
  type StaffAccount,
  type StaffRole,
} from "@/lib/client/staff-api";
import { staffAccountMessages } from "@/lib/pets/staff-messages";

// The Staff page's data: the accounts, the changes made to one (with the confirmation some ask first), a new
// password, and adding an account. Every change reads the accounts again; a refusal keeps the server's message and
// the request's id.

export type Outcome = { kind: "done"; message: string } | { kind: "error"; message: string; requestId?: string };

/** The changes that ask first, in the account's confirmation dialog. */
export type Confirmable = "disable" | "demote" | "promote";

type Change = { kind: "disable" | "enable" | "unlock" } | { kind: "role"; role: StaffRole };

const requestIdOf = (error: Error) => (error instanceof AdminRequestError ? error.requestId : undefined);

function outcomeOf(error: Error): Outcome {
  return { kind: "error", message: error.message, requestId: requestIdOf(error) };
}

function doneMessage(changed: StaffAccount, what: Change): string {
  const messages = {
    disable: `${changed.email} is disabled and signed out everywhere.`,
    enable: `${changed.email} can sign in again.`,
    unlock: `${changed.email} is unlocked: failed sign-ins cleared.`,
    role: `${changed.email} is now ${changed.role === "admin" ? "an admin" : "a staff member"}.`,
  };
  return messages[what.kind];
}

export function useStaffAccounts() {
  return useQuery({ queryKey: STAFF_QUERY_KEY, queryFn: fetchStaff });
}

/**
 * The changes to one account. After a confirmed change (or an unlock) the focus goes to the account's heading,
 * as the button pressed may be gone: Disable… becomes Enable, Unlock goes.
 */
export function useAccountChanges(account: StaffAccount, heading: RefObject<HTMLHeadingElement | null>) {
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<Outcome>();
  const [confirming, setConfirming] = useState<Confirmable>();
  // Set when a confirmed change was made: the heading takes the focus once the dialog has closed (closing gives
  // it back to the button that opened the dialog first).
  const headingAfterClose = useRef(false);

  const change = useMutation({
    mutationFn: (what: Change) =>
      what.kind === "role" ? setStaffRole(account.id, what.role) : changeStaffState(account.id, what.kind),
    onSuccess: async (changed, what) => {
      setOutcome({ kind: "done", message: doneMessage(changed, what) });
      await queryClient.invalidateQueries({ queryKey: STAFF_QUERY_KEY });
    },
    onError: (error) => setOutcome(outcomeOf(error)),
    onSettled: (changed, _error, what) => {
      if (what.kind === "disable" || what.kind === "role") {
        headingAfterClose.current = Boolean(changed);
        setConfirming(undefined);
      } else if (changed && what.kind === "unlock") heading.current?.focus();
    },
  });

  const run = (what: Change) => {
    if (change.isPending) return;
    setOutcome(undefined);
    change.mutate(what);
  };
  const ask = (what: Confirmable) => {
    setOutcome(undefined);
    setConfirming(what);
  };
  const confirm = () =>
    run(
      confirming === "disable"
        ? { kind: "disable" }
        : { kind: "role", role: confirming === "promote" ? "admin" : "staff" },
    );
  const confirmClosed = () => {
    setConfirming(undefined);
    if (headingAfterClose.current) heading.current?.focus();
    headingAfterClose.current = false;
  };

  return { outcome, setOutcome, confirming, pending: change.isPending, run, ask, confirm, confirmClosed };
}

/**
 * A new password for an account, typed twice or generated; setting it ends the account's sessions. A generated
 * password not yet copied stays shown once set (`saved`, `stayOpen`), until the admin says they have copied it.
 */
export function usePasswordReset(account: StaffAccount, onDone: (outcome: Outcome, stayOpen: boolean) => void) {
  const queryClient = useQueryClient();
  const [password, setPassword] = useState("");
  const [again, setAgain] = useState("");
  const [generated, setGenerated] = useState(false);
  const [copied, setCopied] = useState(false);
  const [saved, setSaved] = useState(false);
  const [errors, setErrors] = useState<FormErrors<"password" | "again">>({});
  const [requestId, setRequestId] = useState<string>();

  const reset = () => {
    setPassword("");
    setAgain("");
    setGenerated(false);
    setCopied(false);
    setSaved(false);
    setErrors({});
    setRequestId(undefined);
  };

  const mutation = useMutation({
    mutationFn: (input: { password: string; stayOpen: boolean }) => resetStaffPassword(account.id, input.password),
    onSuccess: async (changed, input) => {
      setSaved(input.stayOpen);
      onDone(
        { kind: "done", message: `New password set for ${changed.email}; their sessions were ended.` },
        input.stayOpen,
      );
      await queryClient.invalidateQueries({ queryKey: STAFF_QUERY_KEY });
    },
    onError: (error) => {
      setErrors(
        error instanceof AdminRequestError && error.errors?.length
          ? byField(["password"] as const, error.errors)
          : { form: [error.message] },
      );
      setRequestId(requestIdOf(error));
    },
  });

  const submit = () => {
    if (mutation.isPending || saved) return;
    setRequestId(undefined);
    const body = { password };
    const result = staffPasswordBodySchema.safeParse(body);
    if (!result.success) {
      return setErrors(byField(["password"] as const, staffFieldErrors(result.error, body, staffAccountMessages)));
    }
    if (!generated && again !== password) {
      return setErrors({ again: ["The two passwords differ: type the same password in both fields."] });
    }
    setErrors({});
    mutation.mutate({ password, stayOpen: generated && !copied });
  };

  const generate = (value: string) => {
    setPassword(value);
    setGenerated(true);
    setErrors({});
  };

  const copy = () => void navigator.clipboard?.writeText(password).then(() => setCopied(true));

  const form = { password, setPassword, again, setAgain, generated, generate, copied, copy, saved, errors, requestId };
  return { ...form, reset, submit, pending: mutation.isPending };
}

export const newStaffFields = ["email", "role", "password"] as const;
type NewStaffField = (typeof newStaffFields)[number];

/** An account just added; with the password when it was generated, which stays shown until copied. */
export type AddedAccount = { account: StaffAccount; generatedPassword?: string };

/**
 * Adding an account, validated in the browser by the endpoint's own schema. A generated password outlives the
 * form's reset: the admin has only seen it, so it stays on screen until they say they have copied it.
 */
export function useAddStaff(focus: (field: NewStaffField) => void) {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<StaffRole>("staff");
  const [password, setTypedPassword] = useState("");
  const [generated, setGenerated] = useState(false);
  const [errors, setErrors] = useState<FormErrors<NewStaffField>>({});
  const [requestId, setRequestId] = useState<string>();
  const [added, setAdded] = useState<AddedAccount>();
  // Generated passwords not yet copied, oldest first: adding another account does not take one away unseen.
  const [uncopied, setUncopied] = useState<AddedAccount[]>([]);

  const setPassword = (value: string) => {
    setTypedPassword(value);
    setGenerated(false);
  };
  const generate = (value: string) => {
    setTypedPassword(value);
    setGenerated(true);
  };

  const mutation = useMutation({
    mutationFn: (input: { account: NewStaff; generated: boolean }) => createStaffAccount(input.account),
    onSuccess: async (account, input) => {
      setAdded({ account });
      if (input.generated) setUncopied((shown) => [...shown, { account, generatedPassword: input.account.password }]);
      setEmail("");
      setRole("staff");
      setPassword("");
      await queryClient.invalidateQueries({ queryKey: STAFF_QUERY_KEY });
    },
    onError: (error) => {
      const found =
        error instanceof AdminRequestError && error.errors?.length
          ? byField(newStaffFields, error.errors)
          : { form: [error.message] };
      setErrors(found);
      setRequestId(requestIdOf(error));
      focus(found.password ? "password" : "email");
    },
  });

  const submit = () => {
    if (mutation.isPending) return;
    setAdded(undefined);
    setRequestId(undefined);
    const input = { email, role, password };
    const result = newStaffSchema.safeParse(input);
    if (!result.success) {
      const found = byField(newStaffFields, staffFieldErrors(result.error, input, staffAccountMessages));
      setErrors(found);
      focus(found.email ? "email" : "password");
      return;
    }
    setErrors({});
    mutation.mutate({ account: result.data, generated });
  };

  /** The admin has copied the generated password of account `id`: it goes from the screen. */
  const passwordCopied = (id: AddedAccount["account"]["id"]) =>
    setUncopied((shown) => shown.filter((each) => each.account.id !== id));

  const values = { email, setEmail, role, setRole, password, setPassword, generate };
  return { ...values, errors, requestId, added, uncopied, submit, passwordCopied, pending: mutation.isPending };
}
