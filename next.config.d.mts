// next.config.mjs is plain JavaScript; TypeScript that imports it (lib/platform/http/development-origins.test.ts) reads its type here.
import type { NextConfig } from 'next';

declare const nextConfig: NextConfig;
export default nextConfig;
