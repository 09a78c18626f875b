// Personal data in the console, over HTTP against the built app: no console user's pages and CSV
// hold a NIT or CUI in any spelling (administrators included, issue 30 point 5), "Mostrar" reveals
// one record's with a reason and logs it, an administrator's full exports (with a reason) and
// "¿Quién consultó este CUI o NIT?" reports are logged, a searched identifier never travels in an
// address, and support cannot reach what is only an administrator's. Issue 34's surfaces too: the
// portal's and the console's Recargas, the integration's "Actividad del portal", the audit list,
// and the e-mails and webhook events of top-ups and token and allow-list changes, after the
// integrator's own people revealed and searched the same identifiers in the portal.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database, db } from '@/db/client';
import { topUpRequests } from '@/db/schema';
import { ACTION_MESSAGES } from '@/lib/flows/auth/action';
import { registerBillingProfile } from '../support/billing-profile';
import { createIntegration, setPurpose } from '@/lib/flows/integration-management/service';
import { SUBJECT_REPORT_LIMITS } from '@/lib/surfaces/console/subject-report';
import { pdfTextLines } from '../support/pdf-text';
import { listLatestRecords } from '@/lib/core/records/list';
import { recordUnbilledQuery } from '@/lib/core/records/write';
import { createConsoleUser } from '@/lib/flows/auth/users';
import { allSettings as env } from '@/lib/root/settings';
import { IntegratorNotifier } from '@/lib/reactions/integrator-notifications/notifier';
import { notificationSettingsFrom } from '@/lib/reactions/integrator-notifications/settings';
import { noteWatchListChanges } from '@/lib/reactions/integrator-notifications/watch-lists';
import { createWatchList, pauseWatchList } from '@/lib/flows/watch-lists';
import { maskNit } from '@/lib/core/sealing/masking';
import { seal } from '@/lib/core/sealing/envelope';
import { monthPeriod } from '@/lib/flows/statements/figures';
import { previousMonth } from '@/lib/flows/statements/monthly';
import { runningMonthRange } from '@/lib/flows/statements/preview';
import { PREVIEW_MARK, PREVIEW_RANGE_MESSAGES } from '@/lib/flows/statements/texts';
import { issueStatement } from '@/lib/flows/statements/statements';
import { startApp, type RunningApp } from '../support/app-server';
import { ConsoleClient } from '../support/console-client';
import { depositDaysAgo } from '../support/deposit-dates';
import { addPortalMember, portalSignedIn } from '../support/people';
import type { PortalClient } from '../support/portal-client';
import { slipPng } from '../support/slip-png';
import { mimePart, startSmtpReceiver, type SmtpReceiver } from '../support/smtp-receiver';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

// Not the examples the search box shows as its placeholder (576937-K, 2415 75181 0101).
const NIT = '4829113-7';
const CUI = '2976154320101';
const BATCH_NIT = '7108-0';
const PURPOSE = 'Verificar la identidad de clientes al abrir una cuenta de crédito.';

/** Every writing of the three identifiers a page or a file could hold. */
const SPELLINGS = [
  NIT, '48291137', '4829113',
  CUI, '2976 15432 0101', '2976-15432-0101', '297615432',
  BATCH_NIT, '71080',
];

let testDatabase: TestDatabase;
let app: RunningApp;
let admin: ConsoleClient;
let support: ConsoleClient;
let supportId: number;
const records: Record<'single' | 'batch' | 'other', number> = { single: 0, batch: 0, other: 0 };
let acmeId = 0;
let acmeToken = '';
let smtp: SmtpReceiver;
let receiver: WebhookReceiver;
/** The webhook's signing secret, as the portal shows it once. */
let webhookSecret = 'todavía-ninguno';

async function newUser(email: string, role: 'admin' | 'support') {
  const created = await createConsoleUser({ kind: 'system', name: 'test' }, { email, name: email.split('@')[0]!, role, mustChangePassword: false });
  if (!created.ok) throw new Error(created.error.message);
  return { id: created.value.user.id, email, password: created.value.password };
}

function fullIdentifiersIn(text: string): string[] {
  return SPELLINGS.filter((spelling) => text.toUpperCase().includes(spelling.toUpperCase()));
}

async function page(client: ConsoleClient, path: string): Promise<string> {
  const answer = await client.request(path);
  expect(answer.status, path).toBe(200);
  return answer.text;
}

/** The access log as an administrator reads it: the rows of one filtered page. */
async function accessRows(query: string): Promise<string[]> {
  const html = await page(admin, `/admin/datos-personales?${query}`);
  return [...html.matchAll(/<tr data-testid="access-\d+">(.*?)<\/tr>/g)].map((match) => match[1]!.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' '));
}

/** Where a page sent the user: a 307 before the page streamed, or the redirect written into the stream after a loading skeleton. */
function redirectTarget(answer: { status: number; headers: Headers; text: string }): string | null {
  if (answer.status === 307) return answer.headers.get('location');
  return /http-equiv="refresh" content="\d+;url=([^"]+)"/.exec(answer.text)?.[1] ?? null;
}

/** A console form posted as a browser posts it (url-encoded, from the console's own origin). */
function postForm(client: ConsoleClient, path: string, fields: Record<string, string>, origin = app.baseUrl) {
  return client.request(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin }, body: new URLSearchParams(fields).toString() });
}

