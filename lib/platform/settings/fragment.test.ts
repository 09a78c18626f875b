import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { setProcessSlot } from '@/lib/platform/runtime/process-state';
import { appEnvOf, currentSettings, defineSettings, EnvError, readSettings } from './fragment';
import { requireSet } from './rules';
import { integer, optional } from './values';

// Two capabilities' settings as any would declare them: the second's rule reads the first's.
const POOL = defineSettings({
  title: 'A pool',
  shape: { FRAGMENT_TEST_POOL_SIZE: integer(8, 1), FRAGMENT_TEST_POOL_NAME: optional(z.string().min(1)) },
  docs: { FRAGMENT_TEST_POOL_SIZE: 'How many.', FRAGMENT_TEST_POOL_NAME: 'Its name.' },
  input: (source, appEnv) => ({ FRAGMENT_TEST_POOL_SIZE: source.FRAGMENT_TEST_POOL_SIZE ?? (appEnv === 'production' ? '16' : undefined) }),
  refine: (settings, ctx, appEnv) => {
    if (appEnv === 'production') requireSet(settings, ctx, ['FRAGMENT_TEST_POOL_NAME'], 'APP_ENV=production');
  },
  sourceProblems: (source) => (source.FRAGMENT_TEST_OLD_NAME ? ['FRAGMENT_TEST_POOL_NAME: FRAGMENT_TEST_OLD_NAME is gone'] : []),
});

const WORKERS = defineSettings({
  title: 'Workers of the pool',
  shape: { FRAGMENT_TEST_WORKERS: integer(4, 1) },
  docs: { FRAGMENT_TEST_WORKERS: 'How many work at once.' },
  uses: [POOL],
  refine: (settings, ctx) => {
    if (settings.FRAGMENT_TEST_WORKERS > settings.FRAGMENT_TEST_POOL_SIZE) {
      ctx.addIssue({ code: 'custom', path: ['FRAGMENT_TEST_WORKERS'], message: 'must not exceed FRAGMENT_TEST_POOL_SIZE' });
    }
  },
});

function problems(read: () => unknown): string[] {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as EnvError).problems;
  }
  throw new Error('expected the settings to be refused');
}

afterEach(() => {
  for (const name of ['FRAGMENT_TEST_POOL_SIZE', 'FRAGMENT_TEST_WORKERS']) delete process.env[name];
  setProcessSlot('env', undefined);
});

describe('a fragment of settings', () => {
  it('reads its own, with what development and production give them when unset, each unset one a key all the same', () => {
    const development = POOL.read({});
    expect(development).toEqual({ FRAGMENT_TEST_POOL_SIZE: 8, FRAGMENT_TEST_POOL_NAME: undefined });
    expect('FRAGMENT_TEST_POOL_NAME' in development).toBe(true);
    expect(POOL.read({ APP_ENV: 'production', FRAGMENT_TEST_POOL_NAME: 'a' }).FRAGMENT_TEST_POOL_SIZE).toBe(16);
    expect(POOL.read({ NODE_ENV: 'production', FRAGMENT_TEST_POOL_NAME: 'a' }).FRAGMENT_TEST_POOL_SIZE).toBe(16);
    expect(appEnvOf({ NODE_ENV: 'production', APP_ENV: 'development' })).toBe('development');
  });

  it('refuses each wrong or missing variable by name, the raw variables\' problems with the schema\'s, in one EnvError', () => {
    expect(problems(() => POOL.read({ APP_ENV: 'production', FRAGMENT_TEST_POOL_SIZE: '0', FRAGMENT_TEST_OLD_NAME: 'x' }))).toEqual([
      'FRAGMENT_TEST_POOL_SIZE: Too small: expected number to be >=1',
      'FRAGMENT_TEST_POOL_NAME: is required when APP_ENV=production',
      'FRAGMENT_TEST_POOL_NAME: FRAGMENT_TEST_OLD_NAME is gone',
    ]);
  });

  it('checks a rule against the settings of the fragment it uses, reading them too', () => {
    expect(WORKERS.read({ FRAGMENT_TEST_POOL_SIZE: '2', FRAGMENT_TEST_WORKERS: '2' })).toMatchObject({ FRAGMENT_TEST_WORKERS: 2, FRAGMENT_TEST_POOL_SIZE: 2 });
    expect(problems(() => WORKERS.read({ FRAGMENT_TEST_POOL_SIZE: '2', FRAGMENT_TEST_WORKERS: '3' }))).toEqual(['FRAGMENT_TEST_WORKERS: must not exceed FRAGMENT_TEST_POOL_SIZE']);
    // The used fragment's own rules hold when only the user is read.
    expect(problems(() => WORKERS.read({ APP_ENV: 'production' }))).toEqual(['FRAGMENT_TEST_POOL_NAME: is required when APP_ENV=production']);
    // Read together with it, each setting and each rule counts once.
    expect(problems(() => readSettings([POOL, WORKERS], { APP_ENV: 'production' }))).toEqual(['FRAGMENT_TEST_POOL_NAME: is required when APP_ENV=production']);
  });

  it("is read from process.env once per process, into one record the fragments share, which a reset forgets", () => {
    process.env.FRAGMENT_TEST_POOL_SIZE = '3';
    const pool = POOL.current();
    expect(pool.FRAGMENT_TEST_POOL_SIZE).toBe(3);
    process.env.FRAGMENT_TEST_POOL_SIZE = '5';
    process.env.FRAGMENT_TEST_WORKERS = '2';
    expect(POOL.current().FRAGMENT_TEST_POOL_SIZE).toBe(3);
    // The next fragment is read into the same record, and what was read stays as it was.
    expect(WORKERS.current()).toBe(pool);
    expect(currentSettings([POOL, WORKERS])).toMatchObject({ FRAGMENT_TEST_WORKERS: 2, FRAGMENT_TEST_POOL_SIZE: 3 });
    setProcessSlot('env', undefined);
    expect(POOL.current().FRAGMENT_TEST_POOL_SIZE).toBe(5);
  });
});
