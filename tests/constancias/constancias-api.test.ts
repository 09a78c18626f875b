// Constancias over HTTP, against the built app on PGlite and on PostgreSQL (issue 68): each of the
// five lookups sent with `x-constancia: true` keeps its body and status and names its receipt in its
// headers; the receipt, read at that address by its integration only, verifies with `jose` and the
// keys /.well-known/jwks.json publishes alone; POST /api/constancias/verificar says valid for it and
// not valid for it tampered; an integration without receipts, a refusal and a request without the
// header get none, and nothing else changes.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setConstancias } from '@/lib/flows/integration-management/service';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { qrModulesOf, qrModulesOfPdf } from '../support/pdf-qr';
import { scrapeMetrics } from '../operations/metrics-support';
import { ALL_ROUTES, createTestIntegration, credentialHeaders, startGateway, TEST_ACTOR, untilJob, validRequestBody, type Gateway, type TestIntegration } from '../conformance/harness';
import { BULK_MESSAGES } from '@/lib/surfaces/api/bulk-responses';

const METRICS_TOKEN = 'metrics-token-for-the-constancias-0123456789';

let testDb: TestDatabase;
let gateway: Gateway;
let withReceipts: TestIntegration;
let withoutReceipts: TestIntegration;
let broke: TestIntegration;

beforeAll(async () => {
  testDb = await useTestDatabase();
  withReceipts = await createTestIntegration('constancias-si', { tariffCentavos: 100, balanceCentavos: 100_000 });
  withoutReceipts = await createTestIntegration('constancias-no', { tariffCentavos: 100, balanceCentavos: 100_000 });
  broke = await createTestIntegration('constancias-sin-saldo', { tariffCentavos: 100, balanceCentavos: 0 });
  for (const integration of [withReceipts, broke]) expect((await setConstancias(TEST_ACTOR, integration.id, true)).ok).toBe(true);
  gateway = await startGateway(testDb, { env: { METRICS_TOKEN } });
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.stop();
  await testDb?.cleanup();
});

