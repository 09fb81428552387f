import type { z } from "zod";
import { fieldErrors } from "@/lib/http/validation";

// What an import's dry run says of a bad row: one (member, message) pair per problem, in the words the add form
// uses for the same mistake. The one place the import takes its messages from, so that staff-language messages
// can replace the API's without touching the import.

/** A row's problems, by the pet member each names ("" for the row as a whole). */
export function rowMessages(error: z.ZodError): { member: string; message: string }[] {
  return fieldErrors(error).map(({ path, message }) => ({ member: path, message }));
}
