// GET /api/consultas and GET /api/consultas/{request_id} (issue 54, point 3) against the built app,
// on PGlite and on PostgreSQL: the integration's records paged and filtered, NIT and CUI masked as
// the portal masks them, one request id as a record with its charge, a replay with its original, or
// a traced refusal in the portal's and support's words; another integration's request id reads
// exactly as one that does not exist; every answer is checked against the OpenAPI document, and
// these reads never spend the lookups' per-minute limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_MESSAGES } from '@/lib/contract/messages';
import { maskNit } from '@/lib/core/sealing/masking';
import { describeRequestTrace, requestTraceDetail } from '@/lib/presentation/request-traces';
import { requestTrace } from '@/lib/core/request-traces/read';
import { RECORD_API_MESSAGES } from '@/lib/surfaces/api/records';
import { expectDocumentedResponse } from '../support/openapi-validator';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { createTestIntegration, credentialHeaders, eventually, ROUTES, startGateway, type Gateway, type TestIntegration } from './harness';

const TARIFF = 150;

let testDb: TestDatabase;
let gateway: Gateway;
let main: TestIntegration;
let other: TestIntegration;

beforeAll(async () => {
  testDb = await useTestDatabase();
  main = await createTestIntegration('historial-principal', { tariffCentavos: TARIFF, balanceCentavos: 100 * TARIFF, flags: { isCuiNitEnabled: false } });
  other = await createTestIntegration('historial-otra', { tariffCentavos: TARIFF, balanceCentavos: 100 * TARIFF });
  // A catalog limit of 5 a minute: the test's four lookups and a last one; the reads between them, many more, must not touch it.
  gateway = await startGateway(testDb, { env: { RATE_LIMIT_CATALOG_PER_MINUTE: '5', BULK_API_PER_MINUTE: '1000' } });
});

afterAll(async () => {
  await gateway?.stop();
  await testDb?.cleanup();
});

