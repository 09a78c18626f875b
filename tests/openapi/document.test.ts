// The OpenAPI document: generated from the contract schemas and messages, served by the app, and
// describing every response the app gives, success and error, on every operation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_REQUEST_MESSAGES } from '@/lib/surfaces/api/catalog-responses';
import { REGISTRY_FAILED_MESSAGE, REGISTRY_REQUEST_MESSAGES } from '@/lib/surfaces/api/registry-responses';
import { BULK_MESSAGES } from '@/lib/surfaces/api/bulk-responses';
import { WATCH_LIST_MESSAGES } from '@/lib/surfaces/api/watch-list-responses';
import { ACCOUNT_MESSAGES } from '@/lib/surfaces/api/account-responses';
import { topUp } from '@/lib/core/billing/ledger';
import { CATALOG_MESSAGES, CONTRACT_REVISION, REGISTRY_MESSAGES } from '@/lib/contract/messages';
import { FLAG_NAMES } from '@/lib/core/integrations/flags';
import { createIntegration } from '@/lib/flows/integration-management/service';
import { GLOBAL_LIMIT_BODY } from '@/lib/core/limits/global-limit-body';
import { buildOpenApiDocument } from '@/lib/surfaces/openapi/document';
import { FAULT_IDENTIFIERS, samplePopulation, startSimulator, DEFAULT_SIMULATOR_SEED, type RunningSimulator } from '@/simulator/index';
import { startApp, type RunningApp } from '../support/app-server';
import { expectDocumentedResponse } from '../support/openapi-validator';
import { useTestDatabase, type TestDatabase } from '../support/test-database';

// Texts the API answers with, byte for byte (some in English, by the contract or by our decision):
// they may stand in a description or an example's summary as they are.
const ANSWERED_TEXTS = [
  ...Object.values(REGISTRY_MESSAGES),
  ...Object.values(CATALOG_MESSAGES),
  ...Object.values(REGISTRY_REQUEST_MESSAGES),
  ...Object.values(CATALOG_REQUEST_MESSAGES),
  REGISTRY_FAILED_MESSAGE,
  GLOBAL_LIMIT_BODY,
].sort((a, b) => b.length - a.length);

// Common English words that are not Spanish words: one of them in the prose means English leaked.
const ENGLISH_WORDS = new Set(['the', 'of', 'is', 'are', 'when', 'returns', 'request', 'response', 'with', 'and', 'or', 'not', 'must', 'only', 'this', 'for', 'from', 'if', 'none', 'any', 'body', 'field', 'to', 'by']);

/** Every description, summary or title in the document with the English words it holds ("where: words"). */
function englishInProse(node: unknown, where = ''): string[] {
  if (Array.isArray(node)) return node.flatMap((item, index) => englishInProse(item, `${where}[${index}]`));
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) => {
    const path = where ? `${where}.${key}` : key;
    if (typeof value !== 'string' || !['description', 'summary', 'title'].includes(key)) return englishInProse(value, path);
    let prose = value;
    for (const text of ANSWERED_TEXTS) prose = prose.replaceAll(text, ' ');
    // Identifiers, paths and header names (x-request-id, is_renap_enabled, /rtu/nits) are not prose.
    prose = prose.replace(/\S*[-_/]\S*/g, ' ');
    const found = [...new Set(prose.toLowerCase().match(/\p{L}+/gu) ?? [])].filter((word) => ENGLISH_WORDS.has(word));
    return found.length > 0 ? [`${path}: ${found.join(', ')}`] : [];
  });
}

