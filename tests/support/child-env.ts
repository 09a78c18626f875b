import path from 'node:path';
import { envSchema } from '@/lib/root/settings';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

const APP_VARIABLES = new Set(Object.keys(envSchema.shape));

/**
 * The environment for a process the tests start (the app, the CLI): this process's, minus every
 * app setting and vitest's NODE_ENV, plus `overrides`. Nothing leaks in by accident: a child sees
 * exactly the settings its test gave it (the admin DATABASE_URL of a CI run, for one, never).
 */
export function childEnv(overrides: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {
    // The app and the CLI load .env files through @next/env, which skips them when this marker is
    // set: a developer's .env (say, a DATABASE_URL) must not redirect a test's process.
    __NEXT_PROCESSED_ENV: 'true',
    // V8 keeps the compiled code of the app's server files here between the suite's hundred-odd app
    // starts: about 0.45 of the 1.9 CPU seconds each start spent compiling the same files again.
    NODE_COMPILE_CACHE: path.join(REPO_ROOT, 'node_modules', '.cache', 'gateway-tests', 'node-compile-cache'),
  };
  for (const [name, value] of Object.entries(process.env)) {
    if (APP_VARIABLES.has(name) || name === 'NODE_ENV' || name.startsWith('VITEST') || name.startsWith('__VITEST')) continue;
    env[name] = value;
  }
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  // Next's types make NODE_ENV required; a child without it picks its own, which is the point.
  return env as NodeJS.ProcessEnv;
}

/**
 * The password cost a process the tests start gets: the suite's (`low` under npm test,
 * vitest.config.mts), except in production, which refuses it and hashes at its own cost.
 */
export function suitePasswordCost(appEnv: string | undefined): string | undefined {
  return appEnv === 'production' ? undefined : process.env.PASSWORD_HASH_COST;
}
