// What reaches the log when a query fails: on both databases, the error a real failing query
// raises is logged with its SQL text and SQLSTATE, and without the values it was given.
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database, db } from '@/db/client';
import { consoleUsers } from '@/db/schema';
import { hashPassword } from '@/lib/platform/security/passwords';
import { issueToken } from '@/lib/platform/security/tokens';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { withLogBindings } from './context';
import { describeError } from './errors';
import { loggerOptions, maskSecretShapes } from './logger';

let testDatabase: TestDatabase;
beforeAll(async () => {
  testDatabase = await useTestDatabase();
});
afterAll(async () => {
  await testDatabase.cleanup();
});

/** A logger configured as the app's, writing into memory. */
function capturingLogger() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { log: pino(loggerOptions('info'), sink), text: () => lines.join('\n'), entries: () => lines.map((line) => JSON.parse(line)) };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the query to fail');
}

describe('a failing query in the log', () => {
  it('keeps the SQL text and the constraint, never the password hash it was given', async () => {
    const passwordHash = await hashPassword('a password nobody may read in a log', 'standard');
    const user = { email: 'duplicada@example.com', name: 'Duplicada', role: 'admin' as const, passwordHash };
    await (await db()).insert(consoleUsers).values(user);
    const error = await rejection((async () => (await db()).insert(consoleUsers).values(user))());
    expect(String((error as Error).message)).toContain(passwordHash); // what drizzle itself says

    const { log, text, entries } = capturingLogger();
    log.error({ err: error }, 'seed failed');
    expect(text()).not.toContain(passwordHash);
    expect(text()).not.toContain('duplicada@example.com');
    const [entry] = entries();
    expect(entry.err.message).toMatch(/^Failed query: insert into "console_users"/);
    expect(entry.err.cause).toMatchObject({ code: '23505', constraint: 'console_users_email_lower_unique' });
    expect(describeError(error)).not.toContain(passwordHash);
    expect(describeError(error)).toContain('console_users_email_lower_unique');
  });

  it('does not repeat a value PostgreSQL quotes in a data exception', async () => {
    const { token } = issueToken();
    const error = await rejection((async () => (await database()).rows(sql`select ${token}::integer as n`))());
    const { log, text, entries } = capturingLogger();
    log.error({ err: error }, 'query failed');
    expect(text()).not.toContain(token.slice(4));
    expect(entries()[0].err.cause).toMatchObject({ code: '22P02', message: 'data exception (SQLSTATE 22P02)' });
    expect(describeError(error)).not.toContain(token.slice(4));
  });
});

describe('the logger', () => {
  it('redacts credentials by key and masks secret shapes inside messages', () => {
    const { token, tokenHash } = issueToken();
    const { log, text } = capturingLogger();
    log.info({ token, password: 'hunter2-hunter2', user: { passwordHash: 'scrypt$1$1$1$abc$def' }, headers: { 'x-integracion-token': token } }, 'with secrets');
    log.warn(`a message that quotes ${token} and ${tokenHash}`);
    expect(text()).not.toContain(token.slice(4));
    expect(text()).not.toContain(tokenHash);
    expect(text()).not.toContain('hunter2');
    expect(text()).not.toContain('scrypt$1');
  });

  it('masks each secret shape in a line with the words for it, and leaves the rest as it was', () => {
    const { token, tokenHash } = issueToken();
    const line = `login acme-01 sent ${token}, stored as ${tokenHash}; hash scrypt$16384$8$1$c2FsdA$aGFzaA; nit 1234567-8`;
    expect(maskSecretShapes(line)).toBe('login acme-01 sent tlk_[redacted], stored as [redacted hash]; hash [redacted password hash]; nit 1234567-8');
  });

  it('puts the request id of the current request on every line written meanwhile', async () => {
    const { log, entries } = capturingLogger();
    await withLogBindings({ requestId: 'req_0123456789abcdef0123' }, async () => {
      await Promise.resolve();
      log.child({ component: 'billing' }).warn('inside the request');
    });
    log.info('outside');
    expect(entries().map((entry) => [entry.msg, entry.requestId, entry.component])).toEqual([
      ['inside the request', 'req_0123456789abcdef0123', 'billing'],
      ['outside', undefined, undefined],
    ]);
  });

  it('keeps the fields of a line on that line, not on the later lines of the same request', async () => {
    const { log, entries } = capturingLogger();
    await withLogBindings({ requestId: 'req_0123456789abcdef0123' }, async () => {
      log.warn({ integration: 'norte', outcome: 'source_failed' }, 'first');
      log.info('second');
    });
    expect(entries().map((entry) => [entry.msg, entry.requestId, entry.integration, entry.outcome])).toEqual([
      ['first', 'req_0123456789abcdef0123', 'norte', 'source_failed'],
      ['second', 'req_0123456789abcdef0123', undefined, undefined],
    ]);
  });

  it('redacts secret keys one level down and leaves everything else as it was', () => {
    const { log, entries } = capturingLogger();
    const headers = { 'x-integracion-token': 'tlk_not-a-real-token-but-long', accept: 'application/json' };
    log.info({ headers, apiKey: 'k-123', lookup: 'omisos', stagesMs: { auth: 0.1 } }, 'with nested secrets');
    expect(entries()[0]).toMatchObject({
      headers: { 'x-integracion-token': '[redacted]', accept: 'application/json' },
      apiKey: '[redacted]',
      lookup: 'omisos',
      stagesMs: { auth: 0.1 },
    });
    expect(headers['x-integracion-token']).toBe('tlk_not-a-real-token-but-long');
  });
});
