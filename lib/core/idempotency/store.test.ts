// The Idempotency-Key rows on the database (PGlite by default, PostgreSQL with DATABASE_URL): who
// owns a key, what a repeat is told, the answer stored with the settlement, the takeover of a key
// whose owner died, and the purge after 24 hours.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { placeHold, settleHold } from '@/lib/core/billing/holds';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { idempotencyKeyHash } from './key';
import { claimIdempotencyKey, purgeExpiredIdempotencyKeys, releaseIdempotencyKey, settleIdempotencyKey, type IdempotencyTarget } from './store';

const STALE_AFTER_SECONDS = 60;
const REQUEST = JSON.stringify(['cui_nit', '576937-K', null, false, null]);
const OTHER_REQUEST = JSON.stringify(['cui_nit', '576937-K', null, true, null]);

let testDatabase: TestDatabase;
let integration: TestIntegration;
let other: TestIntegration;

function target(key: string, requestId: string, integrationId = integration.id): IdempotencyTarget {
  return { integrationId, keyHash: idempotencyKeyHash(key), requestId };
}

async function rows(): Promise<Array<Record<string, unknown>>> {
  return (await database()).rows(sql`select key_hash, state, answer_status, answer_sealed, request_sealed from idempotency_keys order by created_at`);
}

async function age(key: string, column: 'created_at' | 'claimed_at', seconds: number): Promise<void> {
  await (await database()).rows(
    sql`update idempotency_keys set ${sql.identifier(column)} = ${sql.identifier(column)} - make_interval(secs => ${seconds}::integer) where key_hash = ${idempotencyKeyHash(key)}::text and integration_id = ${integration.id}::integer`,
  );
}

/** A charged lookup's settlement, storing `body` as the key's answer in the same statement. */
async function settleCharged(owner: IdempotencyTarget, body: string): Promise<void> {
  const hold = await placeHold(owner.integrationId, owner.requestId);
  if (!hold) throw new Error('the balance covers the hold');
  const record = { integrationId: owner.integrationId, lookup: 'cui_nit' as const, httpStatus: 200, responseTimeMs: 5, nit: '576937-K', cui: null, errorMessage: null, requestId: owner.requestId };
  await settleHold(hold, true, record, settleIdempotencyKey(owner, { status: 200, body }));
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('idempotency-store', { tariffCentavos: 100, balanceCentavos: 10_000 });
  other = await createTestIntegration('idempotency-store-other', { tariffCentavos: 100, balanceCentavos: 10_000 });
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

describe('an Idempotency-Key on the database', () => {
  it('belongs to the first request; a repeat waits while it runs, then gets its stored answer', async () => {
    const first = target('clave-a', 'req_a1');
    expect(await claimIdempotencyKey(first, REQUEST, STALE_AFTER_SECONDS)).toEqual({ kind: 'claimed' });
    expect(await claimIdempotencyKey(target('clave-a', 'req_a2'), REQUEST, STALE_AFTER_SECONDS)).toEqual({ kind: 'running' });
    await settleCharged(first, '{"data":{"nit":"576937-K"}}');
    expect(await claimIdempotencyKey(target('clave-a', 'req_a3'), REQUEST, STALE_AFTER_SECONDS)).toEqual({
      kind: 'replay',
      answer: { status: 200, body: '{"data":{"nit":"576937-K"}}' },
      // The request it repeats: its record is where the replay's own request id leads support.
      originalRequestId: 'req_a1',
    });
  });

  it('tells a repeat with another request apart, while running and once done', async () => {
    expect(await claimIdempotencyKey(target('clave-a', 'req_a4'), OTHER_REQUEST, STALE_AFTER_SECONDS)).toEqual({ kind: 'mismatch' });
    expect(await claimIdempotencyKey(target('clave-b', 'req_b1'), REQUEST, STALE_AFTER_SECONDS)).toEqual({ kind: 'claimed' });
    expect(await claimIdempotencyKey(target('clave-b', 'req_b2'), OTHER_REQUEST, STALE_AFTER_SECONDS)).toEqual({ kind: 'mismatch' });
  });

  it('is per integration', async () => {
    expect(await claimIdempotencyKey(target('clave-a', 'req_o1', other.id), OTHER_REQUEST, STALE_AFTER_SECONDS)).toEqual({ kind: 'claimed' });
  });

  it('stores neither the key nor the request nor the answer in clear', async () => {
    const stored = JSON.stringify(await rows());
    for (const clear of ['clave-a', '576937-K', 'cui_nit']) expect(stored).not.toContain(clear);
    expect(stored).toMatch(/pd1:/);
  });

  it('is released for a repeat to run again when the lookup stored nothing', async () => {
    await releaseIdempotencyKey(target('clave-b', 'req_b1'));
    expect(await claimIdempotencyKey(target('clave-b', 'req_b3'), OTHER_REQUEST, STALE_AFTER_SECONDS)).toEqual({ kind: 'claimed' });
  });

  it('is taken over once its owner is past the ceiling and holds no money, by one request only', async () => {
    const dead = target('clave-c', 'req_c1');
    expect(await claimIdempotencyKey(dead, REQUEST, STALE_AFTER_SECONDS)).toEqual({ kind: 'claimed' });
    // Its owner placed a hold and died before settling: the money is still held, so it may not be taken.
    const hold = await placeHold(integration.id, dead.requestId);
    await age('clave-c', 'claimed_at', STALE_AFTER_SECONDS + 5);
    await (await database()).rows(sql`update ledger_entries set created_at = created_at - interval '2 minutes' where id = ${hold!.holdId}::bigint`);
    expect(await claimIdempotencyKey(target('clave-c', 'req_c2'), REQUEST, STALE_AFTER_SECONDS)).toEqual({ kind: 'running' });
    // The crash sweeper voids the hold: nothing was charged, so a repeat may run it.
    const { sweepStaleHolds } = await import('@/lib/core/billing/holds');
    expect(await sweepStaleHolds(STALE_AFTER_SECONDS)).toBe(1);
    const claims = await Promise.all(['req_c3', 'req_c4', 'req_c5'].map((id) => claimIdempotencyKey(target('clave-c', id), REQUEST, STALE_AFTER_SECONDS)));
    expect(claims.filter((claim) => claim.kind === 'claimed')).toHaveLength(1);
    expect(claims.filter((claim) => claim.kind === 'running')).toHaveLength(2);
    // The dead owner's late settlement, had it come, would store nothing over the new owner's run.
    await settleCharged({ ...dead, requestId: 'req_c1_late' }, '{"data":"late"}');
    expect((await rows()).find((row) => row.key_hash === idempotencyKeyHash('clave-c'))?.state).toBe('running');
  });

  it('is forgotten after 24 hours: a new request runs, and the purge deletes it', async () => {
    await age('clave-a', 'created_at', 24 * 3600 + 1);
    expect(await claimIdempotencyKey(target('clave-a', 'req_a5'), OTHER_REQUEST, STALE_AFTER_SECONDS)).toEqual({ kind: 'claimed' });
    await age('clave-b', 'created_at', 24 * 3600 + 1);
    const before = (await rows()).length;
    expect(await purgeExpiredIdempotencyKeys(1)).toBe(1);
    expect((await rows()).length).toBe(before - 1);
    expect((await rows()).some((row) => row.key_hash === idempotencyKeyHash('clave-b'))).toBe(false);
  });
});
