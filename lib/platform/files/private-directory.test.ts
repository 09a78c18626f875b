// The local data folder (.data/: the embedded database, the development session secret) is
// readable by its owner only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeDatabase, database } from '@/db/client';
import { nextAuthSecret } from '@/lib/flows/auth/secret';
import { resetEnvCache } from '@/tests/support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '@/tests/support/timeouts';

// Opening a new embedded database migrates it from nothing: about 8 s alone, and over 30 s on CI's
// two cores while the PostgreSQL suite, the multi-instance files and the image build share them.
const OPENS_A_DATABASE = { timeout: PROCESS_TEST_TIMEOUT_MS };

const mode = (file: string) => fs.statSync(file).mode & 0o777;

let scratch: string;
let saved: NodeJS.ProcessEnv;
const originalCwd = process.cwd();

beforeEach(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-private-'));
  saved = { ...process.env };
  // Development on the embedded database, as after `npm install && npm run dev`.
  for (const name of ['DATABASE_URL', 'NEXTAUTH_SECRET', 'APP_ENV', 'PGLITE_DIR']) delete process.env[name];
  process.chdir(scratch);
  resetEnvCache();
});

afterEach(async () => {
  await closeDatabase();
  process.chdir(originalCwd);
  process.env = saved;
  resetEnvCache();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe('.data/', () => {
  it('is created 0700 for the development session secret, which is 0600', () => {
    nextAuthSecret();
    expect(mode('.data')).toBe(0o700);
    expect(mode('.data/nextauth-secret')).toBe(0o600);
  });

  it('is created 0700 for the embedded database', OPENS_A_DATABASE, async () => {
    await database();
    expect(mode('.data')).toBe(0o700);
  });

  it('is closed when an older version left it open to others', () => {
    fs.mkdirSync('.data', { mode: 0o755 });
    fs.chmodSync('.data', 0o755);
    nextAuthSecret();
    expect(mode('.data')).toBe(0o700);
  });
});

describe('a database folder elsewhere', () => {
  it('is created 0700, while a folder that already exists (shared, like /tmp) keeps its permissions', OPENS_A_DATABASE, async () => {
    fs.mkdirSync('shared', { mode: 0o755 });
    fs.chmodSync('shared', 0o1777);
    process.env.PGLITE_DIR = path.join(scratch, 'shared', 'gateway', 'db');
    resetEnvCache();
    await database();
    expect(mode('shared/gateway')).toBe(0o700);
    expect(fs.statSync('shared').mode & 0o7777).toBe(0o1777);
  });
});
