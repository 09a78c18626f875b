// The console's "Lotes" (issue 35, point 6) over HTTP against the built app, its runner and the
// simulator, on PGlite and on PostgreSQL: support and administrators list every integration's jobs
// and filter them; a job's page shows its figures and its rows with identifiers masked for both
// roles; "Mostrar" reveals one row's identifier with a reason, logged as a record's reveal is; an
// administrator pauses (a state of its own that a top-up does not end: the runner runs nothing of
// it, while a later job of the same integration runs to its end), resumes and cancels (what did not
// run is never charged), each audited with the administrator as actor; support is refused all three.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { ACTION_MESSAGES } from '@/lib/flows/auth/action';
import { adjustBalance } from '@/lib/core/billing/ledger';
import { verifyLedger } from '@/lib/core/billing/verify';
import { maskNit } from '@/lib/core/sealing/masking';
import { createPopulation, DEFAULT_SIMULATOR_SEED } from '@/simulator';
import { createTestIntegration, credentialHeaders, readMoney, startGateway, TEST_ACTOR, untilJob, type Gateway, type TestIntegration } from '../conformance/harness';
import { consoleSignedIn, newConsoleUser, type ConsoleAccount } from '../support/people';
import type { PortalClient } from '../support/portal-client';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { says } from '../support/verify-now';

const TARIFF = 150;

let testDb: TestDatabase;
let gateway: Gateway;
let busy: TestIntegration;
let quiet: TestIntegration;
let broke: TestIntegration;
let adminAccount: ConsoleAccount;
let supportAccount: ConsoleAccount;
let admin: PortalClient;
let support: PortalClient;

/** NITs whose RTU record the simulator's source holds: each is found. */
const knownNits = (() => {
  const population = createPopulation({ seed: DEFAULT_SIMULATOR_SEED });
  const nits: string[] = [];
  for (let index = 0; nits.length < 12; index++) {
    const member = population.member(index);
    if (member.classicNit && member.sourceHoldsCopy && member.quirks.length === 0) nits.push(member.classicNit);
  }
  return nits;
})();

beforeAll(async () => {
  testDb = await useTestDatabase();
  adminAccount = await newConsoleUser('admin-lotes@example.com', 'admin', { name: 'Ana Administradora' });
  supportAccount = await newConsoleUser('soporte-lotes@example.com', 'support', { name: 'Sergio Soporte' });
  busy = await createTestIntegration('lotes-consola', { tariffCentavos: TARIFF, balanceCentavos: 100 * TARIFF });
  // No balance: its jobs wait (en_pausa_sin_saldo) until the test tops it up, so nothing runs before
  // the administrator acts.
  quiet = await createTestIntegration('lotes-en-espera', { tariffCentavos: TARIFF, balanceCentavos: 0 });
  broke = await createTestIntegration('lotes-cancelable', { tariffCentavos: TARIFF, balanceCentavos: 0 });
  gateway = await startGateway(testDb, {
    env: { RATE_LIMIT_CATALOG_PER_MINUTE: '1000', BULK_POLL_MS: '100', BULK_CONCURRENCY: '4', RATE_LIMIT_SIGN_IN_PER_MINUTE: '100' },
  });
  admin = await consoleSignedIn(gateway.app.baseUrl, adminAccount);
  support = await consoleSignedIn(gateway.app.baseUrl, supportAccount);
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.stop();
  await testDb?.cleanup();
});

interface JobBody {
  id: string;
  estado: string;
  conteos: Record<string, number>;
  monto_cobrado: string;
  estimado_fin: string | null;
  motivo_estado: string | null;
}

async function submit(as: TestIntegration, identifiers: string[]): Promise<string> {
  const answer = await gateway.call('/api/lotes', { as, json: { catalogo: 'rtu', identificadores: identifiers }, headers: { 'idempotency-key': randomUUID() } });
  expect(answer.status, answer.text).toBe(202);
  return (answer.body as JobBody).id;
}

/** The job as its integrator reads it: GET /api/lotes/{id}. */
async function apiJob(id: string, as: TestIntegration): Promise<JobBody> {
  const response = await fetch(`${gateway.app.baseUrl}/api/lotes/${id}`, { headers: credentialHeaders(as) });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text) as JobBody;
}

function untilState(id: string, as: TestIntegration, state: string): Promise<JobBody> {
  return untilJob<JobBody>(gateway, as, id, (body) => body.estado === state, `job ${id} ${state}`);
}

