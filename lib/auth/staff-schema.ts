import { z } from "zod";
import { smallIntegerSchema } from "@/lib/http/int64";

// The rules for staff accounts: the staff tool validates with these, sign-in reads its body with them, and the
// Staff page's endpoints and forms validate with them (so the browser shows the server's own messages). Nothing
// here is secret: the Staff page's client components import it too.

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 1024;

/** An email address, compared and stored lower-cased. */
export const staffEmailSchema = z
  .string({ error: "email is required" })
  .trim()
  .toLowerCase()
  .max(254, "email must be at most 254 characters")
  .pipe(z.email({ error: "email must be an email address" }));

export const staffPasswordSchema = z
  .string({ error: "password is required" })
  .min(PASSWORD_MIN_LENGTH, `password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `password must be at most ${PASSWORD_MAX_LENGTH} characters`);

/** The sign-in body. Only sizes are checked: a wrong email or password is the same answer as any other. */
export const signInSchema = z.strictObject(
  {
    email: z.string({ error: "email is required" }).max(320, "email must be at most 320 characters"),
    password: z
      .string({ error: "password is required" })
      .max(PASSWORD_MAX_LENGTH, `password must be at most ${PASSWORD_MAX_LENGTH} characters`),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? undefined : "the body must be a JSON object") },
);

export const staffRoles = ["staff", "admin"] as const;
export const staffRoleSchema = z.enum(staffRoles, { error: "role must be staff or admin" });

/** POST /admin/api/staff: a new account, with its initial password. */
export const newStaffSchema = z.strictObject(
  { email: staffEmailSchema, role: staffRoleSchema, password: staffPasswordSchema },
  { error: (issue) => (issue.code === "unrecognized_keys" ? undefined : "the body must be a JSON object") },
);
export type NewStaff = z.infer<typeof newStaffSchema>;

/** PUT /admin/api/staff/{id}/role */
export const staffRoleBodySchema = z.strictObject(
  { role: staffRoleSchema },
  { error: (issue) => (issue.code === "unrecognized_keys" ? undefined : "the body must be a JSON object") },
);

/** PUT /admin/api/staff/{id}/password */
export const staffPasswordBodySchema = z.strictObject(
  { password: staffPasswordSchema },
  { error: (issue) => (issue.code === "unrecognized_keys" ? undefined : "the body must be a JSON object") },
);

/** An account as the Staff page's endpoints answer it (lib/admin/staff-endpoints.ts writes it). */
export const staffJsonSchema = z.object({
  id: smallIntegerSchema,
  email: z.string(),
  role: staffRoleSchema,
  createdAt: z.string(),
  disabledAt: z.string().nullable(),
  failedSignIns: smallIntegerSchema,
  /** Client addresses locked out of the account right now (only in the list). */
  lockedAddresses: smallIntegerSchema.optional(),
});
export type StaffJson = z.output<typeof staffJsonSchema>;
