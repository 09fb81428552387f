/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // The native and WebAssembly database packages are loaded from node_modules at run time, not bundled.
  serverExternalPackages: ["better-sqlite3", "pg", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg"],
  // The admin app's pages may not be framed by another site (clickjacking) and send no referrer off-site.
  async headers() {
    const adminPage = [
      { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
      { key: "X-Frame-Options", value: "DENY" },
      { key: "Referrer-Policy", value: "same-origin" },
    ];
    return ["/admin", "/admin/:path*", "/sign-in"].map((source) => ({ source, headers: adminPage }));
  },
};

export default nextConfig;
