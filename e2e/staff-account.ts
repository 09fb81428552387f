/** The staff account global-setup.ts creates with the staff tool, for the specs to sign in with. */
export const E2E_STAFF = { email: "staff.e2e@animal-store.example", password: "e2e correct horse battery" };