/** A page's text as a person reads it (tags, scripts and React's text separators removed). */
async function pageText(client: PortalClient, path: string): Promise<{ status: number; html: string; text: string }> {
  const answer = await client.request(path);
  const text = answer.text
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
  return { status: answer.status, html: answer.text, text };
}

/** What the administrator tells the integrator when pausing (the API's motivo_estado). */
const PAUSE_REASON = 'Revisión del consumo del mes; lo reanudamos hoy.';

function act(client: PortalClient, id: string, action: 'pauseJobAction' | 'resumeJobAction' | 'cancelJobAction') {
  const reason = action === 'pauseJobAction' ? { motivo: PAUSE_REASON } : {};
  return client.serverAction(`/admin/lotes/${id}`, action, { lote: id, ...reason, envio: randomUUID() });
}

function reveal(client: PortalClient, id: string, posicion: number, motivo: string) {
  return client.serverAction(`/admin/lotes/${id}`, 'revealJobItemAction', { lote: id, posicion, motivo, envio: randomUUID() });
}

async function auditRows(action: string): Promise<Array<{ actor: string; target_id: string; before: unknown; after: unknown }>> {
  return gateway.withDatabase(async () =>
    (await database()).rows(sql`select actor, target_id, before, after from audit_log where action = ${action} order by id`),
  );
}

async function accessEntries(): Promise<Array<{ user_id: number; kind: string; reason: string; details: { lote: string; posicion: number } | null; record_id: number | null }>> {
  return gateway.withDatabase(async () =>
    (await database()).rows(sql`select user_id, kind, reason, details, record_id from personal_data_access order by id`),
  );
}

