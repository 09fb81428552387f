// Baseline (b) of the benchmark: a stock Next app whose only route returns a constant body.
/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
};

export default nextConfig;