describe('the generated document', () => {
  const document = buildOpenApiDocument('https://gateway.example.com/api');

  it('is OpenAPI 3.1 labelled with the contract revision, with the contract operationIds', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe(CONTRACT_REVISION);
    const operations = Object.fromEntries(
      Object.entries(document.paths).map(([path, item]) => [path, Object.fromEntries(Object.entries(item as Record<string, { operationId: string }>).map(([method, operation]) => [method, operation.operationId]))]),
    );
    expect(operations).toEqual({
      '/renap/buscar-cui': { post: 'searchRenapByCui' },
      '/rtu/nits': { post: 'searchRtuByNits' },
      '/catalogos/cui-nit': { post: 'lookupCuiNit' },
      '/catalogos/rtu': { post: 'lookupRtuV2' },
      '/catalogos/omisos': { post: 'lookupOmisos' },
      // The bulk jobs (issue 35), beside the contract's five.
      '/lotes': { get: 'listBulkJobs', post: 'createBulkJob' },
      '/lotes/{id}': { get: 'getBulkJob' },
      '/lotes/{id}/resultados': { get: 'getBulkJobResults' },
      '/lotes/{id}/cancelar': { post: 'cancelBulkJob' },
      '/lotes/{id}/reintentar': { post: 'retryBulkJobFailures' },
      // Vigilancia (issue 35, point 5): saved lists of NITs run on a schedule.
      '/vigilancias': { get: 'listWatchLists', post: 'createWatchList' },
      '/vigilancias/{id}': { get: 'getWatchList', delete: 'deleteWatchList', patch: 'updateWatchList' },
      '/vigilancias/{id}/cambios': { get: 'listWatchListChanges' },
      // The integration's own account and the sources' status (issue 54).
      '/cuenta': { get: 'getAccount' },
      '/cuenta/movimientos': { get: 'listAccountMovements' },
      '/cuenta/facturas': { get: 'listAccountInvoices' },
      '/cuenta/facturas/{id}/xml': { get: 'getAccountInvoiceXml' },
      '/cuenta/facturas/{id}/pdf': { get: 'getAccountInvoicePdf' },
      '/cuenta/facturas/{id}/notas-de-credito/{nota}/xml': { get: 'getAccountCreditNoteXml' },
      '/cuenta/facturas/{id}/notas-de-credito/{nota}/pdf': { get: 'getAccountCreditNotePdf' },
      '/estado': { get: 'getSourcesStatus' },
      // What the portal's Consultas shows, for the integrator's systems.
      '/consultas': { get: 'listQueryRecords' },
      '/consultas/{request_id}': { get: 'getQueryByRequestId' },
      // Constancias de consulta: a receipt, the public log and its proofs, the verification.
      '/constancias/{id}': { get: 'getConstancia' },
      '/constancias/registro': { get: 'getConstanciaLogHead' },
      '/constancias/registro/inclusion': { get: 'getConstanciaInclusionProof' },
      '/constancias/registro/consistencia': { get: 'getConstanciaConsistencyProof' },
      '/constancias/verificar': { post: 'verifyConstancia' },
    });
  });

  it('requires both integration headers together on every operation', () => {
    expect(document.security).toEqual([{ integracionLogin: [], integracionToken: [] }]);
    expect(document.components.securitySchemes).toMatchObject({
      integracionLogin: { type: 'apiKey', in: 'header', name: 'x-integracion-login' },
      integracionToken: { type: 'apiKey', in: 'header', name: 'x-integracion-token' },
    });
  });

  it('shows every contract message as an example, under the status that carries it', () => {
    const text = JSON.stringify(document.paths);
    for (const message of [...Object.values(CATALOG_MESSAGES), ...Object.values(REGISTRY_MESSAGES)]) expect(text).toContain(JSON.stringify(message));
  });

  it('speaks Spanish in every description, summary and title; only the answered message texts keep their own wording', () => {
    const english = englishInProse(document);
    expect(english).toEqual([]);
  });

  it('the English check catches English and leaves the contract texts and identifiers alone', () => {
    const sample = {
      info: { title: 'API de consulta', description: 'Returns the taxpayer.' },
      paths: {
        '/rtu/nits': {
          description: `Más de 50 se rechazan con "${REGISTRY_MESSAGES.tooManyNits}"; revise x-request-id, is_renap_enabled y content-type.`,
          examples: { cuiRequired: { summary: REGISTRY_MESSAGES.cuiRequired } },
          schema: { description: 'The CUI of the person, when it is sent' },
        },
      },
    };
    expect(englishInProse(sample)).toEqual([
      'info.description: returns, the',
      'paths./rtu/nits.schema.description: the, of, when, is',
    ]);
  });

  it('lists the catalog error statuses of the contract', () => {
    for (const path of ['/catalogos/cui-nit', '/catalogos/rtu', '/catalogos/omisos']) {
      const responses = (document.paths[path] as { post: { responses: Record<string, unknown> } }).post.responses;
      expect(Object.keys(responses).sort()).toEqual(['200', '400', '401', '402', '403', '404', '429', '500', '502']);
    }
  });

  it('offers the optional Idempotency-Key on the catalogs only, x-constancia on the five lookups, and names the replay header on the answers a repeat may get again', () => {
    type Post = { parameters?: Array<Record<string, unknown>>; responses: Record<string, { headers: Record<string, unknown> }> };
    for (const [path, item] of Object.entries(document.paths)) {
      // The bulk jobs take a key of their own, required (their own test below).
      if (path.startsWith('/lotes')) continue;
      // A watch list is created without a key (a standing configuration; its runs are keyed by the service).
      if (path.startsWith('/vigilancias')) continue;
      // Reads without a body: nothing to repeat safely.
      if (path.startsWith('/cuenta') || path === '/estado') continue;
      // The records are read (GET): nothing to repeat.
      if (path.startsWith('/consultas')) continue;
      // A receipt's reads and its verification (the constancias' own test, tests/constancias).
      if (path.startsWith('/constancias')) continue;
      const operation = (item as { post: Post }).post;
      const constancia = expect.objectContaining({ name: 'x-constancia', in: 'header', required: false, schema: { type: 'string', enum: ['true'] } });
      for (const response of Object.values(operation.responses)) expect(Object.keys(response.headers), path).toEqual(expect.arrayContaining(['x-constancia-id', 'x-constancia-url', 'x-constancia-motivo']));
      if (!path.startsWith('/catalogos/')) {
        expect(operation.parameters, path).toEqual([constancia]);
        continue;
      }
      expect(operation.parameters, path).toEqual([
        expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' } }),
        constancia,
      ]);
      const replayable = Object.entries(operation.responses).filter(([, response]) => 'Idempotency-Replayed' in response.headers).map(([status]) => status);
      expect(replayable, path).toEqual(['200', '400', '404']);
      for (const response of Object.values(operation.responses)) expect(response.headers).toHaveProperty('x-request-id');
    }
  });

  it('documents the bulk jobs with a required Idempotency-Key and the catalogs\' error texts', () => {
    type Operation = { parameters?: Array<Record<string, unknown>>; responses: Record<string, unknown> };
    const create = (document.paths['/lotes'] as { post: Operation }).post;
    expect(JSON.stringify(document.paths['/lotes'])).toContain(JSON.stringify(BULK_MESSAGES.invalidCursor));
    expect(create.parameters).toEqual([expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: true })]);
    expect(Object.keys(create.responses).sort()).toEqual(['200', '202', '400', '401', '403', '429', '500', '502']);
    const text = JSON.stringify(document.paths['/lotes']);
    for (const message of [CATALOG_MESSAGES.credentialsRequired, CATALOG_MESSAGES.integrationNotFound, CATALOG_MESSAGES.catalogNotEnabled, CATALOG_MESSAGES.rateLimited]) {
      expect(text).toContain(JSON.stringify(message));
    }
  });

  it("documents the watch lists with their own and the catalogs' error texts, and their schemas", () => {
    type Operation = { responses: Record<string, unknown> };
    const create = (document.paths['/vigilancias'] as { post: Operation }).post;
    expect(Object.keys(create.responses).sort()).toEqual(['200', '201', '400', '401', '403', '429', '500', '502']);
    expect(JSON.stringify((create as { parameters?: unknown }).parameters)).toContain('"name":"Idempotency-Key","in":"header","required":true');
    const text = JSON.stringify(Object.entries(document.paths).filter(([path]) => path.startsWith('/vigilancias')));
    for (const message of [...Object.values(WATCH_LIST_MESSAGES), CATALOG_MESSAGES.credentialsRequired, CATALOG_MESSAGES.integrationNotFound, CATALOG_MESSAGES.catalogNotEnabled, CATALOG_MESSAGES.rateLimited]) {
      expect(text).toContain(JSON.stringify(message));
    }
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['VigilanciaRequest', 'Vigilancia', 'VigilanciaCreada', 'VigilanciaCambios', 'VigilanciaCambio', 'Vigilancias', 'VigilanciaCambioRequest', 'VigilanciaModificada', 'Lotes']),
    );
  });

  it("documents the account's reads with the catalogs' error texts and their own, and GET /estado without credentials", () => {
    type Operation = { responses: Record<string, unknown>; security?: unknown[] };
    const read = (path: string) => (document.paths[path] as { get: Operation }).get;
    expect(Object.keys(read('/cuenta').responses).sort()).toEqual(['200', '401', '403', '429', '500', '502']);
    expect(Object.keys(read('/cuenta/movimientos').responses).sort()).toEqual(['200', '400', '401', '403', '429', '500', '502']);
    const text = JSON.stringify([document.paths['/cuenta'], document.paths['/cuenta/movimientos']]);
    for (const message of [...Object.values(ACCOUNT_MESSAGES), CATALOG_MESSAGES.credentialsRequired, CATALOG_MESSAGES.integrationNotFound, CATALOG_MESSAGES.rateLimited]) {
      expect(text).toContain(JSON.stringify(message));
    }
    expect(read('/estado').security).toEqual([]);
    expect(Object.keys(read('/estado').responses).sort()).toEqual(['200', '429', '503']);
    expect(Object.keys(document.components.schemas)).toEqual(expect.arrayContaining(['Cuenta', 'Movimientos', 'Movimiento', 'Estado']));
  });
});