/** A GET of these routes, its answer checked against the document (`documented`: the path as the document names it). */
async function read(path: string, documented: string, as: TestIntegration = main): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${gateway.app.baseUrl}/api${path}`, { headers: credentialHeaders(as) });
  const body = (await response.json()) as unknown;
  expectDocumentedResponse({ path: documented, method: 'get', status: response.status, contentType: response.headers.get('content-type'), body });
  return { status: response.status, body };
}

interface Row {
  request_id: string;
  consulta: string;
  estado_http: number;
  resultado: string;
  nit: string | null;
  monto_cobrado: string;
}

describe('the query records through the API', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('lists, filters and explains the integration’s own, masked, and reads another’s request id as a missing one', async () => {
    const found = gateway.sample.individual.nit;
    const ok = await gateway.call(ROUTES.omisos, { as: main, json: { nit: found }, headers: { 'idempotency-key': 'historial-1' } });
    expect(ok.status).toBe(200);
    const replay = await gateway.call(ROUTES.omisos, { as: main, json: { nit: found }, headers: { 'idempotency-key': 'historial-1' } });
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    const missing = await gateway.call(ROUTES.omisos, { as: main, json: { nit: gateway.sample.unknownNit } });
    expect(missing.status).toBe(404);
    // Not enabled for main: refused before any source, traced, not recorded.
    const refused = await gateway.call(ROUTES.cuiNit, { as: main, json: { nit: found } });
    expect(refused.status).toBe(403);
    const others = await gateway.call(ROUTES.omisos, { as: other, json: { nit: found } });
    expect(others.status).toBe(200);

    const listed = (await read('/consultas', '/consultas')).body as { consultas: Row[]; siguiente: string | null };
    expect(listed.consultas.map((row) => row.request_id)).toEqual([missing.requestId, ok.requestId]);
    expect(listed.siguiente).toBeNull();
    expect(listed.consultas[1]).toMatchObject({ consulta: 'omisos', estado_http: 200, resultado: 'success', nit: maskNit(found), monto_cobrado: '1.50' });
    expect(listed.consultas[0]).toMatchObject({ estado_http: 404, resultado: 'client_error', monto_cobrado: '0.00' });
    // Never a clear NIT, in the list or in a record.
    const clear = [found.replace('-', ''), found, gateway.sample.unknownNit];
    for (const nit of clear) expect(JSON.stringify(listed)).not.toContain(nit);

    // Filters: by outcome, by status, by lookup, by dates (Guatemala's calendar: yesterday holds nothing).
    const ids = async (query: string) => ((await read(`/consultas?${query}`, '/consultas')).body as { consultas: Row[] }).consultas.map((row) => row.request_id);
    expect(await ids('resultado=success')).toEqual([ok.requestId]);
    expect(await ids('estado=404')).toEqual([missing.requestId]);
    expect(await ids('consulta=rtu')).toEqual([]);
    const today = new Date(Date.now() - 6 * 3_600_000).toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 30 * 3_600_000).toISOString().slice(0, 10);
    expect(await ids(`desde=${today}&hasta=${today}`)).toEqual([missing.requestId, ok.requestId]);
    expect(await ids(`hasta=${yesterday}`)).toEqual([]);
    // The other integration sees only its own.
    expect(((await read('/consultas', '/consultas', other)).body as { consultas: Row[] }).consultas.map((row) => row.request_id)).toEqual([others.requestId]);

    // Bad filters: the catalogs' shape, each with its own text; an identifier filter is no filter here.
    const refusedWith = (message: string) => ({ status: 400, body: { message } });
    expect(await read('/consultas?estado=abc', '/consultas')).toEqual(refusedWith(RECORD_API_MESSAGES.estado));
    expect(await read('/consultas?resultado=bien', '/consultas')).toEqual(refusedWith(RECORD_API_MESSAGES.resultado));
    expect(await read('/consultas?estado=200&resultado=success', '/consultas')).toEqual(refusedWith(RECORD_API_MESSAGES.estadoYResultado));
    expect(await read('/consultas?consulta=sat', '/consultas')).toEqual(refusedWith(RECORD_API_MESSAGES.consulta));
    expect(await read('/consultas?desde=2026-02-30', '/consultas')).toEqual(refusedWith(RECORD_API_MESSAGES.fechas));
    expect(await read(`/consultas?identificador=${found}`, '/consultas')).toEqual(refusedWith(RECORD_API_MESSAGES.filtros));
    expect(await read('/consultas?cursor=nada', '/consultas')).toEqual(refusedWith(RECORD_API_MESSAGES.invalidCursor));

    // One request id: the record with its charge explained.
    const record = (await read(`/consultas/${ok.requestId}`, '/consultas/{request_id}')).body as Record<string, unknown>;
    expect(record).toMatchObject({
      request_id: ok.requestId,
      tipo: 'consulta',
      estado_http: 200,
      monto_cobrado: '1.50',
      repite: null,
      registro: { request_id: ok.requestId, nit: maskNit(found), tarifa: '1.50', motivo_sin_cobro: null, que_paso: null },
    });
    expect((record.registro as { movimientos: unknown[] }).movimientos.length).toBeGreaterThan(0);
    // In words too, as a refusal's: its sentence, and why it was charged.
    expect(record.resumen).toMatch(new RegExp(`^${ok.requestId}: /api/catalogos/omisos, 200, \\d{2}/\\d{2}/\\d{4}, [\\d:]+, consulta registrada, cobrada Q 1\\.50$`));
    expect(record.detalle).toBe('Se cobró Q 1.50, la tarifa de su catálogo (vea registro.movimientos).');
    const notCharged = (await read(`/consultas/${missing.requestId}`, '/consultas/{request_id}')).body as { resumen: string; detalle: string; registro: { motivo_sin_cobro: string; que_paso: string | null } };
    expect(notCharged.registro.motivo_sin_cobro).toContain('404');
    expect(notCharged.resumen).toMatch(/, 404, .*, consulta registrada, sin cobro$/);
    expect(notCharged.detalle).toBe([notCharged.registro.que_paso, `No se cobró: ${notCharged.registro.motivo_sin_cobro}`].filter(Boolean).join(' '));
    for (const nit of clear) expect(JSON.stringify([record, notCharged])).not.toContain(nit);

    // A replay: itself uncharged, with its original's record. A refusal: in support's words.
    const traced = await eventually(() => gateway.withDatabase(() => requestTrace(refused.requestId)), (trace) => trace !== undefined, 30_000, 'the refusal traced');
    expect((await read(`/consultas/${replay.requestId}`, '/consultas/{request_id}')).body).toMatchObject({
      request_id: replay.requestId,
      tipo: 'repeticion',
      monto_cobrado: '0.00',
      repite: ok.requestId,
      registro: { request_id: ok.requestId, monto_cobrado: '1.50' },
    });
    expect((await read(`/consultas/${refused.requestId}`, '/consultas/{request_id}')).body).toEqual({
      request_id: refused.requestId,
      tipo: 'rechazo',
      consulta: 'cui_nit',
      estado_http: 403,
      fecha: traced!.at.toISOString(),
      resumen: describeRequestTrace(traced!),
      detalle: requestTraceDetail(traced!),
      monto_cobrado: '0.00',
      moneda: 'GTQ',
      repite: null,
      registro: null,
    });

    // Another integration's request ids (a record, a replay, a refusal) read exactly as unknown ones.
    const notFound = { status: 404, body: { message: RECORD_API_MESSAGES.notFound } };
    for (const id of [ok.requestId, replay.requestId, refused.requestId, 'req_00000000000000000000', 'no-es-un-id']) {
      expect(await read(`/consultas/${id}`, '/consultas/{request_id}', other)).toEqual(notFound);
    }
    expect(await read(`/consultas/${others.requestId}`, '/consultas/{request_id}')).toEqual(notFound);

    // Dozens of reads within the minute, and the fifth lookup of the minute is still served.
    expect((await gateway.call(ROUTES.omisos, { as: main, json: { nit: found } })).status).toBe(200);

    // Wrong credentials: the catalogs' 401, documented.
    const wrong = await read('/consultas', '/consultas', { ...main, token: 'otro-token' });
    expect(wrong).toEqual({ status: 401, body: { message: CATALOG_MESSAGES.integrationNotFound } });
  });
});
