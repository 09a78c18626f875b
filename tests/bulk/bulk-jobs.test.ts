// Bulk jobs through the API (issue 35), against the built app and the simulator, on PGlite and on
// PostgreSQL: a list with invalid and repeated identifiers set aside at once and free; the job run to
// its end by the app's own runner, each item a real catalog lookup with its query record; the charge
// equal to what was found times the tariff and the ledger reconciled; the same Idempotency-Key
// giving the same job; a balance that runs out pausing the job until a top-up; cancelling; and
// another integration's job answered as one that does not exist. The integration is told (issue 35,
// point 4): a finished or cancelled job's notice arrives signed once at its webhook (a real receiver
// here) and by e-mail to its technical contact (a real SMTP server), a pause to its billing contact.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustBalance } from '@/lib/core/billing/ledger';
import { verifyLedger } from '@/lib/core/billing/verify';
import { BULK_MESSAGES } from '@/lib/surfaces/api/bulk-responses';
import { WATCH_LIST_MESSAGES } from '@/lib/surfaces/api/watch-list-responses';
import { CATALOG_MESSAGES } from '@/lib/contract/messages';
import { itemReasonLabel } from '@/lib/flows/bulk/labels';
import { formatGuatemalanTimestamp } from '@/lib/platform/time/guatemala-time';
import { openNullable } from '@/lib/core/sealing/envelope';
import { setIntegrationDetails } from '@/lib/flows/integration-management/details-service';
import { setNotificationWebhook } from '@/lib/reactions/integrator-notifications/preferences';
import { startDueRuns } from '@/lib/flows/watch-lists';
import { createPopulation, DEFAULT_SIMULATOR_SEED, FAULT_IDENTIFIERS } from '@/simulator';
import { logLines } from '../support/logs';
import { mimePart, startSmtpReceiver, type SmtpReceiver } from '../support/smtp-receiver';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import {
  createTestIntegration,
  credentialHeaders,
  eventually,
  readMoney,
  readRecords,
  startGateway,
  TEST_ACTOR,
  untilJob,
  type ApiAnswer,
  type Gateway,
  type TestIntegration,
} from '../conformance/harness';

const TARIFF = 150;
const JOB_ID = /^lote_[0-9a-f]{20}$/;

let testDb: TestDatabase;
let gateway: Gateway;
let main: TestIntegration;
let other: TestIntegration;
let thrifty: TestIntegration;
let penniless: TestIntegration;
let catalogOff: TestIntegration;
let retrier: TestIntegration;
let smtp: SmtpReceiver;
/** The webhook receiver of each integration that has one, by its name. */
const webhooks = new Map<string, WebhookReceiver>();

/** NITs of the simulator's population whose RTU record the source holds: each is found. */
const knownNits = (() => {
  const population = createPopulation({ seed: DEFAULT_SIMULATOR_SEED });
  const nits: string[] = [];
  for (let index = 0; nits.length < 12; index++) {
    const member = population.member(index);
    if (member.classicNit && member.sourceHoldsCopy && member.quirks.length === 0) nits.push(member.classicNit);
  }
  return nits;
})();

/** NITs the omisos catalog finds, neither omiso nor in coercive collection, none of knownNits: a watch list's. */
const cleanNits = (() => {
  const population = createPopulation({ seed: DEFAULT_SIMULATOR_SEED });
  const nits: string[] = [];
  for (let index = 200; nits.length < 2; index++) {
    const member = population.member(index);
    if (member.classicNit && member.sourceHoldsCopy && member.quirks.length === 0 && member.omissions.length === 0 && !member.coerciveCollection && !knownNits.includes(member.classicNit)) {
      nits.push(member.classicNit);
    }
  }
  return nits;
})();

/** Waits for a watch list's run to be completed and compared by the app's runner. */
function untilRunCompared(listId: string, run: number) {
  return eventually(
    () =>
      gateway.withDatabase((handle) =>
        handle.rows<{ compared: boolean }>(sql`
          select j.state = 'completado' and j.changes_computed_at is not null as compared
            from bulk_jobs j join watch_lists w on w.id = j.watch_list_id where w.public_id = ${listId} and j.watch_list_run = ${run}`),
      ),
    (rows) => rows.some((row) => row.compared),
    60_000,
    `run ${run} of ${listId} compared`,
  );
}