async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown; headers: Headers }> {
  const response = await fetch(path.startsWith('http') ? path : `${gateway.app.baseUrl}${path}`, { headers });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

async function verify(constancia: string): Promise<{ valida: boolean; motivo: string | null; constancia: unknown }> {
  const response = await fetch(`${gateway.app.baseUrl}/api/constancias/verificar`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ constancia }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { valida: boolean; motivo: string | null; constancia: unknown };
}

describe('a lookup sent with x-constancia: true', () => {
  it('on each of the five lookups: the same answer, and a receipt that verifies offline with the published keys alone', async () => {
    const jwks = (await get('/.well-known/jwks.json')).body as JSONWebKeySet;
    expect(jwks.keys.length).toBeGreaterThan(0);
    const keys = createLocalJWKSet(jwks);
    for (const route of ALL_ROUTES) {
      const json = validRequestBody(route, gateway.sample);
      const plain = await gateway.call(route, { as: withReceipts, json });
      const asked = await gateway.call(route, { as: withReceipts, json, headers: { 'x-constancia': 'true' } });
      expect(asked.status, route).toBe(plain.status);
      expect(asked.status, route).toBe(200);
      expect(plain.headers.get('x-constancia-id'), route).toBeNull();
      const id = asked.headers.get('x-constancia-id');
      const url = asked.headers.get('x-constancia-url');
      expect(id, `${route}: ${asked.headers.get('x-constancia-motivo')}`).toMatch(/^[0-9a-f-]{36}$/);
      expect(url).toBe(`${gateway.app.baseUrl}/api/constancias/${id}`);

      const read = await get(url!, credentialHeaders(withReceipts));
      expect(read.status).toBe(200);
      const stored = read.body as { id: string; constancia: string; estado: number; consulta: string; registro: { indice: number } };
      expect(stored).toMatchObject({ id, estado: 200, consulta: route });
      const { payload, protectedHeader } = await compactVerify(stored.constancia, keys);
      expect(protectedHeader.alg).toBe('EdDSA');
      const receipt = JSON.parse(new TextDecoder().decode(payload));
      expect(receipt).toMatchObject({
        id,
        solicitud: { requestId: asked.requestId, integracion: withReceipts.nombre, consulta: route, cuerpo: json },
        respuesta: { estado: 200, cuerpo: asked.body },
        registro: { indice: stored.registro.indice },
      });
      // The exact bytes the integrator received, by their hash.
      expect(receipt.respuesta.cuerpoSha256).toBe(createHash('sha256').update(asked.text).digest('hex'));

      expect(await verify(stored.constancia)).toMatchObject({ valida: true, motivo: null, constancia: receipt });
      const [header, body, signature] = stored.constancia.split('.') as [string, string, string];
      const tampered = `${header}.${body.slice(0, 40)}${body[40] === 'A' ? 'B' : 'A'}${body.slice(41)}.${signature}`;
      await expect(compactVerify(tampered, keys)).rejects.toThrow();
      expect(await verify(tampered)).toMatchObject({ valida: false });
    }
  });

  // Written in the statement that records the lookup: the receipts of eight lookups cost at most
  // the one statement that takes a block of 32 leaf indexes, where a statement each cost eight.
  it('costs each lookup no database statement of its own, on a registry and on a catalog', async () => {
    for (const route of [ALL_ROUTES[0], ALL_ROUTES[4]]) {
      const json = validRequestBody(route, gateway.sample);
      const roundTrips = async () => {
        const { samples } = await scrapeMetrics(gateway.app.baseUrl, METRICS_TOKEN);
        const total = (name: string) => samples.filter((sample) => sample.name === name).reduce((sum, sample) => sum + sample.value, 0);
        return { sum: total('gateway_lookup_database_round_trips_sum'), count: total('gateway_lookup_database_round_trips_count') };
      };
      const eight = async (headers: Record<string, string>) => {
        const before = await roundTrips();
        for (let n = 0; n < 8; n++) expect((await gateway.call(route, { as: withReceipts, json, headers })).status, route).toBe(200);
        const after = await roundTrips();
        expect(after.count - before.count, route).toBe(8);
        return after.sum - before.sum;
      };
      await gateway.call(route, { as: withReceipts, json, headers: { 'x-constancia': 'true' } }); // warm: credentials, a block of indexes
      const plain = await eight({});
      const asked = await eight({ 'x-constancia': 'true' });
      expect(asked - plain, route).toBeLessThanOrEqual(1);
    }
  });

  it('is read by its own integration only: another gets the same 404 as a made-up id', async () => {
    const asked = await gateway.call(ALL_ROUTES[0], { as: withReceipts, json: validRequestBody(ALL_ROUTES[0], gateway.sample), headers: { 'x-constancia': 'true' } });
    const url = asked.headers.get('x-constancia-url')!;
    const other = await get(url, credentialHeaders(withoutReceipts));
    const madeUp = await get(`/api/constancias/00000000-0000-4000-8000-000000000000`, credentialHeaders(withReceipts));
    expect(other).toMatchObject({ status: 404 });
    expect(madeUp).toMatchObject({ status: 404, body: other.body });
    // Its query's record names it, for the integration's systems as for its portal.
    const record = await get(`/api/consultas/${asked.requestId}`, credentialHeaders(withReceipts));
    expect(record.body).toMatchObject({ tipo: 'consulta', registro: { constancia_id: asked.headers.get('x-constancia-id'), constancia_url: url } });
    const plain = await gateway.call(ALL_ROUTES[0], { as: withReceipts, json: validRequestBody(ALL_ROUTES[0], gateway.sample) });
    expect((await get(`/api/consultas/${plain.requestId}`, credentialHeaders(withReceipts))).body).toMatchObject({ registro: { constancia_id: null, constancia_url: null } });
  });

  it('gets none, and says why, where receipts are off, on a refusal and on a replayed Idempotency-Key', async () => {
    const route = ALL_ROUTES[4];
    const json = validRequestBody(route, gateway.sample);
    const off = await gateway.call(route, { as: withoutReceipts, json, headers: { 'x-constancia': 'true' } });
    expect(off.status).toBe(200);
    expect(off.headers.get('x-constancia-id')).toBeNull();
    expect(off.headers.get('x-constancia-motivo')).toBe('no-habilitada');

    const refused = await gateway.call(route, { as: broke, json, headers: { 'x-constancia': 'true' } });
    expect(refused.status).toBe(402);
    expect(refused.headers.get('x-constancia-motivo')).toBe('sin-respuesta-del-registro');

    const key = { 'idempotency-key': 'constancia-replay-0001', 'x-constancia': 'true' };
    const first = await gateway.call(route, { as: withReceipts, json, headers: key });
    const replay = await gateway.call(route, { as: withReceipts, json, headers: key });
    expect(first.headers.get('x-constancia-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get('x-constancia-motivo')).toBe('repeticion');
  });
});

describe('a bulk job sent with constancias: true', () => {
  it('gives each found row the receipt of the answer a single lookup would have had, and the others none', async () => {
    const identifiers = [gateway.sample.individual.nit, gateway.sample.unknownNit, 'no-es-nit'];
    const submit = (as: TestIntegration, key: string) =>
      gateway.call('/api/lotes', { as, json: { catalogo: 'omisos', identificadores: identifiers, constancias: true }, headers: { 'idempotency-key': key } });
    const refused = await submit(withoutReceipts, 'lote-constancias-no');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: BULK_MESSAGES.constanciasNotEnabled });

    const created = await submit(withReceipts, 'lote-constancias-si');
    expect(created.status).toBe(202);
    const jobId = (created.body as { id: string; constancias: boolean }).id;
    expect(created.body).toMatchObject({ constancias: true });
    // The same key and list without receipts is another request.
    const without = await gateway.call('/api/lotes', { as: withReceipts, json: { catalogo: 'omisos', identificadores: identifiers }, headers: { 'idempotency-key': 'lote-constancias-si' } });
    expect(without.status).toBe(400);

    await untilJob(gateway, withReceipts, jobId, (job) => job.estado === 'completado', `job ${jobId} completed`);
    const response = await fetch(`${gateway.app.baseUrl}/api/lotes/${jobId}/resultados`, { headers: { ...credentialHeaders(withReceipts), accept: 'application/x-ndjson' } });
    const rows = (await response.text()).trim().split('\n').map((line) => JSON.parse(line) as { estado: string; datos: unknown; request_id: string | null; constancia_id: string | null; constancia_url: string | null });
    expect(rows.map((row) => row.estado)).toEqual(['encontrado', 'no_encontrado', 'invalido']);
    expect(rows.slice(1).map((row) => [row.constancia_id, row.constancia_url])).toEqual([[null, null], [null, null]]);

    const [found] = rows;
    expect(found!.constancia_url).toBe(`${gateway.app.baseUrl}/api/constancias/${found!.constancia_id}`);
    const stored = (await get(found!.constancia_url!, credentialHeaders(withReceipts))).body as { constancia: string };
    const { payload } = await compactVerify(stored.constancia, createLocalJWKSet((await get('/.well-known/jwks.json')).body as JSONWebKeySet));
    const receipt = JSON.parse(new TextDecoder().decode(payload));
    expect(receipt).toMatchObject({
      solicitud: { requestId: found!.request_id, integracion: withReceipts.nombre, consulta: '/api/catalogos/omisos', cuerpo: { nit: gateway.sample.individual.nit } },
      respuesta: { estado: 200, cuerpo: { data: found!.datos } },
    });
    // The bytes a single lookup answers: its body is JSON of { data }.
    expect(receipt.respuesta.cuerpoSha256).toBe(createHash('sha256').update(JSON.stringify({ data: found!.datos })).digest('hex'));
    expect(await verify(stored.constancia)).toMatchObject({ valida: true });
  });
});

describe('its PDF and the public page its QR code leads to', () => {
  it('GET with Accept: application/pdf gives the «Constancia de consulta», whose QR code opens /verificar, which says it is valid', async () => {
    const route = ALL_ROUTES[2];
    const asked = await gateway.call(route, { as: withReceipts, json: validRequestBody(route, gateway.sample), headers: { 'x-constancia': 'true' } });
    const id = asked.headers.get('x-constancia-id')!;
    const url = asked.headers.get('x-constancia-url')!;
    const response = await fetch(url, { headers: { ...credentialHeaders(withReceipts), accept: 'application/pdf' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="constancia-${id}.pdf"`);
    const pdf = Buffer.from(await response.arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const { constancia } = (await get(url, credentialHeaders(withReceipts))).body as { constancia: string };
    const origin = JSON.parse(Buffer.from(constancia.split('.')[1]!, 'base64url').toString()).emisor.url as string;
    const address = `${origin}/verificar?constancia=${id}`;
    expect(qrModulesOfPdf(pdf)).toEqual(qrModulesOf(address));

    // The page at that address (on this app), in Spanish.
    const page = await fetch(`${gateway.app.baseUrl}/verificar?constancia=${id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Constancia válida');
    expect(html).toContain(id);
    const unknown = await (await fetch(`${gateway.app.baseUrl}/verificar?constancia=00000000-0000-4000-8000-000000000000`)).text();
    expect(unknown).toContain('No encontramos una constancia con ese código');
  });
});

describe('the offline scripts of docs/constancias.md', () => {
  it('say VÁLIDA for a receipt and NO VÁLIDA for it tampered, in Node (jose) and in Python, from the published keys alone', async () => {
    const route = ALL_ROUTES[1];
    const asked = await gateway.call(route, { as: withReceipts, json: validRequestBody(route, gateway.sample), headers: { 'x-constancia': 'true' } });
    const { constancia } = (await get(asked.headers.get('x-constancia-url')!, credentialHeaders(withReceipts))).body as { constancia: string };
    const jwks = (await get('/.well-known/jwks.json')).body;
    const scratch = await mkdtemp(path.join(tmpdir(), 'constancia-scripts-'));
    const run = promisify(execFile);
    try {
      const files = { receipt: path.join(scratch, 'constancia.jws'), tampered: path.join(scratch, 'alterada.jws'), keys: path.join(scratch, 'jwks.json') };
      const [header, body, signature] = constancia.split('.') as [string, string, string];
      await writeFile(files.receipt, constancia);
      await writeFile(files.tampered, `${header}.${body.slice(0, 30)}${body[30] === 'A' ? 'B' : 'A'}${body.slice(31)}.${signature}`);
      await writeFile(files.keys, JSON.stringify(jwks));
      for (const command of [['node', 'examples/constancias/verificar.mjs'], ['python3', 'examples/constancias/verificar.py']] as const) {
        const valid = await run(command[0], [command[1], files.receipt, files.keys]);
        expect(valid.stdout, command[1]).toContain(`VÁLIDA: ${route} respondió 200`);
        const refused = await run(command[0], [command[1], files.tampered, files.keys]).then(
          () => ({ code: 0, stdout: '' }),
          (error: { code: number; stdout: string }) => error,
        );
        expect(refused.code, command[1]).toBe(1);
        expect(refused.stdout, command[1]).toContain('NO VÁLIDA');
      }
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});

describe('the public log', () => {
  it('publishes no head before the sequencer signs one, and answers its proofs’ bad queries with 400', async () => {
    const head = await get('/api/constancias/registro');
    expect([200, 404]).toContain(head.status);
    expect((await get('/api/constancias/registro/consistencia?desde=0&hasta=x')).status).toBe(400);
    expect((await get('/api/constancias/registro/inclusion?hoja=zz&tamano=1')).status).toBe(400);
  });
});