describe('the console\'s Lotes', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  let finishedId: string;

  it('lists every integration\'s jobs newest first for support and administrators, filtered by integration and by state', async () => {
    finishedId = await submit(busy, [knownNits[0]!, knownNits[1]!, '12345678', knownNits[0]!]);
    const done = await untilState(finishedId, busy, 'completado');
    expect(done.conteos).toMatchObject({ total: 4, encontrados: 2, invalidos: 2 });
    const waitingId = await submit(quiet, [knownNits[2]!]);
    await untilState(waitingId, quiet, 'en_pausa_sin_saldo');

    for (const client of [admin, support]) {
      const list = await pageText(client, '/admin/lotes');
      expect(list.status).toBe(200);
      // Newest first: the waiting job before the finished one.
      expect(list.text.indexOf(waitingId)).toBeGreaterThan(-1);
      expect(list.text.indexOf(waitingId)).toBeLessThan(list.text.indexOf(finishedId));
      expect(list.text).toContain('lotes-consola Catálogo RTU');
      expect(list.text).toContain('En pausa: sin saldo');
      expect(list.text).toContain('Completado');
      // Progress, outcomes (found / not found / set aside / refused by the source / failed) and the charge.
      expect(list.text).toContain('4/4 2 / 0 / 2 / 0 / 0 Q 3.00');
      // The console's navigation leads here for both roles.
      expect(list.html).toMatch(/<a[^>]*href="\/admin\/lotes"[^>]*>Lotes<\/a>/);
    }
    const byIntegration = await pageText(support, `/admin/lotes?integracion=${quiet.id}`);
    expect(byIntegration.text).toContain(waitingId);
    expect(byIntegration.text).not.toContain(finishedId);
    // A name typed in the field is resolved to the integration's number in the address (a
    // redirect, in the header or, once the list's skeleton has gone out, in the page).
    const byName = await support.request('/admin/lotes?integracion=LOTES-CONSOLA');
    expect(byName.headers.get('location') ?? byName.text).toContain(`/admin/lotes?integracion=${busy.id}`);
    const byState = await pageText(support, '/admin/lotes?estado=completado');
    expect(byState.text).toContain(finishedId);
    expect(byState.text).not.toContain(waitingId);
    const none = await pageText(support, `/admin/lotes?estado=cancelado&integracion=${busy.id}`);
    expect(none.text).toContain('Ningún lote coincide con estos filtros.');
  });

  it('shows a job\'s rows with identifiers masked for every role, and reveals one with a reason, logged like a record\'s reveal', async () => {
    const nit = knownNits[0]!;
    for (const client of [admin, support]) {
      const detail = await pageText(client, `/admin/lotes/${finishedId}`);
      expect(detail.status).toBe(200);
      expect(detail.text).toContain('Completado');
      expect(detail.text).toContain('lotes-consola');
      expect(detail.text).toContain(maskNit(nit));
      // Not a character of a submitted identifier in the page's HTML, for administrators either.
      for (const identifier of [nit, knownNits[1]!, '12345678']) expect(detail.html).not.toContain(identifier);
      expect(detail.text).toContain('Repetido en la lista');
      expect(detail.text).toContain('NIT inválido');
      // The found row links to its query record through the records' request-id search.
      expect(detail.html).toMatch(/href="\/admin\/registros\/solicitud\?solicitud=req_[^"]+"/);
    }

    const refused = await reveal(admin, finishedId, 1, '');
    expect(says(refused, 'Escriba el motivo o el número de ticket (al menos 3 caracteres).')).toBe(true);
    expect(await accessEntries()).toEqual([]);

    const shown = await reveal(admin, finishedId, 1, 'Ticket 77, el integrador pide la fila 1');
    expect(shown.status).toBe(200);
    expect(shown.text).toContain(nit);
    const bySupport = await reveal(support, finishedId, 4, 'Ticket 78, fila repetida');
    expect(bySupport.text).toContain(nit);
    const entries = await accessEntries();
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ user_id: adminAccount.id, kind: 'reveal', reason: 'Ticket 77, el integrador pide la fila 1', details: { lote: finishedId, posicion: 1 } });
    // The row that ran points at its query record; a row set aside ran no lookup.
    expect(entries[0]!.record_id).not.toBeNull();
    expect(entries[1]).toMatchObject({ user_id: supportAccount.id, kind: 'reveal', record_id: null, details: { lote: finishedId, posicion: 4 } });

    const log = await pageText(admin, '/admin/datos-personales');
    expect(log.text).toContain(`Fila 1 del lote ${finishedId}`);
    expect(log.text).toContain('Ticket 77, el integrador pide la fila 1');
    expect(log.html).not.toContain(nit);

    // A row that does not exist reveals nothing and logs nothing.
    const missing = await reveal(admin, finishedId, 99, 'Ticket 79');
    expect(says(missing, 'Esa fila ya no existe')).toBe(true);
    expect(await accessEntries()).toHaveLength(2);
  });

  it('lets only an administrator pause: the runner runs nothing of the paused job, not even after a top-up, until an administrator resumes it', async () => {
    const id = await submit(quiet, knownNits.slice(3, 7));
    await untilState(id, quiet, 'en_pausa_sin_saldo');

    const supportPage = await pageText(support, `/admin/lotes/${id}`);
    expect(supportPage.text).not.toContain('Pausar');
    const supportPause = await act(support, id, 'pauseJobAction');
    expect(says(supportPause, ACTION_MESSAGES.forbidden)).toBe(true);
    expect((await apiJob(id, quiet)).estado).toBe('en_pausa_sin_saldo');

    const adminPage = await pageText(admin, `/admin/lotes/${id}`);
    expect(adminPage.text).toContain('Pausar');
    const paused = await act(admin, id, 'pauseJobAction');
    expect(says(paused, 'Lote pausado')).toBe(true);
    expect(await auditRows('bulk_job.pause')).toEqual([
      {
        actor: `user:${adminAccount.id} ${adminAccount.email}`,
        target_id: String(quiet.id),
        before: { lote: id, estado: 'en_pausa_sin_saldo' },
        after: { lote: id, estado: 'en_pausa', motivo: PAUSE_REASON },
      },
    ]);
    // Pausing twice changes nothing and says why.
    expect(says(await act(admin, id, 'pauseJobAction'), 'Ese lote ya no está en curso')).toBe(true);

    // The balance comes back: a job sent after this one runs to its end, while the paused one,
    // older and so claimed first if it could be, has run nothing.
    await gateway.withDatabase(() => adjustBalance(TEST_ACTOR, quiet.id, 20 * TARIFF, 'recarga de prueba'));
    const later = await submit(quiet, [knownNits[7]!]);
    await untilState(later, quiet, 'completado');
    const held = await apiJob(id, quiet);
    expect(held).toMatchObject({ estado: 'en_pausa', monto_cobrado: '0.00', estimado_fin: null, conteos: { total: 4, procesados: 0, pendientes: 4 } });
    // The integrator is told why, in the administrator's words.
    expect(held.motivo_estado).toBe(`La administración de la pasarela pausó el lote: no corre ninguna fila hasta que lo reanude. Motivo: ${PAUSE_REASON}`);
    expect((await pageText(support, `/admin/lotes/${id}`)).text).toContain(`Motivo de la pausa, que el integrador ve: ${PAUSE_REASON}`);
    expect((await pageText(support, `/admin/lotes/${id}`)).text).toContain('Pausado por la administración');
    expect((await pageText(support, '/admin/lotes?estado=en_pausa')).text).toContain(id);

    expect(says(await act(support, id, 'resumeJobAction'), ACTION_MESSAGES.forbidden)).toBe(true);
    expect((await apiJob(id, quiet)).estado).toBe('en_pausa');
    expect(says(await act(admin, id, 'resumeJobAction'), 'Lote reanudado')).toBe(true);
    expect((await apiJob(id, quiet)).motivo_estado).toBeNull();
    const done = await untilState(id, quiet, 'completado');
    expect(done.conteos).toMatchObject({ total: 4, encontrados: 4, pendientes: 0 });
    expect(done.monto_cobrado).toBe('6.00');
    expect(await auditRows('bulk_job.resume')).toEqual([
      { actor: `user:${adminAccount.id} ${adminAccount.email}`, target_id: String(quiet.id), before: { lote: id, estado: 'en_pausa' }, after: { lote: id, estado: 'en_curso' } },
    ]);
  });

  it('lets only an administrator cancel: the cancelled job\'s rows that did not run are never charged', async () => {
    const id = await submit(broke, knownNits.slice(8, 12));
    await untilState(id, broke, 'en_pausa_sin_saldo');

    expect(says(await act(support, id, 'cancelJobAction'), ACTION_MESSAGES.forbidden)).toBe(true);
    expect((await apiJob(id, broke)).estado).toBe('en_pausa_sin_saldo');
    expect(says(await act(admin, id, 'cancelJobAction'), 'Lote cancelado')).toBe(true);
    expect(says(await act(admin, id, 'cancelJobAction'), 'Ese lote ya terminó')).toBe(true);
    expect(await auditRows('bulk_job.cancel')).toEqual([
      { actor: `user:${adminAccount.id} ${adminAccount.email}`, target_id: String(broke.id), before: { lote: id, estado: 'en_pausa_sin_saldo' }, after: { lote: id, estado: 'cancelado' } },
    ]);

    // Money arrives: a later job runs, the cancelled one stays as it was, uncharged.
    await gateway.withDatabase(() => adjustBalance(TEST_ACTOR, broke.id, 10 * TARIFF, 'recarga tras cancelar'));
    const later = await submit(broke, [knownNits[0]!]);
    await untilState(later, broke, 'completado');
    expect(await apiJob(id, broke)).toMatchObject({ estado: 'cancelado', monto_cobrado: '0.00', conteos: { pendientes: 4, encontrados: 0 } });
    const page = await pageText(admin, `/admin/lotes/${id}`);
    expect(page.text.match(/No corrió \(lote cancelado\)/g)).toHaveLength(4);
    expect(page.text).not.toContain('Cancelar el lote');
    const { money, verification } = await gateway.withDatabase(async (handle) => ({
      money: await readMoney(handle, broke.id),
      verification: await verifyLedger({ trigger: 'cli', sweepAfterSeconds: 60 }),
    }));
    // Only the later job's one found item was charged.
    expect(money.balanceCentavos).toBe(10 * TARIFF - TARIFF);
    expect(verification.ok).toBe(true);
  });

  it('counts a row the source refused apart from the set-aside ones, and says in words why', async () => {
    // The RTU of a person whose record the source holds no copy of asks for a date of birth: refused.
    const id = await submit(busy, [knownNits[9]!, gateway.sample.withoutHeldCopy.nit!, 'no-es-nit']);
    await untilState(id, busy, 'completado');
    const detail = await pageText(support, `/admin/lotes/${id}`);
    expect(detail.text).toContain('Apartados sin costo 1 (0 repetidos)');
    expect(detail.text).toContain('Rechazados por la fuente, sin costo 1');
    expect(detail.text).toContain('Rechazado por la fuente La fuente no aceptó el identificador (por ejemplo, el RTU de esa persona pide su fecha de nacimiento); sin costo');
    expect(detail.text).toContain('Apartado NIT inválido');
    // The jobs list too: found / not found / set aside / refused by the source / failed.
    const list = await pageText(support, '/admin/lotes');
    expect(list.text).toMatch(new RegExp(`${id} \\S+ Catálogo RTU [\\d/, :]+ 3 Completado 3/3 1 / 0 / 1 / 1 / 0 Q`));
  });

  it('opens an unknown job as the console\'s not-found page, and sends the signed out to sign in', async () => {
    const unknown = await admin.request('/admin/lotes/lote_00000000000000000000');
    expect(unknown.status).toBe(404);
    const signedOut = await fetch(`${gateway.app.baseUrl}/admin/lotes`, { redirect: 'manual' });
    await signedOut.text();
    expect(signedOut.status).toBe(307);
    expect(signedOut.headers.get('location')).toContain('/admin/login');
  });
});
