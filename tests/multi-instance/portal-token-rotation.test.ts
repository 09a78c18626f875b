// Issue 34's "done when" for tokens, on two instances sharing PostgreSQL and Redis: a developer of
// the integration, signed in through the portal's form, rotates its token with a 24 h overlap
// through the portal's own server action; both tokens answer 200 on both instances. The developer
// then revokes the old token through the portal's action, and both instances refuse it within a
// second (the change notification, not the periodic reload), while the new one keeps answering.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '@/simulator/index';
import { startApp, type RunningApp } from '../support/app-server';
import { addPortalMember, portalSignedIn } from '../support/people';
import type { PortalClient } from '../support/portal-client';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { answersAfter, newIntegration, omisosStatus, PERIODIC_RELOAD_MS, renapStatus, requiredEnv, servedBy, twoInstanceEnv, type TestIntegration } from './support';

const PAGE = '/portal/credenciales';
const DEVELOPER = 'dev-rotacion@example.com';
/** The longest periodic reload allowed: only a pushed change can reach an instance within a second. */
const REFRESH_MS = PERIODIC_RELOAD_MS;
/** The promise for a revocation: refused by every instance within a second. */
const REVOCATION_BOUND_MS = 1_000;

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let instances: RunningApp[] = [];

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  simulator = await startSimulator({ port: 0, latencyMs: 0 });
  testDatabase = await useTestDatabase();
  const env = twoInstanceEnv(testDatabase, simulator);
  instances = await Promise.all([startApp({ env }), startApp({ env })]);
});

afterAll(async () => {
  await Promise.all(instances.map((app) => app.stop()));
  await simulator?.close();
  await testDatabase?.cleanup();
});

const withToken = (integration: TestIntegration, token: string) => ({ ...integration.headers, 'x-integracion-token': token });

/** A server action's answer: its return value, the flight's line `1:…`. */
function answerOf(flight: { text: string }): { ok: boolean; message?: string; data?: { token?: string } } {
  const line = flight.text.split('\n').find((candidate) => candidate.startsWith('1:'));
  if (!line) throw new Error(`no action answer in ${flight.text.slice(0, 300)}`);
  return JSON.parse(line.slice(2)) as { ok: boolean; message?: string; data?: { token?: string } };
}

/** The id the portal's rotation form offers for the token `secret` (an option naming its prefix, `tlk_…`). */
async function tokenIdOnPage(developer: PortalClient, secret: string): Promise<number> {
  const page = await developer.request(PAGE);
  expect(page.status).toBe(200);
  const rotateChoice = /<select[^>]*data-testid="rotate-token-choice"[^>]*>([\s\S]*?)<\/select>/.exec(page.text)?.[1] ?? '';
  const options = [...rotateChoice.matchAll(/<option value="(\d+)"[^>]*>([^<]*)<\/option>/g)].map((match) => ({ id: Number(match[1]), prefix: optionPrefix(match[2]!) }));
  const offered = options.find((option) => option.prefix.length > 0 && secret.startsWith(option.prefix));
  expect(offered, `the rotation form offers the token: ${JSON.stringify(options)}`).toBeDefined();
  return offered!.id;
}

/** "Principal · tlk_1a2b3c… · creado el …": the prefix, without its ellipsis. */
function optionPrefix(label: string): string {
  return (label.split(' · ').find((part) => part.startsWith('tlk_')) ?? '').replace(/…$/, '');
}

describe('a portal developer rotating and revoking the token, on two instances', () => {
  it('keeps both tokens answering 200 on both inside the 24 h overlap, and the revoked one is refused by both within a second', async () => {
    const integration = await newIntegration(1, 10_000);
    const oldToken = integration.headers['x-integracion-token']!;
    await addPortalMember({ id: integration.id, nombre: integration.headers['x-integracion-login']!, token: oldToken }, DEVELOPER, 'desarrollador');
    await servedBy(instances, integration);

    const developer = await portalSignedIn(instances[0]!.baseUrl, DEVELOPER);
    const tokenId = await tokenIdOnPage(developer, oldToken);
    const rotated = answerOf(await developer.serverAction(PAGE, 'rotatePortalTokenAction', { tokenId, superposicion: '24h' }));
    expect(rotated.ok, rotated.message).toBe(true);
    expect(rotated.message).toMatch(/^Token rotado: el anterior sigue funcionando hasta el /);
    const newToken = rotated.data!.token!;
    const rotatedAt = Date.now();

    // The new token reaches both instances by the announcement (not the 10 s reload).
    for (const app of instances) {
      await answersAfter(() => omisosStatus(app, withToken(integration, newToken)), 200, rotatedAt, [401], REFRESH_MS / 2);
    }
    for (const app of instances) {
      for (const token of [oldToken, newToken]) {
        expect(await omisosStatus(app, withToken(integration, token))).toBe(200);
        expect(await renapStatus(app, withToken(integration, token))).toBe(200);
      }
    }

    const revoked = answerOf(await developer.serverAction(PAGE, 'revokePortalTokenAction', { tokenId }));
    expect(revoked.ok, revoked.message).toBe(true);
    const revokedAt = Date.now();
    // Both instances polled in turn from the moment the portal answered: each within the second.
    const refusedAfter = await Promise.all(
      instances.map((app) => answersAfter(() => omisosStatus(app, withToken(integration, oldToken)), 401, revokedAt, [200], REFRESH_MS / 2)),
    );
    for (const elapsed of refusedAfter) expect(elapsed).toBeLessThan(REVOCATION_BOUND_MS);
    for (const app of instances) {
      expect(await renapStatus(app, withToken(integration, oldToken))).toBe(403);
      expect(await omisosStatus(app, withToken(integration, newToken))).toBe(200);
      expect(await renapStatus(app, withToken(integration, newToken))).toBe(200);
    }
  });
});
