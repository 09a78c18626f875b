import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import base from './vitest.config.mts';

// npm run test:multi-instance: several app instances on one PostgreSQL and one Redis (DATABASE_URL
// and REDIS_URL must point at real servers; .ci/run starts both). Not part of `npm test`, which
// needs no external service.
/**
 * The files that measure time (a page or a lookup within twice its time alone, a revocation or a
 * reload within a bound): another suite beside them on the same cores would fail them for nothing.
 * `.ci/run` runs them alone (MULTI_INSTANCE_FILES=timed) and the others beside the PostgreSQL
 * suite (MULTI_INSTANCE_FILES=untimed), where they mostly wait on leases, kills and restarts; unset,
 * both parts run, one file at a time.
 */
const TIMED_FILES = [
  'tests/multi-instance/public-pages-flood.test.ts',
  'tests/multi-instance/portal-pages-flood.test.ts',
  'tests/multi-instance/one-session-flood.test.ts',
  'tests/multi-instance/overload.test.ts',
  'tests/multi-instance/portal-done-when.test.ts',
  'tests/multi-instance/portal-token-rotation.test.ts',
  'tests/multi-instance/startup-and-credentials.test.ts',
  'tests/multi-instance/shared-limits.test.ts',
  'tests/multi-instance/readiness.test.ts',
  'tests/multi-instance/token-rotation.test.ts',
  'tests/multi-instance/account-api-flood.test.ts',
];
for (const file of TIMED_FILES) {
  if (!fs.existsSync(path.join(import.meta.dirname, file))) throw new Error(`vitest.multi-instance.config.mts: TIMED_FILES lists ${file}, which does not exist`);
}
const PART = process.env.MULTI_INSTANCE_FILES;
if (PART !== undefined && PART !== 'timed' && PART !== 'untimed') throw new Error(`MULTI_INSTANCE_FILES must be timed or untimed, not ${PART}`);

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: PART === 'timed' ? TIMED_FILES : ['tests/multi-instance/**/*.test.ts'],
    exclude: ['node_modules/**', ...(PART === 'untimed' ? TIMED_FILES : [])],
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
