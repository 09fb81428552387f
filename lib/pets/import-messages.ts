import type { z } from "zod";
import { staffIssueMessages } from "@/lib/pets/staff-messages";

// What an import's dry run says of a bad row: one (member, message) pair per problem, in the staff words the add
// form uses for the same mistake (lib/pets/staff-messages.ts, keyed by field and rule). The one place the import
// takes its messages from.

/** A row's problems, by the pet member each names ("" for the row as a whole); `input` is what was parsed. */
export function rowMessages(error: z.ZodError, input: unknown): { member: string; message: string }[] {
  return staffIssueMessages(error.issues, input).map(({ field, message }) => ({ member: field, message }));
}
