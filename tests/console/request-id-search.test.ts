// The records list's search for a request id, over HTTP against the built app: a request id opens
// its record with a redirect (spaces and case as typed do not matter), one that left neither a
// record nor a trace says what it may be and lists the refusal reasons counted around now (the
// selected integration's, or everyone's; tests/console/record-detail.test.ts reads the traces), and the list shows each record's request id. Support sees
// no full NIT or CUI in any of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntegration } from '@/lib/flows/integration-management/service';
import { listLatestRecords } from '@/lib/core/records/list';
import { recordUnbilledQuery } from '@/lib/core/records/write';
import { countRefusal, flushRefusals } from '@/lib/core/rollups/refusals';
import { createConsoleUser } from '@/lib/flows/auth/users';
import { startApp, type RunningApp } from '../support/app-server';
import { ConsoleClient } from '../support/console-client';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const NIT = '4829113-7';
const CUI = '2976154320101';
const REQUEST_ID = 'req_5f0c3a9d2b7e41c8a6f1';
const UNKNOWN_REQUEST_ID = 'req_0123456789abcdef0123';

let testDatabase: TestDatabase;
let app: RunningApp;
let support: ConsoleClient;
let recordId = 0;
let acmeId = 0;

function text(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ');
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  const system = { kind: 'system', name: 'test' } as const;
  const created = await createConsoleUser(system, { email: 'soporte@example.com', name: 'soporte', role: 'support', mustChangePassword: false });
  if (!created.ok) throw new Error(created.error.message);
  const acme = await createIntegration(system, { nombre: 'acme' });
  const beta = await createIntegration(system, { nombre: 'beta' });
  if (!acme.ok || !beta.ok) throw new Error('integrations not created');
  acmeId = acme.value.integration.id;
  await recordUnbilledQuery({ integrationId: acmeId, lookup: 'renap', httpStatus: 404, responseTimeMs: 12, nit: NIT, cui: CUI, errorMessage: null, requestId: REQUEST_ID });
  await recordUnbilledQuery({ integrationId: acmeId, lookup: 'cui_nit', httpStatus: 200, responseTimeMs: 9, nit: '576937K', cui: null, errorMessage: null, requestId: 'req_aaaaaaaaaabbbbbbbbbb' });
  recordId = (await listLatestRecords({ integracion: acmeId, consulta: 'renap' }, 1))[0]!.id;
  // Refused requests leave counts, not records: three of acme's out of balance, one of beta's over its limit.
  for (let i = 0; i < 3; i++) countRefusal({ integrationId: acmeId, lookup: 'renap', reason: 'balance_exhausted' });
  countRefusal({ integrationId: beta.value.integration.id, lookup: 'rtu', reason: 'rate_limited' });
  await flushRefusals();
  app = await startApp();
  support = new ConsoleClient(app.baseUrl);
  expect(await support.signIn('soporte@example.com', created.value.password)).toBeNull();
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await app?.stop();
  await testDatabase?.cleanup();
});

describe('request-id search in the records list', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('opens the record of a request id typed in the search box, with spaces around or in capitals', async () => {
    for (const typed of [REQUEST_ID, `  ${REQUEST_ID} `, REQUEST_ID.toUpperCase()]) {
      const answer = await support.request(`/admin/registros?${new URLSearchParams({ identificador: typed, integracion: '' })}`);
      expect(answer.status, typed).toBe(307);
      expect(answer.headers.get('location'), typed).toBe(`/admin/registros/${recordId}`);
    }
    const detail = await support.request(`/admin/registros/${recordId}`);
    expect(detail.status).toBe(200);
    expect(detail.text).toContain(REQUEST_ID);
    expect(detail.text).toContain('aria-label="Copiar el id de solicitud"');
    expect(detail.text).not.toContain('4829113');
  });

  it('says a request id with no record never reached a source, with the refusal reasons of the selected integration', async () => {
    const answer = await support.request(`/admin/registros?${new URLSearchParams({ identificador: UNKNOWN_REQUEST_ID, integracion: String(acmeId) })}`);
    expect(answer.status).toBe(307);
    const location = answer.headers.get('location')!;
    expect(new URL(location, app.baseUrl).searchParams.get('solicitud')).toBe(UNKNOWN_REQUEST_ID);
    const list = await support.request(location);
    expect(list.status).toBe(200);
    const page = text(list.text);
    expect(page).toContain(`Ninguna consulta ni rechazo tiene el id de solicitud ${UNKNOWN_REQUEST_ID}`);
    expect(page).toContain('Puede que el id tenga un error de copia o no sea de este servicio');
    expect(page).toContain('Rechazos de acme en las últimas 24 horas');
    expect(page).toMatch(/Sin saldo \(402\) 3 /);
    expect(page).not.toContain('Límite por minuto de la integración (429)');
    // The typed id stays in the box; records of other searches are not listed under it.
    expect(list.text).toContain(`value="${UNKNOWN_REQUEST_ID}"`);
    expect(list.text).not.toContain('data-testid="records"');

    const everyone = text((await support.request(`/admin/registros?${new URLSearchParams({ solicitud: UNKNOWN_REQUEST_ID })}`)).text);
    expect(everyone).toContain('Rechazos de todas las integraciones en las últimas 24 horas');
    expect(everyone).toMatch(/Sin saldo \(402\) 3 /);
    expect(everyone).toMatch(/Límite por minuto de la integración \(429\) 1 /);
  });

  it("lists each record's short request id with the full id to copy, and still finds a NIT by its hash", async () => {
    const list = await support.request('/admin/registros');
    expect(list.status).toBe(200);
    expect(list.text).toContain(`title="${REQUEST_ID}"`);
    expect(text(list.text)).toContain('req_5f0c3a9d2b… Copiar');
    expect(list.text).toContain(`aria-label="Copiar el id de solicitud ${REQUEST_ID}"`);
    expect(list.text).toContain('NIT, CUI o id de solicitud');

    // A NIT is posted, kept behind a reference, and the list opens with it (issue 30, point 5).
    const searched = await support.request('/admin/registros/buscar', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.baseUrl },
      body: new URLSearchParams({ identificador: '48291137' }).toString(),
    });
    expect(searched.status).toBe(303);
    const byNit = await support.request(searched.headers.get('location')!);
    expect(byNit.status).toBe(200);
    expect(byNit.text).toContain(`title="${REQUEST_ID}"`);
    expect(byNit.text).not.toContain('req_aaaaaaaaaabbbbbbbbbb');
    expect(byNit.text).not.toContain('4829113-7');
  });
});
