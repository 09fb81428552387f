/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // forbidden() from next/navigation: an admin-only page answers a signed-in staff member who is not an admin
  // with 403 and app/forbidden.tsx (lib/auth/page-session.ts). Experimental in Next 16, hence the flag.
  // proxyClientMaxBodySize: for a path proxy.ts matches, Next reads the whole request body before the route runs,
  // anonymous or not, keeping up to this many bytes (the whole chunks that fit) for the route and dropping the
  // rest. The matched routes take JSON of at most 16 KiB (lib/http/body.ts), so 64 KiB: a body cut short here is
  // still refused (by its declared length, or as over 16 KiB or as broken JSON), and an anonymous request costs
  // at most 64 KiB of memory (Next's default is 10 MiB). The CSV import's endpoints (5 MiB files) are not
  // matched by proxy.ts: Next leaves their bodies unread, for the route to read once it has checked the session.
  experimental: { authInterrupts: true, proxyClientMaxBodySize: 64 * 1024 },
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