beforeAll(async () => {
  testDb = await useTestDatabase();
  main = await createTestIntegration('lotes-principal', { tariffCentavos: TARIFF, balanceCentavos: 100 * TARIFF });
  other = await createTestIntegration('lotes-otra', { tariffCentavos: TARIFF, balanceCentavos: 100 * TARIFF });
  // Enough for two lookups, not for the five its job finds.
  thrifty = await createTestIntegration('lotes-saldo-justo', { tariffCentavos: TARIFF, balanceCentavos: 2 * TARIFF });
  penniless = await createTestIntegration('lotes-sin-saldo', { tariffCentavos: TARIFF, balanceCentavos: 0 });
  catalogOff = await createTestIntegration('lotes-sin-rtu', { tariffCentavos: TARIFF, balanceCentavos: 100 * TARIFF, flags: { isRtuV2Enabled: false } });
  // No balance at first: its job waits, unfinished, until the test tops it up.
  retrier = await createTestIntegration('lotes-reintentos', { tariffCentavos: TARIFF, balanceCentavos: 0 });
  smtp = await startSmtpReceiver();
  for (const integration of [main, thrifty, penniless]) await tellTo(integration);
  gateway = await startGateway(testDb, {
    env: {
      RATE_LIMIT_CATALOG_PER_MINUTE: '1000',
      BULK_POLL_MS: '100',
      BULK_CONCURRENCY: '4',
      ALERT_SMTP_HOST: '127.0.0.1',
      ALERT_SMTP_PORT: String(smtp.port),
      ALERT_EMAIL_FROM: 'avisos@pasarela.example',
      ALERT_RETRY_BASE_MS: '50',
      // The receiver listens on 127.0.0.1 (development only; production refuses this setting).
      INTEGRATOR_WEBHOOK_ALLOW_LOCAL_TARGETS: 'true',
    },
  });
});

/** Both contacts and a webhook at a receiver of its own that checks the signature with the secret set. */
async function tellTo(integration: TestIntegration): Promise<void> {
  const details = await setIntegrationDetails(TEST_ACTOR, integration.id, {
    technicalContactName: 'Tania Técnica',
    technicalContactEmail: `tecnica@${integration.nombre}.gt`,
    billingContactName: 'Fabio Facturas',
    billingContactEmail: `pagos@${integration.nombre}.gt`,
  });
  if (!details.ok) throw new Error(details.error.message);
  let secret = '';
  const receiver = await startWebhookReceiver(() => secret);
  const set = await setNotificationWebhook(TEST_ACTOR, integration.id, receiver.url, { allowLocalTargets: true });
  if (!set.ok) throw new Error(set.error.message);
  secret = set.value.secret;
  webhooks.set(integration.nombre, receiver);
}

interface Notice {
  signed: boolean;
  rawBody: string;
  body: { tipo: string; condicion: string; mensaje: string; datos: Record<string, unknown> };
}

/** The webhook notices of one `tipo` about one job, once one arrived. */
function noticesAbout(integration: TestIntegration, tipo: string, jobId: string): Promise<Notice[]> {
  const receiver = webhooks.get(integration.nombre)!;
  return eventually(
    async () => (receiver.received as unknown as Notice[]).filter((notice) => notice.body.tipo === tipo && notice.body.datos.lote === jobId),
    (received) => received.length > 0,
    30_000,
    `${tipo} of ${jobId}`,
  );
}

/** Every notice about `condition` the app wrote to its outbox, by channel and recipient, once all were tried. */
async function deliveriesOf(integration: TestIntegration, condition: string) {
  return eventually(
    () =>
      gateway.withDatabase((handle) =>
        handle.rows<{ channel: string; recipient: string; status: string }>(sql`
          select channel, recipient, status from alert_deliveries
           where integration_id = ${integration.id} and payload::jsonb ->> 'condicion' = ${condition} order by channel::text`),
      ),
    (rows) => rows.length > 0 && rows.every((row) => row.status !== 'pending'),
    30_000,
    `deliveries of ${condition}`,
  );
}

afterAll(async () => {
  await gateway?.stop();
  await Promise.all([...webhooks.values()].map((receiver) => receiver.close()));
  await smtp?.close();
  await testDb?.cleanup();
});

/** `key` null: sent without an Idempotency-Key. */
function submit(as: TestIntegration | undefined, json: unknown, key: string | null = `lote-${Math.random()}`): Promise<ApiAnswer> {
  return gateway.call('/api/lotes', { as, json, headers: key === null ? {} : { 'idempotency-key': key } });
}

async function get(path: string, as: TestIntegration, accept?: string): Promise<{ status: number; text: string; contentType: string }> {
  const response = await fetch(`${gateway.app.baseUrl}${path}`, { headers: { ...credentialHeaders(as), ...(accept ? { accept } : {}) } });
  return { status: response.status, text: await response.text(), contentType: response.headers.get('content-type') ?? '' };
}

interface JobBody {
  id: string;
  estado: string;
  reintenta: string | null;
  conteos: Record<string, number>;
  monto_cobrado: string;
  estimado_fin: string | null;
}

async function job(id: string, as: TestIntegration): Promise<JobBody> {
  const answer = await get(`/api/lotes/${id}`, as);
  expect(answer.status, answer.text).toBe(200);
  return JSON.parse(answer.text) as JobBody;
}

function untilState(id: string, as: TestIntegration, state: string): Promise<JobBody> {
  return untilJob<JobBody>(gateway, as, id, (body) => body.estado === state, `job ${id} ${state}`);
}

interface ResultLine {
  posicion: number;
  identificador: string;
  estado: string;
  motivo: string | null;
  datos: Record<string, unknown> | null;
  respondido_en: string | null;
  fuente: string | null;
  fuente_id: string | null;
  request_id: string | null;
}

