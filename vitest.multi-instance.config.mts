import { defineConfig } from 'vitest/config';
import base from './vitest.config.mts';

// npm run test:multi-instance: several app instances on one PostgreSQL and one Redis (DATABASE_URL
// and REDIS_URL must point at real servers; .ci/run starts both). Not part of `npm test`, which
// needs no external service.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['tests/multi-instance/**/*.test.ts'],
    exclude: ['node_modules/**'],
    // Each file starts several servers: one file at a time on two cores, each in a process of its
    // own (a few files, each minutes long: sharing a process would save nothing worth its risk).
    maxWorkers: 1,
    isolate: true,
    setupFiles: [],
    // The apps of these tests hash passwords at the production cost, which their floods include.
    env: { ...base.test?.env, PASSWORD_HASH_COST: 'standard' },
    testTimeout: 120_000,
  },
});
