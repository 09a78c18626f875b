/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite loads its WebAssembly and data files, and pdfkit its font metrics, from their own
  // package directories at run time; bundling them breaks those paths, so the server keeps them
  // (and postgres.js and nodemailer, plain Node libraries) as plain requires.
  serverExternalPackages: ['@electric-sql/pglite', 'postgres', 'pdfkit', 'nodemailer', 'undici'],
  poweredByHeader: false,
  // `npm run typecheck` (tsc --noEmit, run by CI) checks the whole project, tests included;
  // checking again inside every build only makes test and benchmark builds slower.
  typescript: { ignoreBuildErrors: true },
  // Parallel builds (tests of different branches, benchmarks) can each use their own directory.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // Pages and the API get their security headers from proxy.ts; Next's static files skip the proxy.
  async headers() {
    return [
      {
        source: '/_next/static/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'no-referrer' },
        ],
      },
    ];
  },
};

export default nextConfig;
