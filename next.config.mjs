import { developmentOrigins } from './lib/platform/http/development-origins.mjs';

/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite loads its WebAssembly and data files, and pdfkit its font metrics, from their own
  // package directories at run time; bundling them breaks those paths, so the server keeps them
  // (and postgres.js and nodemailer, plain Node libraries) as plain requires.
  serverExternalPackages: ['@electric-sql/pglite', 'postgres', 'pdfkit', 'nodemailer', 'undici'],
  poweredByHeader: false,
  // Answers leave uncompressed: compressing belongs to the balancer in front (docs/operations.md),
  // and Next's gzip of every lookup answer a client asks gzip for cost the instance's CPU.
  compress: false,
  // `npm run typecheck` (tsc --noEmit, run by CI) checks the whole project, tests included;
  // checking again inside every build only makes test and benchmark builds slower.
  typescript: { ignoreBuildErrors: true },
  // Parallel builds (tests of different branches, benchmarks) can each use their own directory.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // next dev listens on every interface (HOST=0.0.0.0) but serves its own resources only to pages
  // opened by localhost: opened by 127.0.0.1 or from the LAN, pages never hydrated. Ignored in
  // production, whose pages need none of them.
  allowedDevOrigins: developmentOrigins(),
  // A top-up's deposit slip (a photo or PDF of up to 5 MB, lib/flows/top-ups/slips.ts) is sent with its
  // report as a server action's argument; Next refuses bodies over 1 MB by default. The slip's own
  // limit is checked by the action and answered in Spanish; this only lets it arrive.
  // authInterrupts: a portal page a role may not open answers 403 at its own address (forbidden()),
  // with the portal's navigation, instead of redirecting away.
  // preloadEntriesOnStart: false: an instance loads a page's or route's server code when it is first
  // asked for, not every one of them at its start. Each route's chunks carry their own copy of the
  // modules they share; loading all of them held some 35 MiB of code and its source text that the
  // lookups never run (docs/performance.md, "What an instance's memory is made of").
  experimental: { serverActions: { bodySizeLimit: '6mb' }, authInterrupts: true, preloadEntriesOnStart: false },
  // No headers() here: server.mjs gives every answer, Next's static files included, the baseline
  // security headers (lib/platform/http/baseline-headers.mjs); proxy.ts and the lookups add the rest.
};

export default nextConfig;
