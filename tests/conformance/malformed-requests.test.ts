// docs/decisions.md "Malformed requests" (the contract lists 400 as the only status for bad bodies
// and leaves sizes open), over HTTP against the built app (startApp, through the harness): every
// malformed request is a 400 in its route's shape, never a 500, and is never recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import {
  CATALOG_ROUTES,
  createTestIntegration,
  expectErrorBody,
  readMoney,
  readRecords,
  REGISTRY_ROUTES,
  ROUTES,
  startGateway,
  type ApiAnswer,
  type ApiRequest,
  type Gateway,
  type Route,
  type TestIntegration,
} from './harness';

// The texts of docs/decisions.md "Malformed requests" and of the contract, quoted so that a changed
// text fails here.
const CATALOG_TEXTS = {
  content_type: 'El cuerpo debe enviarse como JSON con content-type: application/json.',
  too_large: 'El cuerpo de la petición es demasiado grande.',
  malformed: 'El cuerpo de la petición no es JSON válido.',
  not_an_object: 'El cuerpo de la petición debe ser un objeto JSON.',
  identifierRequired: 'Envia un NIT o un CUI para consultar.',
  identifierNotText: 'Los campos nit y cui deben enviarse como texto.',
  identifierTooLong: 'El nit o el cui es demasiado largo.',
  actualizadoNotBoolean: 'El campo actualizado debe ser true o false.',
  dateOfBirthNotText: 'El campo date_of_birth debe enviarse como texto (YYYY-MM-DD).',
  sourceRejectedData: 'Los datos de la consulta no son validos.',
} as const;
const REGISTRY_TEXTS = {
  content_type: 'Request body must be JSON sent with content-type: application/json.',
  too_large: 'Request body is too large.',
  malformed: 'Request body is not valid JSON.',
  not_an_object: 'Request body must be a JSON object.',
  identifierTooLong: 'Identifier is too long.',
  cuiRequired: 'CUI is required',
  cuiNotText: 'CUI must be a string.',
  nitNotText: 'Each NIT must be a non-empty string.',
} as const;

const MAX_BODY_BYTES = 16_384;
const START_BALANCE = 10_000;

let testDb: TestDatabase;
let gateway: Gateway;
let sender: TestIntegration;

beforeAll(async () => {
  testDb = await useTestDatabase();
  sender = await createTestIntegration('malformed-sender', { tariffCentavos: 100, balanceCentavos: START_BALANCE });
  gateway = await startGateway(testDb, {
    env: { RATE_LIMIT_CATALOG_PER_MINUTE: '1000', RATE_LIMIT_RENAP_PER_MINUTE: '1000', RATE_LIMIT_RTU_PER_MINUTE: '1000' },
  });
});

afterAll(async () => {
  await gateway?.stop();
  await testDb?.cleanup();
});

const isCatalog = (route: Route) => (CATALOG_ROUTES as readonly string[]).includes(route);
const errorKey = (route: Route) => (isCatalog(route) ? 'message' : 'error');

/** The route's text for a body problem both route families share. */
function bodyProblemText(route: Route, problem: 'content_type' | 'too_large' | 'malformed' | 'not_an_object'): string {
  return isCatalog(route) ? CATALOG_TEXTS[problem] : REGISTRY_TEXTS[problem];
}

const refused: ApiAnswer[] = [];

async function expectRefused(route: Route, request: ApiRequest, text: string): Promise<void> {
  const answer = await gateway.call(route, { as: sender, ...request });
  expectErrorBody(answer, 400, errorKey(route), text);
  refused.push(answer);
}

/** A body each route would accept, padded with an unknown field to `bytes` bytes. */
function paddedBody(route: Route, bytes: number): string {
  const base = route === ROUTES.renap ? { cui: gateway.sample.individual.cui } : route === ROUTES.rtuNits ? { nits: [gateway.sample.individual.nit] } : { nit: gateway.sample.individual.nit };
  const skeleton = JSON.stringify({ ...base, padding: '' });
  return JSON.stringify({ ...base, padding: 'x'.repeat(bytes - skeleton.length) });
}

function streamOf(text: string, chunkBytes = 1_024): ReadableStream<Uint8Array<ArrayBuffer>> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + chunkBytes));
      offset += chunkBytes;
    },
  });
}

