import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': import.meta.dirname } },
  test: {
    include: ['**/*.test.ts'],
    // tests/multi-instance needs real PostgreSQL and Redis servers: npm run test:multi-instance.
    // .next* build directories (tests, e2e, benchmarks) hold copies of server packages, pino's tests included.
    exclude: ['node_modules/**', '.next*/**', 'e2e/**', '.data/**', 'tests/multi-instance/**'],
    // HTTP-level tests run against a production build, made once per run (or reused if current).
    globalSetup: ['tests/support/global-setup.ts'],
    pool: 'forks',
    // The default report, then the ten slowest files (where the suite's time goes).
    reporters: ['default', './tests/support/slowest-files-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Two cores: more workers only make servers and databases fight for them.
    maxWorkers: 2,
  },
});
