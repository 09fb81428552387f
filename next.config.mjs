/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // forbidden() from next/navigation: an admin-only page answers a signed-in staff member who is not an admin
  // with 403 and app/forbidden.tsx (lib/auth/page-session.ts). Experimental in Next 16, hence the flag.
  // proxyClientMaxBodySize: Next buffers a request's body for proxy.ts before the route reads it, up to this many
  // bytes, and passes on only the whole chunks that fit. It must stay well above the CSV import's limit
  // (lib/pets/import.ts, 5 MiB): a body cut short here is then still over that limit and refused (413), never
  // imported in part. 6 MiB: a mebibyte above it, far more than a chunk, and 4 MiB less than Next's default.
  experimental: { authInterrupts: true, proxyClientMaxBodySize: 6 * 1024 * 1024 },
  // The native and WebAssembly database packages are loaded from node_modules at run time, not bundled;
  // so is prom-client, whose one copy then serves Next's bundles and server.ts's alike.
  serverExternalPackages: [
    "better-sqlite3",
    "pg",
    "@prisma/adapter-better-sqlite3",
    "@prisma/adapter-pg",
    "prom-client",
  ],
};

export default nextConfig;