describe('live responses of every operation match the served document', () => {
  const sample = samplePopulation({ seed: DEFAULT_SIMULATOR_SEED });
  const actor = { kind: 'system', name: 'openapi-test' } as const;
  let testDatabase: TestDatabase;
  let simulator: RunningSimulator;
  let app: RunningApp;
  const tokens = new Map<string, string>();
  let nextClientIp = 0;

  async function integration(nombre: string, options: { balance?: number; enabled?: boolean } = {}) {
    const created = await createIntegration(actor, {
      nombre,
      tariffCentavos: 100,
      flags: Object.fromEntries(FLAG_NAMES.map((flag) => [flag, options.enabled ?? true])),
    });
    if (!created.ok) throw new Error(created.error.message);
    if ((options.balance ?? 10_000) > 0) await topUp(actor, created.value.integration.id, options.balance ?? 10_000, 'Saldo de prueba');
    tokens.set(nombre, created.value.token);
  }

  beforeAll(async () => {
    testDatabase = await useTestDatabase();
    simulator = await startSimulator({ port: 0, slowFaultDelayMs: 5_000 });
    // One integration per group of cases, so no group reaches a per-minute limit it does not test.
    for (const name of ['full', 'full-catalogos-cui-nit', 'full-catalogos-rtu', 'full-catalogos-omisos', 'limits-renap', 'limits-rtu', 'limits-catalog']) {
      await integration(name);
    }
    await integration('sin-saldo', { balance: 0 });
    await integration('sin-permisos', { enabled: false });
    app = await startApp({
      env: {
        RENAP_BASE_URL: `${simulator.url}/renap`,
        RTU_BASE_URL: `${simulator.url}/rtu`,
        CATALOG_BASE_URL: `${simulator.url}/catalog`,
        SOURCE_TIMEOUT_MS: '1000',
        // One trusted hop lets each request below bring its own client address, so the global
        // limit (3 here) is reached only where a case means to reach it.
        TRUSTED_PROXY_HOPS: '1',
        RATE_LIMIT_GLOBAL_MAX: '3',
        // Windows aligned to the clock (sliding): a year-long one cannot end mid-test and give a request back.
        RATE_LIMIT_GLOBAL_WINDOW_SECONDS: '31536000',
      },
    });
  });

  afterAll(async () => {
    await app?.stop();
    await simulator?.close();
    await testDatabase?.cleanup();
  });

  async function call(path: string, body: unknown, as: string | null, clientIp = `10.0.${Math.floor(nextClientIp / 250)}.${(nextClientIp++ % 250) + 1}`) {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-forwarded-for': clientIp };
    if (as === 'unknown') Object.assign(headers, { 'x-integracion-login': 'nadie', 'x-integracion-token': 'tlk_x' });
    else if (as) Object.assign(headers, { 'x-integracion-login': as, 'x-integracion-token': tokens.get(as)! });
    const response = await fetch(`${app.baseUrl}/api${path}`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
    const text = await response.text();
    const contentType = response.headers.get('content-type');
    const parsed = contentType?.includes('application/json') ? JSON.parse(text) : text;
    expectDocumentedResponse({ path, status: response.status, contentType, body: parsed });
    return response.status;
  }

  const CATALOGS = ['/catalogos/cui-nit', '/catalogos/rtu', '/catalogos/omisos'];

  it('/renap/buscar-cui', async () => {
    const statuses = [
      await call('/renap/buscar-cui', { cui: sample.individual.cui }, 'full'),
      await call('/renap/buscar-cui', { cui: FAULT_IDENTIFIERS.not_found.cui }, 'full'),
      await call('/renap/buscar-cui', { cui: FAULT_IDENTIFIERS.error_code_in_success.cui }, 'full'),
      await call('/renap/buscar-cui', { cui: FAULT_IDENTIFIERS.data_rejected.cui }, 'full'),
      await call('/renap/buscar-cui', {}, 'full'),
      await call('/renap/buscar-cui', '{not json', 'full'),
      await call('/renap/buscar-cui', { cui: sample.individual.cui }, null),
      await call('/renap/buscar-cui', { cui: sample.individual.cui }, 'sin-permisos'),
      await call('/renap/buscar-cui', { cui: FAULT_IDENTIFIERS.server_error.cui }, 'full'),
      await call('/renap/buscar-cui', { cui: FAULT_IDENTIFIERS.auth_rejected.cui }, 'full'),
    ];
    expect(statuses).toEqual([200, 200, 200, 400, 400, 400, 403, 403, 500, 500]);
    const limited = [];
    for (let index = 0; index < 31; index++) limited.push(await call('/renap/buscar-cui', { cui: sample.individual.cui }, 'limits-renap'));
    expect(limited.slice(29)).toEqual([200, 429]);
  });

  it('/rtu/nits', async () => {
    const statuses = [
      await call('/rtu/nits', { nits: [sample.individual.nit, sample.unknownNit] }, 'full'),
      await call('/rtu/nits', { nits: [sample.unknownNit] }, 'full'),
      await call('/rtu/nits', { nits: Array.from({ length: 51 }, () => sample.individual.nit) }, 'full'),
      await call('/rtu/nits', { nits: [] }, 'full'),
      await call('/rtu/nits', { nits: [sample.individual.nit] }, null),
      await call('/rtu/nits', { nits: [sample.individual.nit] }, 'sin-permisos'),
      await call('/rtu/nits', { nits: [FAULT_IDENTIFIERS.server_error.nit] }, 'full'),
    ];
    expect(statuses).toEqual([200, 200, 400, 400, 403, 403, 500]);
    const limited = [];
    for (let index = 0; index < 51; index++) limited.push(await call('/rtu/nits', { nits: [sample.individual.nit] }, 'limits-rtu'));
    expect(limited.slice(49)).toEqual([200, 429]);
  });

  it.each(CATALOGS)('%s', async (path) => {
    const query = { nit: path === '/catalogos/rtu' ? sample.individual.nit : sample.omiso.nit };
    const full = `full${path.replace('/', '-').replace('/', '-')}`;
    const statuses = [
      await call(path, query, full),
      await call(path, { nit: FAULT_IDENTIFIERS.empty_success.nit }, full),
      await call(path, { nit: '' }, full),
      await call(path, { nit: sample.individual.nit, actualizado: 'true' }, full),
      await call(path, { nit: FAULT_IDENTIFIERS.data_rejected.nit }, full),
      await call(path, query, 'unknown'),
      await call(path, { nit: FAULT_IDENTIFIERS.auth_rejected.nit }, full),
      await call(path, query, 'sin-saldo'),
      await call(path, { nit: FAULT_IDENTIFIERS.balance_exhausted.nit }, full),
      await call(path, query, null),
      await call(path, query, 'sin-permisos'),
      await call(path, { nit: FAULT_IDENTIFIERS.query_type_denied.nit }, full),
      await call(path, { nit: FAULT_IDENTIFIERS.not_found.nit }, full),
      await call(path, { nit: FAULT_IDENTIFIERS.rate_limited.nit }, full),
      await call(path, { nit: FAULT_IDENTIFIERS.server_error.nit }, full),
      await call(path, { nit: FAULT_IDENTIFIERS.slow.nit }, full),
    ];
    expect(statuses).toEqual([200, 200, 400, 400, 400, 401, 401, 402, 402, 403, 403, 403, 404, 429, 502, 502]);
  });

  it('the shared catalog limit and the global per-IP limit (plain text)', async () => {
    const catalog = [];
    for (let index = 0; index < 31; index++) catalog.push(await call(CATALOGS[index % 3]!, { nit: sample.individual.nit }, 'limits-catalog'));
    expect(catalog.slice(29)).toEqual([200, 429]);
    const global = [];
    for (let index = 0; index < 4; index++) global.push(await call('/catalogos/cui-nit', { nit: sample.individual.nit }, 'full', '192.0.2.77'));
    expect(global).toEqual([200, 200, 200, 429]);
  });

  it('is served at /api/openapi.json with this deployment as its server', async () => {
    const response = await fetch(`${app.baseUrl}/api/openapi.json`);
    expect(response.status).toBe(200);
    const served = (await response.json()) as { servers: Array<{ url: string }>; info: { version: string } };
    expect(served.servers).toEqual([{ url: `${app.baseUrl}/api`, description: 'Este ambiente' }]);
    expect(served.info.version).toBe(CONTRACT_REVISION);
  });
});