/** A search posted to a page's ./buscar route: the address it sends the browser to. */
async function searchAddress(client: ConsoleClient, path: string, fields: Record<string, string>): Promise<string> {
  const answer = await postForm(client, path, fields);
  expect(answer.status, path).toBe(303);
  return answer.headers.get('location')!;
}

function says(answer: { text: string }, text: string): boolean {
  return answer.text.includes(JSON.stringify(text).slice(1, -1));
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  const adminUser = await newUser('jefa@example.com', 'admin');
  const supportUser = await newUser('soporte@example.com', 'support');
  supportId = supportUser.id;
  const system = { kind: 'system', name: 'test' } as const;
  const acme = await createIntegration(system, { nombre: 'acme' });
  const beta = await createIntegration(system, { nombre: 'beta' });
  if (!acme.ok || !beta.ok) throw new Error('integrations not created');
  acmeId = acme.value.integration.id;
  acmeToken = acme.value.token;
  expect((await setPurpose(system, acmeId, PURPOSE)).ok).toBe(true);
  // The report names an integration by its legal name and NIT; beta never registered them.
  await registerBillingProfile(system, acmeId, { nit: '576937-K', name: 'Acme Créditos, S.A.' });
  const base = { responseTimeMs: 12, errorMessage: null };
  await recordUnbilledQuery({ ...base, integrationId: acmeId, lookup: 'renap', httpStatus: 404, nit: NIT, cui: CUI, requestId: 'pd-single', errorMessage: `CUI ${CUI} not found (NIT 48291137)` });
  await recordUnbilledQuery({ ...base, integrationId: acmeId, lookup: 'rtu_nits', httpStatus: 200, nit: `${BATCH_NIT},48291137`, cui: null, identifiers: [BATCH_NIT, '48291137'], requestId: 'pd-batch' });
  await recordUnbilledQuery({ ...base, integrationId: beta.value.integration.id, lookup: 'renap', httpStatus: 200, nit: null, cui: CUI, requestId: 'pd-other' });
  const [batch, single] = await listLatestRecords({ integracion: acmeId }, 10);
  records.single = single!.id;
  records.batch = batch!.id;
  records.other = (await listLatestRecords({ integracion: beta.value.integration.id }, 1))[0]!.id;
  smtp = await startSmtpReceiver();
  receiver = await startWebhookReceiver(() => webhookSecret);
  app = await startApp({
    env: {
      TRUSTED_PROXY_HOPS: '1',
      RATE_LIMIT_SIGN_IN_PER_MINUTE: '100',
      // The integrator's notices go to these receivers (a webhook on 127.0.0.1: development only).
      ALERT_SMTP_HOST: '127.0.0.1',
      ALERT_SMTP_PORT: String(smtp.port),
      ALERT_EMAIL_FROM: 'avisos@pasarela.example',
      ALERT_RETRY_BASE_MS: '50',
      INTEGRATOR_WEBHOOK_ALLOW_LOCAL_TARGETS: 'true',
    },
  });
  admin = new ConsoleClient(app.baseUrl, { 'x-forwarded-for': '198.51.100.20' });
  support = new ConsoleClient(app.baseUrl, { 'x-forwarded-for': '198.51.100.21' });
  expect(await admin.signIn(adminUser.email, adminUser.password)).toBeNull();
  expect(await support.signIn(supportUser.email, supportUser.password)).toBeNull();
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await app?.stop();
  await receiver?.close();
  await smtp?.close();
  await testDatabase?.cleanup();
});

