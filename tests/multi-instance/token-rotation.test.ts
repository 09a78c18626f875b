// Two instances on one PostgreSQL (issue 22, point 1): a rotated token keeps working on both
// inside its overlap window and is refused by both once it ends; a revoked token is refused by
// both at once, pushed by PostgreSQL's LISTEN/NOTIFY, long before their periodic reload.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { CREDENTIALS_CHANNEL } from '@/lib/core/credentials/changes';
import { createToken, listTokens, revokeToken } from '@/lib/flows/integration-management/tokens';
import { rotateToken } from '@/lib/flows/integration-management/service';
import { startSimulator, type RunningSimulator } from '@/simulator/index';
import { startApp, type RunningApp } from '../support/app-server';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { answersAfter, newIntegration, omisosStatus, renapStatus, requiredEnv, servedBy, TEST_ACTOR } from './support';

/** The longest periodic reload allowed: only a pushed change can reach an instance sooner. */
const REFRESH_MS = 10_000;
/** What "at once" has to mean on a loaded two-core machine: a notification and one reload. */
const PUSHED_CHANGE_BOUND_MS = 3_000;

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let instances: RunningApp[] = [];

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  simulator = await startSimulator({ port: 0, latencyMs: 0 });
  testDatabase = await useTestDatabase();
  const env = {
    ...testDatabase.env,
    RENAP_BASE_URL: `${simulator.url}/renap`,
    RTU_BASE_URL: `${simulator.url}/rtu`,
    CATALOG_BASE_URL: `${simulator.url}/catalog`,
    RATE_LIMIT_GLOBAL_MAX: '100000',
    // The test polls: the per-integration limits are not what it is about.
    RATE_LIMIT_RENAP_PER_MINUTE: '100000',
    RATE_LIMIT_CATALOG_PER_MINUTE: '100000',
    INTEGRATION_CACHE_REFRESH_MS: String(REFRESH_MS),
    INTEGRATION_CACHE_MAX_AGE_MS: String(6 * REFRESH_MS),
  };
  instances = await Promise.all([startApp({ env }), startApp({ env })]);
});

afterAll(async () => {
  await Promise.all(instances.map((app) => app.stop()));
  await simulator?.close();
  await testDatabase?.cleanup();
});

const withToken = (headers: Record<string, string>, token: string) => ({ ...headers, 'x-integracion-token': token });

describe('a rotated token with an overlap window, on two instances', () => {
  it('keeps the old token working on both inside its window and refuses it on both once the window ends', async () => {
    // A balance for the catalog lookups (Q 0.01 each).
    const integration = await newIntegration(1, 10_000);
    const oldToken = integration.headers['x-integracion-token']!;
    await servedBy(instances, integration);

    const rotated = await rotateToken(TEST_ACTOR, integration.id, { overlap: '1h' });
    if (!rotated.ok) throw new Error(rotated.error.message);
    const rotatedAt = Date.now();
    expect(rotated.value.replaced.state).toBe('ending');
    expect(rotated.value.replaced.expiresAt!.getTime() - rotatedAt).toBeGreaterThan(59 * 60_000);
    // The new token reaches both instances by the announcement, not the 10 s reload.
    for (const app of instances) {
      expect(await answersAfter(() => renapStatus(app, withToken(integration.headers, rotated.value.token)), 200, rotatedAt, [403], REFRESH_MS)).toBeLessThan(
        PUSHED_CHANGE_BOUND_MS,
      );
    }
    // Both tokens work on both instances, on a registry and on a catalog route.
    for (const app of instances) {
      for (const token of [oldToken, rotated.value.token]) {
        expect(await renapStatus(app, withToken(integration.headers, token))).toBe(200);
        expect(await omisosStatus(app, withToken(integration.headers, token))).toBe(200);
      }
    }

    // An hour is too long to wait: the window is moved to end in two seconds, as the database says
    // (and announced, as every change is). Each instance then checks the end itself, per lookup.
    const endsAt = new Date(Date.now() + 2_000);
    const handle = await database();
    await handle.rows(sql`update integration_tokens set expires_at = ${endsAt.toISOString()}::timestamptz where id = ${rotated.value.replaced.id}`);
    await handle.rows(sql`select pg_notify(${CREDENTIALS_CHANNEL}, '')`);
    for (const app of instances) {
      await answersAfter(() => omisosStatus(app, integration.headers), 401, Date.now(), [200], 2_000 + PUSHED_CHANGE_BOUND_MS);
      // The instance refused it while answering, so no earlier than the end of the window.
      expect(Date.now()).toBeGreaterThanOrEqual(endsAt.getTime());
      expect(await renapStatus(app, integration.headers)).toBe(403);
      expect(await omisosStatus(app, withToken(integration.headers, rotated.value.token))).toBe(200);
    }
    expect((await listTokens(integration.id)).find((token) => token.id === rotated.value.replaced.id)?.state).toBe('expired');
  });
});

describe('a revoked token, on two instances', () => {
  it('is refused by both at once (pushed), while the integration\'s other token keeps working', async () => {
    const integration = await newIntegration(0, 0);
    const second = await createToken(TEST_ACTOR, integration.id, { label: 'Servidor nuevo' });
    if (!second.ok) throw new Error(second.error.message);
    const createdAt = Date.now();
    for (const app of instances) {
      await answersAfter(() => renapStatus(app, withToken(integration.headers, second.value.token)), 200, createdAt, [403], REFRESH_MS);
      expect(await renapStatus(app, integration.headers)).toBe(200);
    }

    const revoked = await revokeToken(TEST_ACTOR, integration.id, second.value.view.id);
    if (!revoked.ok) throw new Error(revoked.error.message);
    const revokedAt = Date.now();
    for (const app of instances) {
      expect(await answersAfter(() => renapStatus(app, withToken(integration.headers, second.value.token)), 403, revokedAt, [200], REFRESH_MS)).toBeLessThan(
        PUSHED_CHANGE_BOUND_MS,
      );
    }
    for (const app of instances) expect(await renapStatus(app, integration.headers)).toBe(200);
  });
});
