// Tokens on the database this run uses (PGlite, or PostgreSQL with DATABASE_URL): creation,
// rotation with and without overlap, revocation, their audit rows, and last uses written in one
// batch instead of a write per lookup.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import type { Actor } from '@/lib/core/audit/audit';
import { createIntegration } from '@/lib/flows/integration-management/service';
import { metrics } from '@/lib/platform/metrics/registry';
import { hashToken } from '@/lib/platform/security/tokens';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { flushTokenUses, noteTokenUse } from '@/lib/core/credentials/last-use';
import { createToken, listTokens, revokeToken, rotateToken } from './tokens';

const ACTOR: Actor = { kind: 'system', name: 'tokens-test' };
let testDatabase: TestDatabase;
let integrationCount = 0;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

async function newIntegration() {
  const created = await createIntegration(ACTOR, { nombre: `tokens-${++integrationCount}` });
  if (!created.ok) throw new Error(created.error.message);
  return created.value;
}

async function storedHashes(integrationId: number): Promise<string[]> {
  const rows = await (await database()).rows<{ token_hash: string }>(sql`select token_hash from integration_tokens where integration_id = ${integrationId} order by id`);
  return rows.map((row) => row.token_hash);
}

async function auditActions(integrationId: number): Promise<Array<{ action: string; text: string }>> {
  const rows = await (await database()).rows<{ action: string; before: unknown; after: unknown }>(
    sql`select action, before, after from audit_log where target_type = 'integration' and target_id = ${String(integrationId)} order by id`,
  );
  return rows.map((row) => ({ action: row.action, text: JSON.stringify(row) }));
}

describe('integration tokens', () => {
  it('a new integration has one active token, stored only as its hash', async () => {
    const created = await newIntegration();
    const tokens = await listTokens(created.integration.id);
    expect(tokens).toEqual([expect.objectContaining({ label: 'Principal', state: 'active', lastUsedAt: null, expiresAt: null, tokenPrefix: created.token.slice(0, 10) })]);
    expect(tokens[0]).not.toHaveProperty('tokenHash');
    expect(await storedHashes(created.integration.id)).toEqual([hashToken(created.token)]);
  });

  it('creates a further named token with an optional expiry, refusing an empty name or a past expiry', async () => {
    const { integration } = await newIntegration();
    expect(await createToken(ACTOR, integration.id, { label: '   ' })).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(await createToken(ACTOR, integration.id, { label: 'Staging', expiresAt: new Date(Date.now() - 1_000) })).toMatchObject({ ok: false, error: { code: 'invalid' } });
    const expiresAt = new Date(Date.now() + 86_400_000);
    const created = await createToken(ACTOR, integration.id, { label: 'Staging', expiresAt });
    if (!created.ok) throw new Error(created.error.message);
    expect(created.value.view).toMatchObject({ label: 'Staging', state: 'active', expiresAt });
    expect((await listTokens(integration.id)).map((token) => token.label)).toEqual(['Staging', 'Principal']);
    const audit = await auditActions(integration.id);
    expect(audit.map((row) => row.action)).toEqual(['integration.create', 'token.create']);
    expect(audit.map((row) => row.text).join()).not.toContain(created.value.token);
    expect(audit.map((row) => row.text).join()).not.toContain(hashToken(created.value.token));
  });

  it('rotation with an overlap keeps the old token until the window ends; without one it is revoked at once', async () => {
    const { integration } = await newIntegration();
    const before = Date.now();
    const overlapping = await rotateToken(ACTOR, integration.id, { overlap: '24h' });
    if (!overlapping.ok) throw new Error(overlapping.error.message);
    const { replaced, view } = overlapping.value;
    expect(replaced).toMatchObject({ state: 'ending', replacedById: view.id, revokedAt: null });
    expect(replaced.expiresAt!.getTime()).toBeGreaterThanOrEqual(before + 24 * 3_600_000);
    expect(replaced.expiresAt!.getTime()).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000);
    expect(view).toMatchObject({ label: 'Principal', state: 'active', expiresAt: null });
    // The replaced token cannot be rotated again; the new one can, here with no overlap.
    expect(await rotateToken(ACTOR, integration.id, { tokenId: replaced.id, overlap: '1h' })).toMatchObject({ ok: false, error: { code: 'not_usable' } });
    const immediate = await rotateToken(ACTOR, integration.id, { overlap: 'none' });
    if (!immediate.ok) throw new Error(immediate.error.message);
    expect(immediate.value.replaced).toMatchObject({ id: view.id, state: 'revoked' });
    expect((await listTokens(integration.id)).map((token) => token.state)).toEqual(['active', 'revoked', 'ending']);
    expect((await auditActions(integration.id)).map((row) => row.action)).toEqual(['integration.create', 'integration.rotate_token', 'integration.rotate_token']);
  });

  it('revokes a token once; another integration\'s token cannot be revoked through this one', async () => {
    const first = await newIntegration();
    const second = await newIntegration();
    const [secondToken] = await listTokens(second.integration.id);
    expect(await revokeToken(ACTOR, first.integration.id, secondToken!.id)).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const [token] = await listTokens(first.integration.id);
    expect(await revokeToken(ACTOR, first.integration.id, token!.id)).toMatchObject({ ok: true, value: { state: 'revoked' } });
    expect(await revokeToken(ACTOR, first.integration.id, token!.id)).toMatchObject({ ok: false, error: { code: 'not_usable' } });
    expect((await auditActions(first.integration.id)).map((row) => row.action)).toEqual(['integration.create', 'token.revoke']);
    expect(await rotateToken(ACTOR, first.integration.id)).toMatchObject({ ok: false, error: { code: 'not_usable' } });
  });

  it('writes last uses in one statement per flush, never going back in time', async () => {
    const { integration } = await newIntegration();
    const [token] = await listTokens(integration.id);
    const statements = async () => (await metrics().databaseRoundTrips.get()).values.reduce((sum, value) => sum + value.value, 0);
    const noted = Date.parse('2026-11-20T12:00:00.000Z');
    const before = await statements();
    for (let use = 0; use < 1_000; use++) noteTokenUse(token!.id, noted + use);
    expect(await statements()).toBe(before);
    await flushTokenUses();
    expect(await statements()).toBe(before + 1);
    expect((await listTokens(integration.id))[0]!.lastUsedAt).toEqual(new Date(noted + 999));

    // An instance that flushes an older use later does not move it back.
    noteTokenUse(token!.id, noted - 60_000);
    await flushTokenUses();
    expect((await listTokens(integration.id))[0]!.lastUsedAt).toEqual(new Date(noted + 999));
  });
});
