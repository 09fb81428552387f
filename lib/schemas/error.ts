import { z } from "zod";
import { errorCodes, type ErrorCode } from "@/lib/api/error-codes";

// The Error body, documented from the same catalogue the API answers from.
export const errorBodySchema = z
  .object({
    code: z.enum(Object.keys(errorCodes) as [ErrorCode, ...ErrorCode[]]).meta({ description: "Machine-readable error code." }),
    message: z.string().meta({ description: "Human-readable description." }),
    status: z.number().int().min(400).max(599).meta({ description: "The HTTP status code of the response." }),
    errors: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .meta({ description: "On a 400, each offending member: its dotted path (\"\" for the whole body) and what is wrong." }),
  })
  .meta({ id: "Error", description: "Every error response has this body; status repeats the HTTP status." });
