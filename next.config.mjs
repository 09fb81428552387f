/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // forbidden() from next/navigation: an admin-only page answers a signed-in staff member who is not an admin
  // with 403 and app/forbidden.tsx (lib/auth/page-session.ts). Experimental in Next 16, hence the flag.
  experimental: { authInterrupts: true },
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