async function resultLines(id: string, as: TestIntegration): Promise<ResultLine[]> {
  const answer = await get(`/api/lotes/${id}/resultados`, as, 'application/x-ndjson');
  expect(answer.status).toBe(200);
  expect(answer.contentType).toMatch(/^application\/x-ndjson/);
  return answer.text.trim().split('\n').map((line) => JSON.parse(line) as ResultLine);
}

const CSV_CODE_COLUMNS = ['posicion', 'identificador', 'estado', 'motivo', 'respondido_en', 'fuente', 'fuente_id', 'request_id', 'datos'];
const CSV_WORD_COLUMNS = ['estado_descripcion', 'motivo_descripcion', 'respondido_en_guatemala'];
/** After every other column: the row's constancia de consulta (empty in a job sent without them). */
const CSV_CONSTANCIA_COLUMNS = ['constancia_id', 'constancia_url'];

/** The CSV results as Excel opens them: the bytes start with a byte-order mark; cells by RFC 4180, rows keyed by the header. */
async function csvResults(id: string, as: TestIntegration): Promise<{ contentType: string; header: string[]; rows: Array<Record<string, string>> }> {
  const response = await fetch(`${gateway.app.baseUrl}/api/lotes/${id}/resultados`, { headers: credentialHeaders(as) });
  expect(response.status).toBe(200);
  const bytes = Buffer.from(await response.arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const records: string[][] = [[]];
  let field = '';
  let quoted = false;
  const text = bytes.subarray(3).toString('utf8');
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at]!;
    if (quoted && char === '"' && text[at + 1] === '"') {
      field += '"';
      at += 1;
    } else if (char === '"' && (quoted || field === '')) quoted = !quoted;
    else if (!quoted && char === ',') {
      records.at(-1)!.push(field);
      field = '';
    } else if (!quoted && char === '\r' && text[at + 1] === '\n') {
      records.at(-1)!.push(field);
      records.push([]);
      field = '';
      at += 1;
    } else field += char;
  }
  const [header, ...rows] = records.filter((record) => record.length > 0);
  return { contentType: response.headers.get('content-type') ?? '', header: header!, rows: rows.map((row) => Object.fromEntries(header!.map((name, index) => [name, row[index]!]))) };
}

const centavos = (amount: string) => Math.round(Number(amount) * 100);