describe('malformed requests: 400 in the route\'s shape on all five routes', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  const allRoutes = [...REGISTRY_ROUTES, ...CATALOG_ROUTES];

  it('a Content-Type other than application/json, or none', async () => {
    for (const route of allRoutes) {
      for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonp']) {
        await expectRefused(route, { contentType, rawBody: paddedBody(route, 100) }, bodyProblemText(route, 'content_type'));
      }
      // Bytes, not a string: fetch would label a string text/plain on its own.
      await expectRefused(route, { contentType: null, rawBody: new TextEncoder().encode(paddedBody(route, 100)) }, bodyProblemText(route, 'content_type'));
      const accepted = await gateway.call(route, { as: sender, contentType: 'Application/JSON; charset=utf-8', rawBody: paddedBody(route, 100) });
      expect(accepted.status).toBe(200);
    }
  });

  it(`a body larger than ${MAX_BODY_BYTES} bytes, whether it declares its length or arrives in chunks without one`, async () => {
    for (const route of allRoutes) {
      const atTheLimit = await gateway.call(route, { as: sender, rawBody: paddedBody(route, MAX_BODY_BYTES) });
      expect(atTheLimit.status).toBe(200);
      await expectRefused(route, { rawBody: paddedBody(route, MAX_BODY_BYTES + 1) }, bodyProblemText(route, 'too_large'));
      await expectRefused(route, { rawBody: streamOf(paddedBody(route, 200_000)) }, bodyProblemText(route, 'too_large'));
    }
  });

  it('a body that is not JSON, not UTF-8, or empty', async () => {
    const invalidUtf8 = new Uint8Array([0x7b, 0x22, 0x6e, 0x69, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
    for (const route of allRoutes) {
      for (const rawBody of ['{"nit": ', "{nit: '576937K'}", '', invalidUtf8]) {
        await expectRefused(route, { rawBody }, bodyProblemText(route, 'malformed'));
      }
    }
  });

  it('JSON that is not an object (deeply nested arrays included)', async () => {
    const deeplyNested = `${'['.repeat(8_000)}${']'.repeat(8_000)}`;
    for (const route of allRoutes) {
      for (const rawBody of ['[]', '["576937K"]', '"576937K"', '42', 'null', 'true', deeplyNested]) {
        await expectRefused(route, { rawBody }, bodyProblemText(route, 'not_an_object'));
      }
    }
  });
});

describe('malformed fields of the catalogs', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('deeply nested JSON without an identifier is still just a 400', async () => {
    const deeplyNested = `${'{"a":'.repeat(2_500)}1${'}'.repeat(2_500)}`;
    for (const route of CATALOG_ROUTES) await expectRefused(route, { rawBody: deeplyNested }, CATALOG_TEXTS.identifierRequired);
  });

  it('an identifier that is not text, beside a usable one', async () => {
    const { individual } = gateway.sample;
    for (const route of CATALOG_ROUTES) {
      for (const json of [{ nit: individual.nit, cui: 1587564440904 }, { cui: individual.cui, nit: true }, { nit: individual.nit, cui: [individual.cui] }, { nit: individual.nit, cui: {} }]) {
        await expectRefused(route, { json }, CATALOG_TEXTS.identifierNotText);
      }
      // Neither usable, one of them a number: the contract's own message.
      await expectRefused(route, { json: { nit: 576937 } }, CATALOG_TEXTS.identifierRequired);
    }
  });

  it('an identifier longer than 32 characters; 32 still goes to the source, which judges it', async () => {
    for (const route of CATALOG_ROUTES) {
      await expectRefused(route, { json: { nit: '1'.repeat(33) } }, CATALOG_TEXTS.identifierTooLong);
      await expectRefused(route, { json: { nit: gateway.sample.individual.nit, cui: '2'.repeat(33) } }, CATALOG_TEXTS.identifierTooLong);
      const thirtyTwo = await gateway.call(route, { as: sender, json: { nit: '1'.repeat(32) } });
      expectErrorBody(thirtyTwo, 400, 'message', CATALOG_TEXTS.sourceRejectedData);
    }
  });

  it('actualizado that is not a JSON boolean', async () => {
    for (const route of CATALOG_ROUTES) {
      for (const actualizado of ['true', 'false', 1, 0, 'si', {}]) {
        await expectRefused(route, { json: { nit: gateway.sample.individual.nit, actualizado } }, CATALOG_TEXTS.actualizadoNotBoolean);
      }
    }
  });

  it('date_of_birth that is not text, on /catalogos/rtu only (the others ignore the field entirely)', async () => {
    for (const dateOfBirth of [19850314, true, { year: 1985 }, ['1985-03-14']]) {
      await expectRefused(ROUTES.catalogRtu, { json: { nit: gateway.sample.individual.nit, date_of_birth: dateOfBirth } }, CATALOG_TEXTS.dateOfBirthNotText);
      for (const route of [ROUTES.cuiNit, ROUTES.omisos]) {
        expect((await gateway.call(route, { as: sender, json: { nit: gateway.sample.individual.nit, date_of_birth: dateOfBirth } })).status).toBe(200);
      }
    }
  });
});

