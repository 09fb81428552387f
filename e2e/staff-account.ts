/** The accounts each worker's server is given with the staff tool (e2e/support.ts), for the specs to sign in with. */
export const E2E_STAFF = { email: "staff.e2e@animal-store.example", password: "e2e correct horse battery" };
/** An admin: API keys, staff accounts and the activity log as well as the catalogue. */
export const E2E_ADMIN = { email: "admin.e2e@animal-store.example", password: "e2e admin horse battery" };
