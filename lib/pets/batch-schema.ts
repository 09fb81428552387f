import { z } from "zod";
import { int64Schema, smallIntegerSchema } from "@/lib/http/int64";
import { petSchema, petStatusSchema } from "@/lib/pets/schema";

// The batch's wire shapes (POST /v1/pets/batch, batchPets), apart from its store so that the admin app's browser code
// reads answers and builds bodies with the same schemas as the server (lib/pets/batch.ts imports server-only).

/** The most pets one batch names: about what the import writes in a tenth of a second. */
export const BATCH_MAX_PETS = 1000;
/** A batch's body: 1,000 ids of up to 19 digits fit in 24 KiB with room to spare. */
export const BATCH_BODY_LIMIT_BYTES = 32 * 1024;

const batchIdsSchema = z
  .array(
    int64Schema("id").refine((id) => id >= 1n, "ids must be positive"),
    {
      error: "ids must be an array of pet ids",
    },
  )
  .min(1, "ids must name at least one pet")
  .max(BATCH_MAX_PETS, `ids must name at most ${BATCH_MAX_PETS} pets`)
  .refine((ids) => new Set(ids).size === ids.length, "ids must not name a pet twice")
  .meta({ description: `The pets to change: 1 to ${BATCH_MAX_PETS} ids, each once.`, examples: [[1, 2, 3]] });

export const petBatchSetSchema = z
  .strictObject(
    {
      categoryId: petSchema.shape.categoryId.optional(),
      status: petStatusSchema.nullable().optional(),
    },
    { error: (issue) => (issue.code === "unrecognized_keys" ? undefined : "set must be an object") },
  )
  .refine((set) => set.categoryId !== undefined || set.status !== undefined, "set must name categoryId or status")
  .meta({ description: "What every pet named gets: a `categoryId`, a `status` (`null` removes it), or both." });

export const petBatchSchema = z
  .discriminatedUnion(
    "action",
    [
      z.strictObject({ action: z.literal("update"), ids: batchIdsSchema, set: petBatchSetSchema }),
      z.strictObject({ action: z.literal("delete"), ids: batchIdsSchema }),
    ],
    { error: 'action must be "update" or "delete"' },
  )
  .meta({
    id: "PetBatch",
    description:
      'One change to many pets: `{"action": "update", "ids": [...], "set": {...}}` or ' +
      '`{"action": "delete", "ids": [...]}`.',
  });
export type PetBatch = z.infer<typeof petBatchSchema>;

export const petBatchResultSchema = z
  .object({
    action: z.enum(["update", "delete"]),
    changed: smallIntegerSchema.meta({
      description: "How many pets changed (an update that sets what a pet has is none).",
    }),
    results: z.array(
      z.object({
        id: petSchema.shape.id,
        changed: z.boolean(),
        pet: petSchema.meta({ description: "The pet after the change; for a deletion, as it was." }),
        previous: z
          .record(z.string(), z.unknown())
          .optional()
          .meta({ description: "The changed members' values before an update (a removed status as null)." }),
      }),
    ),
  })
  .meta({ id: "PetBatchResult", description: "What a batch did to each pet, in the order of `ids`." });
export type PetBatchResult = z.infer<typeof petBatchResultSchema>;