describe('personal data in the console', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it.each(['support', 'admin'] as const)("shows %s no full identifier in the records list, a record's page, the dashboard, the integration page or the CSV", async (role) => {
    const client = role === 'admin' ? admin : support;
    const list = await page(client, '/admin/registros');
    expect(list).toContain('4829•••-7');
    expect(list).toContain('2976 •••• 0101');
    // The batch's NITs in order, each masked, as the list reads ("71••-0, 4829•••-7").
    expect(list.replace(/<!--.*?-->/g, '').replace(/<[^>]+>/g, '')).toContain('71••-0, 4829•••-7');
    const pages = {
      list,
      detail: await page(client, `/admin/registros/${records.single}`),
      batch: await page(client, `/admin/registros/${records.batch}`),
      dashboard: await page(client, '/admin'),
      integration: await page(client, `/admin/integraciones/${acmeId}`),
      // Its latest queries are in its usage section.
      integrationUsage: await page(client, `/admin/integraciones/${acmeId}/uso`),
    };
    expect(pages.detail).toContain('Mostrar');
    for (const [name, html] of Object.entries(pages)) expect(fullIdentifiersIn(html), name).toEqual([]);
    const csv = await client.request('/admin/registros/exportar');
    expect(csv.status).toBe(200);
    expect(csv.text.split('\r\n').filter(Boolean)).toHaveLength(4);
    expect(csv.text).toContain('4829•••-7,2976 •••• 0101');
    expect(fullIdentifiersIn(csv.text)).toEqual([]);
    // A link asking for them in full is refused, whoever follows it.
    const full = await client.request('/admin/registros/exportar?identificadores=completos');
    expect(full.status).toBe(400);
    expect(fullIdentifiersIn(full.text)).toEqual([]);
    // Opening records and lists in masked form logs nothing (an administrator's view was logged when it showed them in full).
    expect(await accessRows('tipo=view')).toEqual([]);
  });

  it('keeps a searched NIT or CUI out of every address: the form is posted and the list opens with a reference only its user can use', async () => {
    const location = await searchAddress(support, '/admin/registros/buscar', { identificador: '4829113-7', integracion: '', consulta: 'renap' });
    expect(location).toMatch(/^\/admin\/registros\?consulta=renap&busqueda=bq_[A-Za-z0-9_-]{22}$/);
    expect(fullIdentifiersIn(location)).toEqual([]);
    const found = await page(support, location);
    expect(found).toContain(`/admin/registros/${records.single}`);
    expect(found).not.toContain(`/admin/registros/${records.other}`);
    // Its pages, its export and the way back from a record carry the reference, never the
    // identifier (which the page holds only as the search box's value, as its user typed it).
    const links = [...found.matchAll(/(?:href|action)="([^"]*)"/g)].map((match) => match[1]!);
    expect(links.some((link) => link.includes('busqueda=bq_'))).toBe(true);
    expect(fullIdentifiersIn(links.join('\n'))).toEqual([]);
    expect(found).toMatch(/<input[^>]*id="identificador"[^>]*value="4829113-7"/);
    const reference = new URL(location, app.baseUrl).searchParams.get('busqueda')!;
    // The export by the reference alone: the NIT's query and the batch that contains it.
    const csv = await support.request(`/admin/registros/exportar?busqueda=${reference}`);
    expect(csv.text.split('\r\n').filter(Boolean)).toHaveLength(3);
    // Another user's reference opens nothing: the page says the search is not available.
    const foreign = await page(admin, location);
    expect(foreign).toContain('La búsqueda de esta dirección ya no está disponible');
    expect(foreign).not.toContain(`/admin/registros/${records.single}`);
    expect((await admin.request(`/admin/registros/exportar?busqueda=${reference}`)).status).toBe(400);
    // An old link that still carries the identifier is turned into a reference at once.
    const old = await support.request(`/admin/registros?identificador=${encodeURIComponent('2976 15432 0101')}`);
    expect(old.status).toBe(303);
    expect(old.headers.get('location')).toMatch(/^\/admin\/registros\?busqueda=bq_/);
    // A request id typed in the box still opens its record; a form from another site is refused.
    expect((await postForm(support, '/admin/registros/buscar', { identificador: 'req_0000000000deadbeef00' })).headers.get('location')).toBe('/admin/registros/solicitud?solicitud=req_0000000000deadbeef00');
    expect((await postForm(support, '/admin/registros/buscar', { identificador: NIT }, 'https://evil.example')).status).toBe(403);
    // Under no-referrer a browser posts a navigation form with "Origin: null": Sec-Fetch-Site tells this site's from another's.
    const nullOrigin = (site: string) =>
      support.request('/admin/registros/buscar', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'null', 'sec-fetch-site': site },
        body: new URLSearchParams({ identificador: NIT }).toString(),
      });
    expect((await nullOrigin('same-origin')).status).toBe(303);
    expect((await nullOrigin('cross-site')).status).toBe(403);
  });

  it('reveals one record to support with a reason, and writes exactly one access entry', async () => {
    const path = `/admin/registros/${records.single}`;
    const withoutReason = await support.serverAction(path, 'revealRecordIdentifiersAction', { recordId: records.single, motivo: ' ' });
    expect(fullIdentifiersIn(withoutReason.text)).toEqual([]);
    expect(await accessRows(`consulta=${records.single}&tipo=reveal`)).toEqual([]);

    const revealed = await support.serverAction(path, 'revealRecordIdentifiersAction', { recordId: records.single, motivo: 'Ticket 4821' });
    expect(revealed.status).toBe(200);
    expect(revealed.text).toContain(NIT);
    expect(revealed.text).toContain(CUI);
    const entries = await accessRows(`consulta=${records.single}&tipo=reveal`);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toContain('soporte@example.com');
    expect(entries[0]).toContain('Ticket 4821');
    expect(entries[0]).toContain('Mostró los identificadores');
    // Filtered by user, the same entry; by another record, none.
    expect(await accessRows(`quien=${supportId}&tipo=reveal`)).toHaveLength(1);
    expect(await accessRows(`consulta=${records.other}&tipo=reveal`)).toEqual([]);
  });

  it('reveals a record to an administrator only with a reason too, logged the same way', async () => {
    const path = `/admin/registros/${records.other}`;
    const detail = await page(admin, path);
    expect(fullIdentifiersIn(detail)).toEqual([]);
    const revealed = await admin.serverAction(path, 'revealRecordIdentifiersAction', { recordId: records.other, motivo: 'Ticket 5000' });
    expect(revealed.text).toContain(CUI);
    const entries = await accessRows(`consulta=${records.other}&tipo=reveal`);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toContain('jefa@example.com');
    expect(entries[0]).toContain('Ticket 5000');
  });

  it("masks an administrator's export by default, and exports in full only with a reason, logged with its range and row count", async () => {
    const masked = await admin.request('/admin/registros/exportar');
    expect(fullIdentifiersIn(masked.text)).toEqual([]);
    expect(await accessRows('tipo=export')).toEqual([]);
    // One click on a link no longer does it.
    const byLink = await admin.request('/admin/registros/exportar?identificadores=completos');
    expect(byLink.status).toBe(400);
    expect(fullIdentifiersIn(byLink.text)).toEqual([]);

    const today = new Date(Date.now() - 6 * 3_600_000).toISOString().slice(0, 10);
    const filters = { integracion: String(acmeId), desde: '2020-01-01', hasta: today };
    const withoutReason = await postForm(admin, '/admin/registros/exportar', { ...filters, motivo: '  ' });
    expect(withoutReason.status).toBe(400);
    expect(withoutReason.text).toContain('Escriba el motivo o el número de ticket');
    expect(fullIdentifiersIn(withoutReason.text)).toEqual([]);
    expect(await accessRows('tipo=export')).toEqual([]);
    const full = await postForm(admin, '/admin/registros/exportar', { ...filters, motivo: 'Auditoría SAT, oficio 12-2026' });
    expect(full.status).toBe(200);
    expect(full.headers.get('content-disposition')).toContain('identificadores-completos');
    expect(full.text).toContain(`${NIT},${CUI}`);
    expect(full.text).toContain(`"${BATCH_NIT},48291137"`);
    // The row count is written once the file has been sent: poll for it.
    await expect
      .poll(async () => (await accessRows('tipo=export'))[0] ?? '', { timeout: 10_000 })
      .toContain('2 filas');
    const [entry] = await accessRows('tipo=export');
    expect(entry).toContain(`Rango: 2020-01-01 a ${today}`);
    expect(entry).toContain(`integracion ${acmeId}`);
    expect(entry).toContain('Auditoría SAT, oficio 12-2026');
    // Support cannot, reason or not.
    const bySupport = await postForm(support, '/admin/registros/exportar', { ...filters, motivo: 'Ticket 1' });
    expect(bySupport.status).toBe(403);
    expect(fullIdentifiersIn(bySupport.text)).toEqual([]);
  });

  it('answers "¿Quién consultó este CUI o NIT?" with the integrations that looked it up, by legal name and NIT, as CSV and PDF, each logged with the request\'s reference', async () => {
    const report = async (identifier: string) => {
      const location = await searchAddress(admin, '/admin/datos-personales/quien-consulto/buscar', { identificador: identifier, referencia: 'Ticket 9001' });
      expect(location).toMatch(/^\/admin\/datos-personales\/quien-consulto\?referencia=Ticket\+9001&busqueda=bq_[A-Za-z0-9_-]{22}$/);
      return `busqueda=${new URL(location, app.baseUrl).searchParams.get('busqueda')!}&referencia=Ticket+9001`;
    };
    const csv = await admin.request(`/admin/datos-personales/quien-consulto/csv?${await report('48291137')}`);
    expect(csv.status).toBe(200);
    const lines = csv.text.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('fecha_utc,fecha_guatemala,integracion,razon_social,nit_integrador,finalidad_declarada,consulta,buscada_por,estado_http,resultado');
    // The NIT alone and inside the batch, both by acme; beta only looked the CUI up.
    expect(lines.slice(1)).toHaveLength(2);
    for (const line of lines.slice(1)) expect(line).toContain(`acme,"Acme Créditos, S.A.",576937-K,${PURPOSE}`);
    expect(csv.text).toContain('RTU por NIT');

    const byCui = await admin.request(`/admin/datos-personales/quien-consulto/csv?${await report('2976 15432 0101')}`);
    expect(byCui.text).toContain(',acme,');
    expect(byCui.text).toContain(',beta,no registrada,no registrado,');

    const byNit = await report('4829113-7');
    const pdf = await admin.request(`/admin/datos-personales/quien-consulto/pdf?${byNit}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const pdfText = pdfTextLines(Buffer.from(await admin.requestBytes(`/admin/datos-personales/quien-consulto/pdf?${byNit}`))).join(' ').replace(/\s+/g, ' ');
    expect(pdfText).toContain('Referencia de la solicitud: Ticket 9001');
    expect(pdfText).toContain('Acme Créditos, S.A. (NIT 576937-K; integración acme)');
    expect(pdfText).toContain('No puede incluir las consultas hechas con un identificador que ninguna respuesta relacionó con este');
    // No answer here gave a NIT and a CUI together (tests/personal-data/identifier-links.test.ts does).
    expect(pdfText).toContain('Ninguna respuesta de las fuentes relacionó este identificador con otro de la misma persona.');

    // Without the request's reference there is no report, and nothing is logged.
    const withoutReference = await admin.request(`/admin/datos-personales/quien-consulto/csv?${byNit.replace('&referencia=Ticket+9001', '')}`);
    expect(withoutReference.status).toBe(400);
    expect(withoutReference.text).toContain('Escriba la referencia de la solicitud');

    const onScreen = await page(admin, `/admin/datos-personales/quien-consulto?${byNit}`);
    expect(onScreen).toContain(PURPOSE);
    expect(onScreen).toContain('Acme Créditos, S.A. (NIT 576937-K; integración acme)');
    expect(onScreen).toContain(SUBJECT_REPORT_LIMITS);
    // The downloads' links carry the reference, not the identifier.
    expect(onScreen).toContain(`quien-consulto/csv?${byNit.replace('&', '&amp;')}`);
    expect(onScreen).not.toContain('identificador=');

    const reports = await accessRows('tipo=subject_report');
    expect(reports).toHaveLength(5);
    expect(reports.every((entry) => entry.includes('Ticket 9001'))).toBe(true);
    expect(reports.join(' ')).toContain('Identificador 4829•••-7, CSV, 2 consultas');
    expect(reports.join(' ')).toContain('Identificador 2976 •••• 0101, CSV, 2 consultas');
    expect(reports.join(' ')).toContain('Identificador 4829•••-7, PDF');
    expect(reports.join(' ')).toContain('Identificador 4829•••-7, en pantalla');
  });

  it("refuses support everything that is an administrator's, on the server", async () => {
    for (const path of ['/admin/datos-personales', '/admin/datos-personales/quien-consulto']) {
      const answer = await support.request(path);
      expect(redirectTarget(answer), path).toBe('/admin/sin-permiso');
      // No entry of the log and no report (the page may echo the identifier the user typed in the address).
      expect(answer.text, path).not.toContain('data-testid="access-');
      expect(answer.text, path).not.toContain('data-testid="subject-report');
    }
    for (const format of ['csv', 'pdf']) {
      const answer = await support.request(`/admin/datos-personales/quien-consulto/${format}?busqueda=bq_0123456789abcdefghijkl`);
      expect(answer.status, format).toBe(403);
      expect(fullIdentifiersIn(answer.text)).toEqual([]);
    }
    const purpose = await support.serverAction(`/admin/integraciones/${acmeId}/datos`, 'setPurposeAction', { integrationId: acmeId, finalidad: 'Cualquier cosa que soporte quiera.' });
    expect(says(purpose, ACTION_MESSAGES.forbidden)).toBe(true);
    // The same call works for an administrator, and is audited.
    const byAdmin = await admin.serverAction(`/admin/integraciones/${acmeId}/datos`, 'setPurposeAction', { integrationId: acmeId, finalidad: `${PURPOSE} Y cobranza.` });
    expect(says(byAdmin, 'Finalidad declarada guardada.')).toBe(true);
    expect(await page(admin, `/admin/auditoria?tipo=integration&id=${acmeId}`)).toContain('Cambió la finalidad declarada');
    expect(await page(support, `/admin/integraciones/${acmeId}/datos`)).toContain(`${PURPOSE} Y cobranza.`);
  });

  it('keeps no identifier in clear in the access log, nor behind the searches\' references', async () => {
    const [stored, searches] = await app.withDatabase(async () => [
      await (await database()).rows<{ entry: string }>(sql`select concat_ws(' ', reason, details::text) as entry from personal_data_access`),
      await (await database()).rows<{ entry: string }>(sql`select concat_ws(' ', reference, identifier_sealed) as entry from identifier_searches`),
    ]);
    expect(searches.length).toBeGreaterThanOrEqual(6);
    expect(fullIdentifiersIn(searches.map((row) => row.entry).join('\n'))).toEqual([]);
    // Two reveals (support's and the administrator's), one full export and five reports.
    expect(stored).toHaveLength(8);
    expect(fullIdentifiersIn(stored.map((row) => row.entry).join('\n'))).toEqual([]);
  });
});

// Issue 24, defect 13: support could not see statements at all. It reads the PDF (figures, no
// identifiers); the CSV of charged queries (identifiers in full) stays an administrator's.
describe('monthly statements', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('support reads the PDF, numbered for its integration, and not the CSV of charged queries', async () => {
    const month = previousMonth();
    const integrationId = await app.withDatabase(async () => {
      const created = await createIntegration({ kind: 'system', name: 'test' }, { nombre: 'gamma-estados' });
      if (!created.ok) throw new Error(created.error.message);
      const id = created.value.integration.id;
      await (await database()).rows(sql`update integrations set created_at = ${monthPeriod(month).from.toISOString()}::timestamptz - interval '1 day' where id = ${id}::integer`);
      const issued = await issueStatement({ kind: 'system', name: 'test' }, id, month);
      if (!issued.ok) throw new Error(issued.error.message);
      return id;
    });
    const pageHtml = await page(support, `/admin/integraciones/${integrationId}/saldo`);
    // The tab names the section and the integration (issue 24, defect 15: every integration's tab said "Integración").
    expect(/<title>([^<]*)<\/title>/.exec(pageHtml)?.[1]).toMatch(/^Saldo y estados de cuenta · Integración gamma-estados\b/);
    expect(pageHtml).toContain('Estados de cuenta');
    expect(pageHtml).not.toContain('Emitir estado de cuenta');
    expect(pageHtml).not.toContain(`/estados/${month}/csv`);
    // The issued statement is listed for support, with its PDF.
    expect(pageHtml).toContain(`/admin/integraciones/${integrationId}/estados/${month}/pdf`);
    const pdf = await support.request(`/admin/integraciones/${integrationId}/estados/${month}/pdf`);
    expect({ status: pdf.status, type: pdf.headers.get('content-type') }).toEqual({ status: 200, type: 'application/pdf' });
    expect((await support.request(`/admin/integraciones/${integrationId}/estados/${month}/csv`)).status).toBe(403);
    const csv = await admin.request(`/admin/integraciones/${integrationId}/estados/${month}/csv`);
    expect(csv.status).toBe(200);
  });

  // Issue 32, point 7: the preview is figures only, like the PDF: support reads it too, behind the
  // same checks. Its PDF is posted with its days, which stay out of the address.
  it('support reads the preview as a page and as a PDF posted with its days; signed out or from another site, nothing', async () => {
    const integrationId = await app.withDatabase(async () => {
      const created = await createIntegration({ kind: 'system', name: 'test' }, { nombre: 'delta-vista-previa' });
      if (!created.ok) throw new Error(created.error.message);
      return created.value.integration.id;
    });
    const path = `/admin/integraciones/${integrationId}/estados/vista-previa`;
    expect(await page(support, `/admin/integraciones/${integrationId}/saldo`)).toContain(`href="${path}"`);
    const html = await page(support, path);
    expect(html).toContain(PREVIEW_MARK);
    expect(html).not.toMatch(/n\.º/);
    const days = runningMonthRange();
    const pdf = await postForm(support, `${path}/pdf`, { ...days });
    expect({ status: pdf.status, type: pdf.headers.get('content-type'), start: pdf.text.slice(0, 5) }).toEqual({ status: 200, type: 'application/pdf', start: '%PDF-' });
    expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="vista-previa-estado-de-cuenta-delta-vista-previa-${days.desde}-a-${days.hasta}.pdf"`);

    const refused = await postForm(support, `${path}/pdf`, { desde: days.hasta, hasta: '2001-01-01' });
    expect({ status: refused.status, text: refused.text }).toEqual({ status: 400, text: `${PREVIEW_RANGE_MESSAGES.reversed} Vuelva a la vista previa y elija otras fechas.` });
    expect((await page(support, `${path}?desde=${days.hasta}&hasta=2001-01-01`))).toContain(PREVIEW_RANGE_MESSAGES.reversed);
    expect((await postForm(new ConsoleClient(app.baseUrl), `${path}/pdf`, { ...days })).status).toBe(401);
    expect((await postForm(support, `${path}/pdf`, { ...days }, 'https://evil.example')).status).toBe(403);
    expect((await postForm(support, '/admin/integraciones/999999/estados/vista-previa/pdf', { ...days })).status).toBe(404);
  });
});

