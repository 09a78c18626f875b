// Issue 64, point 6: invoicing as a component. On a built app with FEL on whose certifier refuses
// the service's credentials (a wrong FEL_API_KEY against the simulator), a top-up is credited and
// its invoice waits; the console says so where an operator looks: Facturas and the Panel carry
// «Facturación detenida desde …: el certificador rechaza las credenciales», and Fuentes shows the
// certifier beside the sources, refusing since then, with what waits for it.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { invoiceAttempts } from '@/db/schema';
import { CERTIFIER_STATE_LABELS } from '@/lib/presentation/invoice-labels';
import { startSimulator, type RunningSimulator } from '@/simulator/server';
import { createTestIntegration, eventually, type TestIntegration } from '@/tests/conformance/harness';
import { startApp, type RunningApp } from '../support/app-server';
import { consoleSignedIn, newConsoleUser } from '../support/people';
import { says } from '../support/verify-now';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let app: RunningApp;
let integration: TestIntegration;
let admin: { email: string; password: string };

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0 });
  await testDatabase.use(async () => {
    integration = await createTestIntegration('certificador-caido', { balanceCentavos: 0 });
    admin = await newConsoleUser('admin-certificador@example.com', 'admin');
  });
  app = await startApp({
    env: {
      FEL_ENABLED: 'true',
      FEL_CERTIFIER_BASE_URL: `${simulator.url}/fel`,
      FEL_NIT_LOOKUP_BASE_URL: `${simulator.url}/fel/receptores`,
      FEL_API_KEY: 'una-llave-que-el-certificador-no-conoce',
      FEL_WORKER_INTERVAL_MS: '200',
      STATUS_PAGE_CACHE_SECONDS: '1',
    },
  });
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await app?.stop();
  await simulator?.close();
  await testDatabase?.cleanup();
});

/** What a person reads: the page without its scripts and tags. */
const visible = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('the certifier refusing the credentials', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('shows on Facturas and the Panel as invoicing stopped since then, and on Fuentes beside the sources', async () => {
    const console_ = await consoleSignedIn(app.baseUrl, admin);
    const before = visible((await console_.request('/admin/facturas')).text);
    expect(before).not.toContain('Facturación detenida');

    const credited = await console_.serverAction(`/admin/integraciones/${integration.id}/saldo`, 'topUpAction', { integrationId: integration.id, monto: '100.00', nota: 'Depósito 4410', envio: randomUUID() });
    expect(says(credited, 'Recarga de Q 100.00 registrada.')).toBe(true);
    await eventually(
      () => app.withDatabase(async () => (await db()).select().from(invoiceAttempts)),
      (rows) => rows.some((row) => row.outcome === 'credentials_refused'),
      20_000,
      'the refused certification',
    );

    const stopped = /Facturación detenida desde \d\d\/\d\d\/\d{4}, \d\d:\d\d(:\d\d)?: el certificador rechaza las credenciales del servicio \(corrija FEL_SIGNING_\* y FEL_API_\*\)\. Una factura espera; se enviarán solas, con su mismo identificador, en cuanto responda\./;
    expect(visible((await console_.request('/admin/facturas')).text)).toMatch(stopped);
    expect(visible((await console_.request('/admin')).text)).toMatch(stopped);
    const sources = visible((await console_.request('/admin/fuentes')).text);
    expect(sources).toContain('Certificador de facturas (FEL): INFILE');
    expect(sources).toMatch(new RegExp(`${CERTIFIER_STATE_LABELS.credentials_refused} desde \\d\\d/\\d\\d/\\d{4}`));
    expect(sources).toContain('Una factura espera');

    // The public status tells integrators too, without the operator's reason.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const status = (await (await fetch(`${app.baseUrl}/api/estado`)).json()) as { componentes: Array<{ componente: string; estado: string; desde: string | null; texto: string }> };
    expect(status.componentes).toEqual([
      expect.objectContaining({ componente: 'facturacion', estado: 'sin_servicio', desde: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), texto: expect.stringContaining('Facturación detenida') }),
    ]);
    const page = visible(await (await fetch(`${app.baseUrl}/estado`)).text());
    expect(page).toContain('Facturación electrónica (FEL) Sin servicio');
    expect(page).toMatch(/Facturación detenida: las recargas se siguen acreditando y sus facturas se emitirán solas, una por recarga, en cuanto el certificador vuelva\. Desde \d\d\/\d\d\/\d{4}/);
    expect(page).not.toContain('credenciales');
  });
});