describe('malformed fields of the registry routes', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('/renap/buscar-cui: cui not text, or too long', async () => {
    for (const cui of [1587564440904, true, ['1587564440904'], { cui: '1587564440904' }]) {
      await expectRefused(ROUTES.renap, { json: { cui } }, REGISTRY_TEXTS.cuiNotText);
    }
    await expectRefused(ROUTES.renap, { json: { cui: '1'.repeat(33) } }, REGISTRY_TEXTS.identifierTooLong);
    await expectRefused(ROUTES.renap, { json: { cui: '' } }, REGISTRY_TEXTS.cuiRequired);
  });

  it('/rtu/nits: a NIT that is not a non-empty string, or too long', async () => {
    const nit = gateway.sample.individual.nit;
    for (const nits of [[''], ['   '], [576937], [nit, null], [nit, { nit }], [[nit]]]) {
      await expectRefused(ROUTES.rtuNits, { json: { nits } }, REGISTRY_TEXTS.nitNotText);
    }
    await expectRefused(ROUTES.rtuNits, { json: { nits: [nit, '1'.repeat(33)] } }, REGISTRY_TEXTS.identifierTooLong);
  });
});

describe('characters PostgreSQL text cannot hold', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  const forwarded: ApiAnswer[] = [];

  it('an identifier with a NUL character is forwarded like any other, and the source\'s answer comes back (never a 500)', async () => {
    for (const route of CATALOG_ROUTES) {
      const answer = await gateway.call(route, { as: sender, json: { nit: '576937\u0000K' } });
      expectErrorBody(answer, 400, 'message', CATALOG_TEXTS.sourceRejectedData);
      forwarded.push(answer);
    }
    const renap = await gateway.call(ROUTES.renap, { as: sender, json: { cui: '1587564440904\u0000' } });
    expect({ status: renap.status, body: renap.body }).toMatchObject({ status: 400, body: { success: false, responseCode: 400 } });
    const rtu = await gateway.call(ROUTES.rtuNits, { as: sender, json: { nits: ['576937K\u0000'] } });
    expect({ status: rtu.status, body: rtu.body }).toMatchObject({ status: 200, body: { success: true, data: [] } });
    forwarded.push(renap, rtu);
  });

  it('those queries are recorded (the NUL stored as U+FFFD), their holds settled, and no malformed request was recorded', async () => {
    const { records, money } = await gateway.withDatabase(async (handle) => ({ records: await readRecords(handle, sender.id), money: await readMoney(handle, sender.id) }));
    const byRequestId = new Map(records.map((record) => [record.requestId, record]));
    for (const answer of forwarded) expect(byRequestId.get(answer.requestId)?.httpStatus).toBe(answer.status);
    expect(byRequestId.get(forwarded[0]!.requestId)?.nit).toBe('576937\uFFFDK');
    expect(refused.filter((answer) => byRequestId.has(answer.requestId))).toEqual([]);
    expect(refused.length).toBeGreaterThan(100);

    const holds = money.ledger.filter((entry) => entry.kind === 'hold').length;
    const settlements = money.ledger.filter((entry) => entry.kind === 'capture' || entry.kind === 'void').length;
    expect(settlements).toBe(holds);
    expect(money.ledgerSumCentavos).toBe(money.balanceCentavos);
  });
});