describe('a bulk job', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('sets aside invalid and repeated identifiers at once, runs the rest as lookups and charges only what was found', async () => {
    const [first, second] = knownNits;
    const identifiers = [first!, '12345678', gateway.sample.unknownNit, `${first!.slice(0, -1)}-${first!.slice(-1)}`, FAULT_IDENTIFIERS.server_error.nit, second!, 'no-es-nit'];
    const key = 'proveedores-noviembre';
    const created = await submit(main, { catalogo: 'rtu', identificadores: identifiers }, key);
    expect(created.status, created.text).toBe(202);
    const body = created.body as JobBody;
    expect(body.id).toMatch(JOB_ID);
    expect(created.headers.get('location')).toBe(`/api/lotes/${body.id}`);
    expect(body.conteos).toMatchObject({ total: 7, invalidos: 3, duplicados: 1 });

    // The same key and list: the same job. Another list under that key: the catalogs' 400.
    const again = await submit(main, { catalogo: 'rtu', identificadores: identifiers }, key);
    expect(again.status).toBe(200);
    expect((again.body as JobBody).id).toBe(body.id);
    const reused = await submit(main, { catalogo: 'rtu', identificadores: [first!] }, key);
    expect({ status: reused.status, body: reused.body }).toEqual({ status: 400, body: { message: CATALOG_MESSAGES.sourceRejectedData } });
    expect(reused.headers.get('x-motivo-rechazo')).toBe('idempotency-key-reused');

    const done = await untilState(body.id, main, 'completado');
    expect(done.conteos).toEqual({ total: 7, procesados: 7, pendientes: 0, encontrados: 2, no_encontrados: 1, invalidos: 3, duplicados: 1, rechazados: 0, fallidos: 1 });
    expect(done.monto_cobrado).toBe('3.00');
    expect(done.estimado_fin).toBeNull();

    // Told, not polled: one signed notice with the counts, the charge and where the results are, and
    // one e-mail to the technical contact; neither carries an identifier of the list.
    const [notice, ...more] = await noticesAbout(main, 'lote_completado', body.id);
    expect(more).toEqual([]);
    expect(notice!.signed).toBe(true);
    expect(notice!.body.condicion).toBe(`lote_completado:${body.id}`);
    expect(notice!.body.datos).toMatchObject({
      lote: body.id,
      catalogo: 'rtu',
      estado: 'completado',
      total: 7,
      encontrados: 2,
      no_encontrados: 1,
      invalidos: 3,
      fallidos: 1,
      pendientes: 0,
      cobrado_centavos: 2 * TARIFF,
      resultados: `/api/lotes/${body.id}/resultados`,
    });
    expect(await deliveriesOf(main, `lote_completado:${body.id}`)).toEqual([
      { channel: 'email', recipient: 'technical', status: 'sent' },
      { channel: 'webhook', recipient: 'webhook', status: 'sent' },
    ]);
    const mails = smtp.to(`tecnica@${main.nombre}.gt`).filter((mail) => mail.raw.includes(body.id));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('Su lote terminó');
    expect(mimePart(mails[0]!.raw, 'text/plain')!.body.toString('utf8')).toContain(`/api/lotes/${body.id}/resultados`);
    for (const identifier of identifiers.filter((candidate) => candidate.length > 3)) {
      expect(notice!.rawBody).not.toContain(identifier);
      expect(mails[0]!.raw).not.toContain(identifier);
    }

    const lines = await resultLines(body.id, main);
    expect(lines.map((line) => [line.posicion, line.identificador, line.estado, line.motivo])).toEqual([
      [1, first, 'encontrado', null],
      [2, '12345678', 'invalido', 'nit_invalido'],
      [3, gateway.sample.unknownNit, 'no_encontrado', null],
      [4, identifiers[3], 'invalido', 'duplicado'],
      [5, FAULT_IDENTIFIERS.server_error.nit, 'error_fuente', 'unavailable'],
      [6, second, 'encontrado', null],
      [7, 'no-es-nit', 'invalido', 'nit_invalido'],
    ]);
    for (const line of lines.filter((candidate) => candidate.estado === 'encontrado')) {
      expect(line.datos).toMatchObject({ nit: expect.any(String) });
      // Named as /estado and the notices name it, with the id /api/estado gives it.
      expect({ fuente: line.fuente, fuente_id: line.fuente_id }).toEqual({ fuente: 'Fuente de catálogos (CUI/NIT, RTU, omisos)', fuente_id: 'catalog' });
      expect(new Date(line.respondido_en!).getTime()).toBeGreaterThan(0);
    }
    const csv = await csvResults(body.id, main);
    expect(csv.contentType).toMatch(/^text\/csv/);
    // The codes first, as they always were, then the row in words and the answer in columns (rtu's).
    expect(csv.header).toEqual([
      ...CSV_CODE_COLUMNS,
      ...CSV_WORD_COLUMNS,
      'nombre',
      'tipo_contribuyente',
      'estado_contribuyente',
      'regimen_isr',
      'regimen_iva',
      'fecha_ultima_actualizacion',
      ...CSV_CONSTANCIA_COLUMNS,
    ]);
    expect(csv.rows.map((row) => row.constancia_id)).toEqual(csv.rows.map(() => ''));
    expect(csv.rows.map((row) => [row.posicion, row.estado, row.motivo, row.estado_descripcion, row.motivo_descripcion])).toEqual([
      ['1', 'encontrado', '', 'Encontrado', ''],
      ['2', 'invalido', 'nit_invalido', 'Apartado', 'NIT inválido'],
      ['3', 'no_encontrado', '', 'No encontrado', ''],
      ['4', 'invalido', 'duplicado', 'Apartado', 'Repetido en la lista'],
      ['5', 'error_fuente', 'unavailable', 'Falló la fuente', 'La fuente no respondió o respondió con un error'],
      ['6', 'encontrado', '', 'Encontrado', ''],
      ['7', 'invalido', 'nit_invalido', 'Apartado', 'NIT inválido'],
    ]);
    for (const [index, row] of csv.rows.entries()) {
      expect(row.respondido_en_guatemala).toBe(formatGuatemalanTimestamp(new Date(lines[index]!.respondido_en!)));
      const answer = lines[index]!.datos as { persona: { primerNombre: string; estado: { descripcion: string } } } | null;
      // The answer's columns: the person's name and state for a found row, empty for every other.
      expect([row.nombre!.split(' ')[0], row.estado_contribuyente]).toEqual(answer ? [answer.persona.primerNombre, answer.persona.estado.descripcion] : ['', '']);
    }

    // One query record per identifier that ran, found by the item's request id; nothing for the set-aside ones.
    const ran = lines.filter((line) => line.request_id !== null);
    expect(ran.map((line) => line.posicion)).toEqual([1, 3, 5, 6]);
    // Each item that ran has its line in the app's log, under its request id, without its identifier.
    const itemLines = logLines(gateway.app.logs()).filter((line) => line.msg === 'bulk item');
    expect(ran.map((line) => itemLines.find((candidate) => candidate.requestId === line.request_id))).toEqual(
      ran.map((line) => expect.objectContaining({ lookup: 'rtu', integration: main.nombre, status: line.estado === 'encontrado' ? 200 : line.estado === 'no_encontrado' ? 404 : 502 })),
    );
    for (const identifier of [first!, second!, gateway.sample.unknownNit]) expect(gateway.app.logs()).not.toContain(identifier);
    const { records, money, verification, sealedAtRest } = await gateway.withDatabase(async (handle) => ({
      records: await readRecords(handle, main.id),
      money: await readMoney(handle, main.id),
      verification: await verifyLedger({ trigger: 'cli', sweepAfterSeconds: 60 }),
      sealedAtRest: await handle.rows<{ identifier_sealed: string; result_sealed: string | null }>(sql`
        select i.identifier_sealed, i.result_sealed from bulk_job_items i join bulk_jobs j on j.id = i.job_id where j.public_id = ${body.id}`),
    }));
    expect(records.map((record) => record.requestId).sort()).toEqual(ran.map((line) => line.request_id).sort());
    for (const line of ran) {
      const record = records.find((candidate) => candidate.requestId === line.request_id)!;
      expect(record).toMatchObject({ lookup: 'rtu', nit: line.identificador, chargedCentavos: line.estado === 'encontrado' ? TARIFF : 0 });
    }
    expect(money.balanceCentavos).toBe(100 * TARIFF - 2 * TARIFF);
    expect(money.ledgerSumCentavos).toBe(money.balanceCentavos);
    expect(verification.ok).toBe(true);
    // Sealed at rest: neither a NIT nor a name in clear.
    for (const row of sealedAtRest) {
      expect(row.identifier_sealed).toMatch(/^pd1:/);
      expect(identifiers).toContain(openNullable(row.identifier_sealed, 'bulk_identifier'));
      if (row.result_sealed !== null) expect(row.result_sealed).toMatch(/^pd1:/);
    }
  });

  it('counts the rows the source refused as rechazados, free, so what ran adds up to what was estimated', async () => {
    // The RTU of a person whose record the source holds no copy of asks for a date of birth: refused.
    const refused = gateway.sample.withoutHeldCopy.nit!;
    const created = await submit(main, { catalogo: 'rtu', identificadores: [knownNits[11]!, refused, 'no-es-nit'] });
    expect(created.status, created.text).toBe(202);
    const id = (created.body as JobBody).id;
    expect((created.body as JobBody).conteos).toMatchObject({ total: 3, invalidos: 1, duplicados: 0, rechazados: 0 });

    const done = await untilState(id, main, 'completado');
    // invalidos keeps its meaning (set aside, or refused); rechazados says which of them ran: the two
    // sent to the source are one found and one refused, the one set aside is the submission's.
    expect(done.conteos).toEqual({ total: 3, procesados: 3, pendientes: 0, encontrados: 1, no_encontrados: 0, invalidos: 2, duplicados: 0, rechazados: 1, fallidos: 0 });
    expect(done.monto_cobrado).toBe('1.50');
    expect((await resultLines(id, main)).map((line) => [line.posicion, line.estado, line.motivo])).toEqual([
      [1, 'encontrado', null],
      [2, 'invalido', 'rechazado_por_la_fuente'],
      [3, 'invalido', 'nit_invalido'],
    ]);
    // In the CSV's words: refused by the source is not "Apartado" (set aside before running).
    expect((await csvResults(id, main)).rows.map((row) => [row.estado_descripcion, row.motivo_descripcion, row.regimen_iva === '' && row.tipo_contribuyente === ''])).toEqual([
      ['Encontrado', '', false],
      ['Rechazado por la fuente', itemReasonLabel('rechazado_por_la_fuente'), true],
      ['Apartado', 'NIT inválido', true],
    ]);
  });

  it.each([
    { catalogo: 'cui-nit', columns: ['nombre', 'tipo_persona', 'nit', 'cui'] },
    { catalogo: 'omisos', columns: ['nombre', 'nombre_comercial', 'estado_contribuyente', 'regimen', 'omiso', 'cobro_coactivo', 'incumplimientos', 'departamento', 'municipio', 'direccion'] },
  ])('gives $catalogo results as a spreadsheet reads them: codes first, then words and the answer in columns', async ({ catalogo, columns }) => {
    const created = await submit(main, { catalogo, identificadores: [knownNits[10]!, gateway.sample.unknownNit, 'no-es-nit'] });
    expect(created.status, created.text).toBe(202);
    const id = (created.body as JobBody).id;
    await untilState(id, main, 'completado');
    const [found] = await resultLines(id, main);
    const data = found!.datos as Record<string, unknown>;
    const csv = await csvResults(id, main);
    expect(csv.header).toEqual([...CSV_CODE_COLUMNS, ...CSV_WORD_COLUMNS, ...columns, ...CSV_CONSTANCIA_COLUMNS]);
    expect(csv.rows.map((row) => [row.estado, row.estado_descripcion, row.motivo_descripcion, row.nombre])).toEqual([
      ['encontrado', 'Encontrado', '', data.nombre],
      ['no_encontrado', 'No encontrado', '', ''],
      ['invalido', 'Apartado', 'NIT inválido', ''],
    ]);
    if (catalogo === 'cui-nit') expect(csv.rows[0]!.tipo_persona).toBe(data.tipoPersona === 'juridica' ? 'Jurídica' : 'Individual');
    else {
      const words = (value: unknown) => (value === true ? 'Sí' : value === false ? 'No' : 'No reportado');
      expect([csv.rows[0]!.omiso, csv.rows[0]!.cobro_coactivo]).toEqual([words(data.tieneIncumplimientos), words(data.tieneProcesoCoactivo)]);
      expect(csv.rows[1]!.omiso).toBe('');
    }
  });

  it('pauses without balance, runs on after a top-up, and charges found × tariff', async () => {
    const five = knownNits.slice(2, 7);
    const created = await submit(thrifty, { catalogo: 'rtu', identificadores: five });
    expect(created.status, created.text).toBe(202);
    const id = (created.body as JobBody).id;
    // Paused once the two lookups the balance paid for have settled.
    const paused = await untilJob<JobBody>(gateway, thrifty, id, (body) => body.estado === 'en_pausa_sin_saldo' && body.conteos.encontrados === 2, 'paused with two found');
    expect(paused.conteos).toMatchObject({ total: 5, encontrados: 2, pendientes: 3 });
    expect(paused.monto_cobrado).toBe('3.00');
    // The pause is told: to the webhook, signed, and to the billing contact, whose balance it waits for.
    const [pausedNotice] = await noticesAbout(thrifty, 'lote_en_pausa', id);
    expect(pausedNotice!.signed).toBe(true);
    // Its counts are those of the moment it paused (lookups still in flight then count as pending).
    expect(pausedNotice!.body.datos).toMatchObject({ estado: 'en_pausa_sin_saldo', total: 5, saldo_centavos: 0, resultados: `/api/lotes/${id}/resultados` });
    expect(await deliveriesOf(thrifty, pausedNotice!.body.condicion)).toEqual([
      { channel: 'email', recipient: 'billing', status: 'sent' },
      { channel: 'webhook', recipient: 'webhook', status: 'sent' },
    ]);
    expect(smtp.to(`pagos@${thrifty.nombre}.gt`).filter((mail) => mail.raw.includes(id))).toHaveLength(1);
    // A pause that lasts: no item runs while the balance is zero.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await job(id, thrifty)).conteos).toMatchObject({ encontrados: 2, pendientes: 3 });

    await gateway.withDatabase(() => adjustBalance(TEST_ACTOR, thrifty.id, 10 * TARIFF, 'recarga de prueba'));
    const done = await untilState(id, thrifty, 'completado');
    expect(done.conteos).toMatchObject({ total: 5, encontrados: 5, pendientes: 0 });
    expect(centavos(done.monto_cobrado)).toBe(5 * TARIFF);
    const { money, verification } = await gateway.withDatabase(async (handle) => ({
      money: await readMoney(handle, thrifty.id),
      verification: await verifyLedger({ trigger: 'cli', sweepAfterSeconds: 60 }),
    }));
    expect(money.balanceCentavos).toBe(2 * TARIFF + 10 * TARIFF - 5 * TARIFF);
    expect(verification.ok).toBe(true);
    // One pause, told once; then its end.
    expect(await noticesAbout(thrifty, 'lote_completado', id)).toHaveLength(1);
    expect(await noticesAbout(thrifty, 'lote_en_pausa', id)).toHaveLength(1);
  });

  it('cancelled, runs nothing more and charges nothing for what did not run', async () => {
    const created = await submit(penniless, { catalogo: 'rtu', identificadores: knownNits.slice(0, 4) });
    const id = (created.body as JobBody).id;
    await untilState(id, penniless, 'en_pausa_sin_saldo');
    const cancelled = await gateway.call(`/api/lotes/${id}/cancelar`, { as: penniless });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toMatchObject({ estado: 'cancelado', monto_cobrado: '0.00', conteos: { pendientes: 4 } });
    // A cancellation is an end too, told once (a repeated cancel is answered, not told again).
    expect((await gateway.call(`/api/lotes/${id}/cancelar`, { as: penniless })).status).toBe(200);
    const [ended, ...again] = await noticesAbout(penniless, 'lote_completado', id);
    expect(again).toEqual([]);
    expect(ended!.signed).toBe(true);
    expect(ended!.body.datos).toMatchObject({ estado: 'cancelado', total: 4, pendientes: 4, cobrado_centavos: 0 });
    expect(ended!.body.mensaje).toContain('fue cancelado');
    expect(await deliveriesOf(penniless, `lote_completado:${id}`)).toHaveLength(2);
    await gateway.withDatabase(() => adjustBalance(TEST_ACTOR, penniless.id, 10 * TARIFF, 'recarga tras cancelar'));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await job(id, penniless)).estado).toBe('cancelado');
    expect((await resultLines(id, penniless)).map((line) => line.estado)).toEqual(['cancelado', 'cancelado', 'cancelado', 'cancelado']);
    const { records, money } = await gateway.withDatabase(async (handle) => ({ records: await readRecords(handle, penniless.id), money: await readMoney(handle, penniless.id) }));
    expect(records).toEqual([]);
    expect(money.balanceCentavos).toBe(10 * TARIFF);
  });

  it('retries only the rows the source failed, as a new job linked to the first, once however often it is asked', async () => {
    const identifiers = [knownNits[8]!, FAULT_IDENTIFIERS.server_error.nit, gateway.sample.unknownNit, 'no-es-nit'];
    const created = await submit(retrier, { catalogo: 'rtu', identificadores: identifiers });
    expect(created.status, created.text).toBe(202);
    const first = (created.body as JobBody).id;
    expect((created.body as JobBody).reintenta).toBeNull();
    const retry = (id: string, as = retrier) => gateway.call(`/api/lotes/${id}/reintentar`, { as });

    // Waiting for balance, it has not finished: nothing to retry yet.
    await untilState(first, retrier, 'en_pausa_sin_saldo');
    const early = await retry(first);
    expect({ status: early.status, body: early.body }).toEqual({ status: 409, body: { message: BULK_MESSAGES.jobNotFinished } });

    await gateway.withDatabase(() => adjustBalance(TEST_ACTOR, retrier.id, 10 * TARIFF, 'recarga para reintentar'));
    expect((await untilState(first, retrier, 'completado')).conteos).toMatchObject({ encontrados: 1, no_encontrados: 1, invalidos: 1, fallidos: 1 });

    const retried = await retry(first);
    expect(retried.status, retried.text).toBe(202);
    const second = retried.body as JobBody;
    expect(second.id).toMatch(JOB_ID);
    expect(second.id).not.toBe(first);
    expect(retried.headers.get('location')).toBe(`/api/lotes/${second.id}`);
    expect(second).toMatchObject({ reintenta: first, catalogo: 'rtu', conteos: { total: 1 } });
    // Asked again (a retried request): the same new job, not another one.
    const again = await retry(first);
    expect(again.status).toBe(200);
    expect((again.body as JobBody).id).toBe(second.id);

    // It ran only the failed row (which the simulator fails every time) and charged nothing.
    const done = await untilState(second.id, retrier, 'completado');
    expect(done).toMatchObject({ reintenta: first, monto_cobrado: '0.00', conteos: { total: 1, fallidos: 1, encontrados: 0 } });
    expect((await resultLines(second.id, retrier)).map((line) => [line.posicion, line.identificador, line.estado])).toEqual([[1, FAULT_IDENTIFIERS.server_error.nit, 'error_fuente']]);
    // A retry can be retried; a job with no failed rows has nothing to retry; another integration's is unknown.
    expect((await retry(second.id)).body).toMatchObject({ reintenta: second.id, conteos: { total: 1 } });
    const clean = (await submit(retrier, { catalogo: 'rtu', identificadores: [knownNits[9]!] })).body as JobBody;
    await untilState(clean.id, retrier, 'completado');
    const nothing = await retry(clean.id);
    expect({ status: nothing.status, body: nothing.body }).toEqual({ status: 409, body: { message: BULK_MESSAGES.nothingToRetry } });
    const foreign = await retry(first, other);
    expect({ status: foreign.status, body: foreign.body }).toEqual({ status: 404, body: { message: BULK_MESSAGES.jobNotFound } });
  });

  it('runs from the sample script: a CSV file submitted, followed and its results downloaded, the same job when run again', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'lote-script-'));
    try {
      const csv = path.join(folder, 'proveedores.csv');
      await writeFile(csv, `nit,nombre\r\n${knownNits[10]},Proveedor uno\r\n${gateway.sample.unknownNit},Proveedor dos\r\n`);
      const run = () =>
        promisify(execFile)('bash', ['examples/lote.sh', csv, 'omisos', path.join(folder, 'resultados.csv')], {
          // One second between status reads here only: the script never reads more than once a minute by default.
          env: { PATH: process.env.PATH, BASE_URL: `${gateway.app.baseUrl}/api`, LOGIN: main.nombre, TOKEN: main.token, ESPERA_MINIMA_SEGUNDOS: '1', NODE_ENV: 'production' },
        });
      const first = await run();
      const id = /Lote (lote_[0-9a-f]{20})/.exec(first.stdout)![1]!;
      expect(first.stdout).toContain('Lote completado: 1 encontrados, 1 no encontrados, 0 con error de la fuente; cobrado Q 1.50.');
      const rows = (await readFile(path.join(folder, 'resultados.csv'), 'utf8')).trim().split('\r\n');
      expect(rows.map((row) => row.split(',').slice(0, 4).join(','))).toEqual([
        'posicion,identificador,estado,motivo',
        '1,nit,invalido,nit_invalido',
        `2,${knownNits[10]},encontrado,`,
        `3,${gateway.sample.unknownNit},no_encontrado,`,
      ]);
      // Run again with the same file (a cut connection, a restart): the same job, not a second charge.
      expect((await run()).stdout).toContain(`Lote ${id}:`);
      expect((await job(id, main)).monto_cobrado).toBe('1.50');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  // Issue 35, point 7: the watch lists' sample script beside lote.sh, as an integrator runs it.
  it('runs the watch lists from their sample script: a file of NITs watched, read, its change downloaded, deleted', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'vigilancia-script-'));
    // Another integration than the jobs' here: its list's notices and charges stay out of theirs.
    const script = (...args: string[]) =>
      promisify(execFile)('bash', ['examples/vigilancia.sh', ...args], {
        env: { PATH: process.env.PATH, BASE_URL: `${gateway.app.baseUrl}/api`, LOGIN: other.nombre, TOKEN: other.token, NODE_ENV: 'production' },
      });
    const [changing, steady] = cleanNits;
    try {
      const nits = path.join(folder, 'proveedores.csv');
      await writeFile(nits, `nit,nombre\r\n${changing},Proveedor uno\r\n${steady},"Proveedor dos"\r\n`);
      const created = await script('crear', nits, 'omisos', 'semanal', 'Proveedores');
      const id = /^Vigilancia (vig_[0-9a-f]{20}) «Proveedores» \(omisos, semanal, activa\): 2 NIT vigilados, /.exec(created.stdout)?.[1];
      expect(id, created.stdout).toBeDefined();
      expect(created.stdout).toContain('Apartado sin guardar: fila 1, nit_invalido.');
      // Run again after a cut (the same file, catalog, schedule and name): the same list, not a second.
      expect((await script('crear', nits, 'omisos', 'semanal', 'Proveedores')).stdout).toMatch(new RegExp(`^Vigilancia ${id} «Proveedores»`));

      // Its first run (the baseline) starts at once; the second, a week later, finds one taxpayer omiso.
      await untilRunCompared(id!, 1);
      gateway.simulator.amendTaxpayer(changing!, { omiso: true });
      const list = (await (await fetch(`${gateway.app.baseUrl}/api/vigilancias/${id}`, { headers: credentialHeaders(other) })).json()) as { proxima_ejecucion: string };
      const due = new Date(list.proxima_ejecucion);
      const [second] = await gateway.withDatabase(() => startDueRuns(new Date(due.getTime() + 1_000)));
      expect(second).toMatchObject({ listPublicId: id, run: 2 });
      await untilRunCompared(id!, 2);

      expect((await script('ver', id!)).stdout).toMatch(
        new RegExp(`^Vigilancia ${id} «Proveedores» \\(omisos, semanal, activa\\): 2 NIT vigilados, 2 ejecuciones, 1 cambios\\. Última ejecución: lote ${second!.jobPublicId}, completado\\. Próxima: `),
      );
      const changes = path.join(folder, 'cambios.csv');
      expect((await script('cambios', id!, changes)).stdout).toBe(`1 cambios en ${changes}.\n`);
      const rows = (await readFile(changes, 'utf8')).trim().split('\n');
      expect(rows[0]).toBe('nit,tipo,antes,despues,ejecucion,lote,detectado_en');
      expect(rows.slice(1).map((row) => row.split(',').slice(0, 6).join(','))).toEqual([`"${changing}","omiso","false","true",2,"${second!.jobPublicId}"`]);

      expect((await script('borrar', id!)).stdout).toBe(`Vigilancia ${id} borrada, con sus NIT y sus cambios.\n`);
      const gone = await script('ver', id!).catch((error: { stderr: string; code: number }) => error);
      expect(gone).toMatchObject({ code: 1, stderr: `HTTP 404 en GET /vigilancias/${id}: ${JSON.stringify({ message: WATCH_LIST_MESSAGES.notFound })}\n` });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('of another integration is answered as an id that does not exist', async () => {
    const created = await submit(main, { catalogo: 'omisos', identificadores: [knownNits[0]!] });
    const id = (created.body as JobBody).id;
    const unknown = 'lote_00000000000000000000';
    for (const [path, method] of [
      ['', 'GET'],
      ['/resultados', 'GET'],
      ['/cancelar', 'POST'],
    ] as const) {
      const answers = [];
      for (const target of [id, unknown]) {
        const response = await fetch(`${gateway.app.baseUrl}/api/lotes/${target}${path}`, { method, headers: credentialHeaders(other) });
        answers.push({ status: response.status, body: await response.text() });
      }
      expect(answers[0]).toEqual({ status: 404, body: JSON.stringify({ message: BULK_MESSAGES.jobNotFound }) });
      expect(answers[1]).toEqual(answers[0]);
    }
    await untilState(id, main, 'completado');
  });

  it('is refused as the catalogs refuse: credentials, flag, body and key', async () => {
    const list = { catalogo: 'rtu', identificadores: [knownNits[0]!] };
    const missing = await submit(undefined, list);
    expect({ status: missing.status, body: missing.body }).toEqual({ status: 403, body: { message: CATALOG_MESSAGES.credentialsRequired } });
    const wrong = await gateway.call('/api/lotes', { json: list, headers: { 'x-integracion-login': main.nombre, 'x-integracion-token': 'otro', 'idempotency-key': 'k' } });
    expect({ status: wrong.status, body: wrong.body }).toEqual({ status: 401, body: { message: CATALOG_MESSAGES.integrationNotFound } });
    const off = await submit(catalogOff, list);
    expect({ status: off.status, body: off.body }).toEqual({ status: 403, body: { message: CATALOG_MESSAGES.catalogNotEnabled } });
    const noKey = await submit(main, list, null);
    expect({ status: noKey.status, body: noKey.body }).toEqual({ status: 400, body: { message: BULK_MESSAGES.idempotencyKeyMissing } });
    const badCatalog = await submit(main, { catalogo: 'renap', identificadores: ['1'] });
    expect({ status: badCatalog.status, body: badCatalog.body }).toEqual({ status: 400, body: { message: BULK_MESSAGES.catalog } });
    const tooMany = await submit(main, { catalogo: 'rtu', identificadores: Array.from({ length: 10_001 }, () => knownNits[0]!) });
    expect({ status: tooMany.status, body: tooMany.body }).toEqual({ status: 400, body: { message: BULK_MESSAGES.identifiers } });
    const invalidKey = await submit(main, list, '');
    expect(invalidKey.status).toBe(400);
    expect(invalidKey.headers.get('x-motivo-rechazo')).toBe('idempotency-key-invalid');
  });
});