// Issue 34's surfaces, after the integration's own people looked at the same taxpayers in the
// portal (a NIT and CUI revealed with a reason, a NIT searched) and used its self-service: a token
// created and revoked, the allow-list changed, contacts and a webhook set, two deposits reported,
// one approved and one rejected in the console. No page of the portal's or the console's Recargas,
// the integration's "Actividad del portal", the audit list, nor any notice sent (e-mail or webhook)
// holds a full NIT or CUI, for any role that reads it.
describe("issue 34's portal self-service", { timeout: PROCESS_TEST_TIMEOUT_MS * 2 }, () => {
  const people = { owner: 'duena@acme.example', developer: 'dev@acme.example', billing: 'pagos@acme.example' } as const;
  const contacts = { technical: 'tecnica@acme.example', billing: 'cobros@acme.example' } as const;

  /** A server action's return value: the flight's line `1:…`. */
  function answerOf(flight: { text: string }): { ok: boolean; message?: string; data?: Record<string, string> } {
    const line = flight.text.split('\n').find((candidate) => candidate.startsWith('1:'));
    if (!line) throw new Error(`no action answer in ${flight.text.slice(0, 300)}`);
    return JSON.parse(line.slice(2)) as { ok: boolean; message?: string; data?: Record<string, string> };
  }

  async function done(flight: Promise<{ text: string }>): Promise<Record<string, string> | undefined> {
    const answer = answerOf(await flight);
    expect(answer.ok, answer.message).toBe(true);
    expect(fullIdentifiersIn(answer.message ?? '')).toEqual([]);
    return answer.data;
  }

  it('keeps every full NIT and CUI out of Recargas, Actividad del portal, the audit list and the notices, for each role that reads them', async () => {
    const acme = { id: acmeId, nombre: 'acme', token: acmeToken };
    await addPortalMember(acme, people.owner, 'propietario');
    await addPortalMember(acme, people.developer, 'desarrollador');
    await addPortalMember(acme, people.billing, 'facturacion');
    const portal: Record<keyof typeof people, PortalClient> = {
      owner: await portalSignedIn(app.baseUrl, people.owner),
      developer: await portalSignedIn(app.baseUrl, people.developer),
      billing: await portalSignedIn(app.baseUrl, people.billing),
    };

    // The integrator's people look the taxpayers up in Consultas: a reveal (which answers them in full) and a search.
    await app.withDatabase(() =>
      recordUnbilledQuery({ integrationId: acmeId, lookup: 'renap', httpStatus: 200, nit: NIT, cui: CUI, requestId: 'req_pd_portal_reveal', responseTimeMs: 12, errorMessage: null }),
    );
    const revealed = answerOf(await portal.owner.serverAction('/portal/consultas', 'revealPortalRecordAction', { solicitud: 'req_pd_portal_reveal', motivo: 'Reclamo 3310 del cliente' }));
    expect(revealed.data).toEqual({ nit: NIT, cui: CUI });
    const searched = await portal.developer.request('/portal/consultas/buscar', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.baseUrl },
      body: new URLSearchParams({ identificador: NIT }).toString(),
    });
    expect(searched.status).toBe(303);
    expect(fullIdentifiersIn(searched.headers.get('location') ?? '')).toEqual([]);

    // Self-service: contacts and a webhook, a token created and revoked, the allow-list changed.
    await done(portal.owner.serverAction('/portal/notificaciones', 'setPortalContactsAction', { technicalContactEmail: contacts.technical, billingContactEmail: contacts.billing }));
    webhookSecret = (await done(portal.owner.serverAction('/portal/notificaciones', 'setPortalWebhookAction', { url: receiver.url })))!.secret!;
    const created = await done(portal.developer.serverAction('/portal/credenciales', 'createPortalTokenAction', { etiqueta: 'Servidor de respaldo', vence: '' }));
    const credentials = (await portal.developer.request('/portal/credenciales')).text;
    const revokeChoice = /<select[^>]*data-testid="revoke-token-choice"[^>]*>([\s\S]*?)<\/select>/.exec(credentials)?.[1] ?? '';
    const newTokenId = [...revokeChoice.matchAll(/<option value="(\d+)"[^>]*>([^<]*)<\/option>/g)].find((option) => {
      const prefix = (option[2]!.split(' · ').find((part) => part.startsWith('tlk_')) ?? '').replace(/…$/, '');
      return prefix.length > 0 && created!.token!.startsWith(prefix);
    })?.[1];
    expect(newTokenId).toBeDefined();
    await done(portal.developer.serverAction('/portal/credenciales', 'revokePortalTokenAction', { tokenId: Number(newTokenId) }));
    await done(portal.developer.serverAction('/portal/credenciales', 'setPortalAllowListAction', { direcciones: '203.0.113.0/24', fueraDeLista: 'si' }));

    // Two deposits reported with a slip; an administrator approves one and rejects the other.
    for (const referencia of ['ACME-5510', 'ACME-5511']) {
      await done(
        portal.billing.serverActionWithFiles(
          '/portal/recargas',
          'reportTopUpAction',
          { banco: 'BI', referencia, fecha: depositDaysAgo(7), monto: '300.00', envio: crypto.randomUUID() },
          { boleta: new Blob([new Uint8Array(slipPng())], { type: 'image/png' }) },
        ),
      );
    }
    const requests = await app.withDatabase(async () => (await db()).select().from(topUpRequests).where(eq(topUpRequests.integrationId, acmeId)).orderBy(topUpRequests.id));
    expect(requests.map((request) => request.reference)).toEqual(['ACME-5510', 'ACME-5511']);
    const consoleRecargas = { admin: await page(admin, '/admin/recargas'), support: await page(support, '/admin/recargas') };
    expect(consoleRecargas.support).toContain('ACME-5510');
    await done(admin.serverAction('/admin/recargas', 'approveTopUpRequestAction', { solicitud: String(requests[0]!.id), envio: crypto.randomUUID() }));
    await done(admin.serverAction('/admin/recargas', 'rejectTopUpRequestAction', { solicitud: String(requests[1]!.id), motivo: 'No aparece en el estado de cuenta del banco.', envio: crypto.randomUUID() }));

    // Every notice of those changes has arrived, by e-mail to its contact and on the webhook.
    const kinds = ['token_creado', 'token_revocado', 'lista_ip_cambiada', 'recarga_acreditada', 'recarga_rechazada'];
    await expect.poll(() => kinds.filter((kind) => !receiver.received.some((event) => event.body.tipo === kind)), { timeout: 30_000 }).toEqual([]);
    await expect.poll(() => ({ technical: smtp.to(contacts.technical).length >= 3, billing: smtp.to(contacts.billing).length >= 2 }), { timeout: 30_000 }).toEqual({ technical: true, billing: true });
    expect(receiver.received.every((event) => event.signed)).toBe(true);

    const pages: Record<string, string> = {
      'portal Recargas (owner)': await page(portal.owner, '/portal/recargas'),
      'portal Recargas (billing)': await page(portal.billing, '/portal/recargas'),
      'console Recargas before the decisions (admin)': consoleRecargas.admin,
      'console Recargas before the decisions (support)': consoleRecargas.support,
      'console Recargas (admin)': await page(admin, '/admin/recargas'),
      'console Recargas (support)': await page(support, '/admin/recargas'),
      'Actividad del portal (admin)': await page(admin, `/admin/integraciones/${acmeId}/portal`),
      'Actividad del portal (support)': await page(support, `/admin/integraciones/${acmeId}/portal`),
      'audit list (admin)': await page(admin, '/admin/auditoria'),
      "audit list of the portal's activity (admin)": await page(admin, `/admin/auditoria?tipo=integration&id=${acmeId}&quien=integrator`),
      // Each e-mail as its reader reads it: the subject and the decoded text and HTML.
      'e-mails': smtp.mails
        .map((mail) => [mail.subject, ...['text/plain', 'text/html'].map((type) => mimePart(mail.raw, type)?.body.toString('utf8') ?? '')].join('\n'))
        .join('\n'),
      'webhook events': receiver.received.map((event) => event.rawBody).join('\n'),
    };
    // What each shows is there: the deposits and their decisions, the portal's changes, the notices.
    expect(pages['portal Recargas (billing)']).toContain('Acreditada');
    expect(pages['portal Recargas (owner)']).toContain('No aparece en el estado de cuenta del banco.');
    expect(pages['console Recargas before the decisions (admin)']).toContain('ACME-5511');
    for (const name of ['Actividad del portal (admin)', 'Actividad del portal (support)']) {
      for (const change of ['Creó un token', 'Revocó un token', 'Cambió las direcciones IP permitidas', 'Reportó un depósito para recargar']) expect(pages[name], name).toContain(change);
    }
    expect(pages["audit list of the portal's activity (admin)"]).toContain(people.developer);
    expect(pages['audit list (admin)']).toContain('Aprobó un depósito reportado');
    expect(pages['e-mails']).toContain('ACME-5510');
    for (const [name, text] of Object.entries(pages)) expect(fullIdentifiersIn(text), name).toEqual([]);
  });

  it("keeps every NIT of a watch list out of its change notice, by e-mail and on the webhook (issue 35's Vigilancia)", async () => {
    // A list of the integration's taxpayers whose run found changes: told as the app tells it.
    const changes = await app.withDatabase(async () => {
      const created = await createWatchList(acmeId, { name: 'Proveedores', catalog: 'omisos', schedule: 'semanal', nits: [NIT, BATCH_NIT] });
      if (created.kind !== 'created') throw new Error('the watch list was not saved');
      // No source in this test: its first run would only wait.
      await pauseWatchList(acmeId, created.list.publicId);
      const run = { integrationId: acmeId, listPublicId: created.list.publicId, listName: created.list.name, jobPublicId: 'lote_0123456789abcdef0123', run: 2, counts: { omiso: 1, estado_rtu: 1 }, total: 2, constancias: false };
      // Queued with the app's settings (its mail server, its local webhook receiver); the app delivers it.
      const settings = { ...env(), ALERT_SMTP_HOST: '127.0.0.1', ALERT_SMTP_PORT: smtp.port, ALERT_EMAIL_FROM: 'avisos@pasarela.example', INTEGRATOR_WEBHOOK_ALLOW_LOCAL_TARGETS: true };
      const notifier = new IntegratorNotifier(notificationSettingsFrom(settings));
      await noteWatchListChanges(notifier, run);
      await notifier.close();
      return run;
    });
    // Queued by another process: the app hears of it (lib/reactions/alerts/outbox.ts's channel) and sends it
    // now, not at its delivery loop's next idle look, up to 30 s later.
    await expect.poll(() => receiver.received.filter((event) => (event.body.tipo as string) === 'vigilancia_cambios').length, { timeout: 10_000 }).toBe(1);
    await expect.poll(() => smtp.to(contacts.technical).filter((mail) => mail.raw.includes(changes.listPublicId)).length, { timeout: 10_000 }).toBe(1);
    const notice = receiver.received.find((event) => (event.body.tipo as string) === 'vigilancia_cambios')!;
    expect(notice.signed).toBe(true);
    const mail = smtp.to(contacts.technical).find((candidate) => candidate.raw.includes(changes.listPublicId))!;
    const texts = [notice.rawBody, mail.subject, ...['text/plain', 'text/html'].map((type) => mimePart(mail.raw, type)?.body.toString('utf8') ?? '')].join('\n');
    expect(texts).toContain(`/api/vigilancias/${changes.listPublicId}/cambios`);
    expect(fullIdentifiersIn(texts)).toEqual([]);
    for (const nit of [NIT, BATCH_NIT, NIT.replace('-', ''), BATCH_NIT.replace('-', '')]) expect(texts).not.toContain(nit);
  });

  it("masks every NIT of a watch list's changes on the portal's Vigilancia pages, for each role that reads them (issue 35)", async () => {
    const listPublicId = await app.withDatabase(async () => {
      const created = await createWatchList(acmeId, { name: 'Clientes', catalog: 'omisos', schedule: 'mensual', nits: [NIT, BATCH_NIT] });
      if (created.kind !== 'created') throw new Error('the watch list was not saved');
      // No source in this test: its runs would only wait. Its second run's changes, as the comparison writes them.
      await pauseWatchList(acmeId, created.list.publicId);
      const changes = [
        { position: 0, kind: 'omiso', before: false, after: true },
        { position: 1, kind: 'estado_rtu', before: 'ACTIVO', after: 'SUSPENDIDO' },
      ];
      for (const change of changes) {
        await (await database()).rows(sql`
          insert into watch_list_changes (watch_list_id, run, position, kind, job_public_id, before_sealed, after_sealed)
          select id, 2, ${change.position}::integer, ${change.kind}::text, 'lote_0123456789abcdef0456',
                 ${seal(JSON.stringify(change.before), 'watch_snapshot')}::text, ${seal(JSON.stringify(change.after), 'watch_snapshot')}::text
            from watch_lists where public_id = ${created.list.publicId}::text`);
      }
      return created.list.publicId;
    });
    for (const email of [people.owner, people.developer, people.billing]) {
      const person = await portalSignedIn(app.baseUrl, email);
      const list = await page(person, '/portal/vigilancia');
      const detail = (await page(person, `/portal/vigilancia/${listPublicId}`)).replaceAll('<!-- -->', '');
      expect(list).toContain('Clientes');
      // What the page is for is there: each change in words, beside its NIT masked.
      expect(detail).toContain(`>${maskNit(NIT)}<`);
      expect(detail).toContain(`>${maskNit(BATCH_NIT)}<`);
      expect(detail).toContain('Omiso: no → sí');
      expect(detail).toContain('Estado en el RTU: ACTIVO → SUSPENDIDO');
      for (const [name, text] of Object.entries({ list, detail })) {
        expect(fullIdentifiersIn(text), `${email} ${name}`).toEqual([]);
        for (const nit of [NIT, BATCH_NIT, NIT.replace('-', ''), BATCH_NIT.replace('-', '')]) expect(text, `${email} ${name}`).not.toContain(nit);
      }
    }
  });
});
