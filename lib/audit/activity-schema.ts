import { z } from "zod";
import { INT64_MAX, smallIntegerSchema } from "@/lib/http/int64";

// A record of the activity log as the endpoints answer it: lib/audit/activity.ts writes it, the Activity page and
// a pet's History read it with this schema.

/**
 * The Activity page's pet filter, as the endpoint checks it and the page's form checks it before sending (its
 * refusals in staff words are keyed on the rules: lib/pets/staff-messages.ts).
 */
export const activityPetFilterSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,18}$/, "pet must be a pet id, a positive integer")
  .refine((digits) => !/^[0-9]+$/.test(digits) || BigInt(digits) <= INT64_MAX, {
    message: `pet must be at most ${INT64_MAX}`,
    params: { rule: "int64" },
  });

/** One record as the admin app and the export show it. Ids of pets are text: they are 64-bit. */
export const activityRecordSchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.object({ type: z.string(), id: smallIntegerSchema.nullable(), label: z.string() }),
  action: z.string(),
  target: z.object({ type: z.string(), id: z.string().nullable(), label: z.string().nullable() }),
  details: z.unknown(),
  clientAddress: z.string().nullable(),
  requestId: z.string().nullable(),
  summary: z.string(),
});
export type ActivityRecord = z.output<typeof activityRecordSchema>;

/** A record of a pet's history: its endpoint, open to any staff member, leaves out where the change came from. */
export const petHistoryRecordSchema = activityRecordSchema.omit({ clientAddress: true, requestId: true });
export type PetHistoryRecord = z.output<typeof petHistoryRecordSchema>;
