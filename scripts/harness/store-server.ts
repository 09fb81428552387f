import { after, before } from "node:test";
import { call, signInStaff, type Reply } from "@/scripts/harness/http";
import { createKey, createStaff } from "@/scripts/harness/fixtures";
import {
  createMigratedDatabase,
  startServer,
  type Entry,
  type RunningServer,
  type TestDatabase,
} from "@/scripts/harness/servers";

// The fixture most server tests share: for one describe block, a fresh migrated database, an API key, a server
// (server.ts by default) and, when asked, an admin account signed in; with calls as the key's client and as the
// admin in the admin app. Made in `before`, stopped and dropped in `after`.

export type Api = (method: string, path: string, options?: Parameters<typeof call>[3]) => Promise<Reply>;

export type StoreServer = { database: TestDatabase; server: RunningServer; key: string; cookie: string };

export type StoreServerOptions = {
  entry?: Entry;
  env?: Record<string, string>;
  /** An admin account to make and sign in as (its cookie in `state.cookie`). */
  admin?: { email: string; password: string };
};

export function storeServer(
  provider: TestDatabase["provider"],
  { entry = "custom", env = {}, admin: account }: StoreServerOptions = {},
) {
  const state = {} as StoreServer;
  before(async () => {
    state.database = await createMigratedDatabase(provider);
    state.key = await createKey(state.database.url);
    if (account) await createStaff(state.database.url, account.email, account.password, "admin");
    state.server = await startServer(entry, state.database.url, env);
    if (account) state.cookie = await signInStaff(state.server.baseUrl, account.email, account.password);
  });
  after(async () => {
    await state.server?.stop();
    await state.database?.drop();
  });
  /** A call with the API key. */
  const api: Api = (method, path, options = {}) =>
    call(state.server.baseUrl, method, path, { key: state.key, ...options });
  /** A call as the signed-in admin, from the app's own origin. */
  const admin: Api = (method, path, options = {}) =>
    call(state.server.baseUrl, method, path, {
      ...options,
      headers: { Cookie: state.cookie, Origin: state.server.baseUrl, ...options.headers },
    });
  return { api, admin, state };
}
