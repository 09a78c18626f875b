// What a constancia costs (issue 68, point 1): an integration's receipt tariff is charged with the
// lookup that asked for it, once, as a movement of its own («Constancia de consulta»), on a registry
// as on a catalog (found or not found); where the balance does not cover it, the lookup answers as
// the contract says, without a receipt (`x-constancia-motivo: saldo-insuficiente`), and nothing is
// charged for it. Concurrent receipts never overdraw the balance, and the ledger check, the monthly
// figures and the account API all say it. Against the built app, on PGlite and on PostgreSQL.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '@/lib/core/billing/verify';
import { setConstancias, setConstanciaTariff } from '@/lib/flows/integration-management/service';
import { previewStatement, runningMonthRange } from '@/lib/flows/statements/preview';
import { statementTables } from '@/lib/flows/statements/layout';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { createTestIntegration, credentialHeaders, readMoney, ROUTES, startGateway, TEST_ACTOR, untilJob, validRequestBody, type Gateway, type TestIntegration } from '../conformance/harness';

const LOOKUP_TARIFF = 100;
const RECEIPT_TARIFF = 50;
const ASK = { 'x-constancia': 'true' };

let testDb: TestDatabase;
let gateway: Gateway;
let paying: TestIntegration;
let short: TestIntegration;
let crowded: TestIntegration;

beforeAll(async () => {
  testDb = await useTestDatabase();
  paying = await createTestIntegration('constancias-cobradas', { tariffCentavos: LOOKUP_TARIFF, balanceCentavos: 10_000 });
  // Pays one catalog lookup with its receipt and one more lookup, not that lookup's receipt.
  short = await createTestIntegration('constancias-saldo-corto', { tariffCentavos: LOOKUP_TARIFF, balanceCentavos: LOOKUP_TARIFF + RECEIPT_TARIFF + LOOKUP_TARIFF + RECEIPT_TARIFF - 1 });
  // Ten receipts' worth, for twenty asked at once.
  crowded = await createTestIntegration('constancias-a-la-vez', { tariffCentavos: 0, balanceCentavos: 10 * RECEIPT_TARIFF });
  for (const integration of [paying, short, crowded]) {
    expect((await setConstancias(TEST_ACTOR, integration.id, true)).ok).toBe(true);
    expect((await setConstanciaTariff(TEST_ACTOR, integration.id, RECEIPT_TARIFF)).ok).toBe(true);
  }
  gateway = await startGateway(testDb);
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.stop();
  await testDb?.cleanup();
});

async function account(as: TestIntegration, path: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${gateway.app.baseUrl}/api${path}`, { headers: credentialHeaders(as) });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

const balanceOf = async (as: TestIntegration) => Number((await account(as, '/cuenta')).saldo_centavos);

describe('a receipt with a tariff', () => {
  it('is charged with its lookup, once, as its own movement: a catalog found, a catalog not found, a registry', async () => {
    const start = await balanceOf(paying);
    expect((await account(paying, '/cuenta')).constancias).toEqual({ habilitadas: true, tarifa_centavos: RECEIPT_TARIFF, tarifa: '0.50' });

    const found = await gateway.call(ROUTES.cuiNit, { as: paying, json: validRequestBody(ROUTES.cuiNit, gateway.sample), headers: ASK });
    expect(found.status).toBe(200);
    expect(found.headers.get('x-constancia-id')).toBeTruthy();
    expect(await balanceOf(paying)).toBe(start - LOOKUP_TARIFF - RECEIPT_TARIFF);

    // Not found: the contract charges no lookup, and the receipt of what the registry said is charged alone.
    const notFound = await gateway.call(ROUTES.cuiNit, { as: paying, json: { nit: gateway.sample.unknownNit }, headers: ASK });
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('x-constancia-id')).toBeTruthy();
    expect(await balanceOf(paying)).toBe(start - LOOKUP_TARIFF - 2 * RECEIPT_TARIFF);

    const registry = await gateway.call(ROUTES.renap, { as: paying, json: validRequestBody(ROUTES.renap, gateway.sample), headers: ASK });
    expect(registry.status).toBe(200);
    expect(registry.headers.get('x-constancia-id')).toBeTruthy();
    expect(await balanceOf(paying)).toBe(start - LOOKUP_TARIFF - 3 * RECEIPT_TARIFF);

    // Without the header: the lookup's own tariff alone.
    const plain = await gateway.call(ROUTES.cuiNit, { as: paying, json: validRequestBody(ROUTES.cuiNit, gateway.sample) });
    expect(plain.status).toBe(200);
    expect(await balanceOf(paying)).toBe(start - 2 * LOOKUP_TARIFF - 3 * RECEIPT_TARIFF);

    // The movements say each receipt's charge in words, newest first.
    const { movimientos } = (await account(paying, '/cuenta/movimientos')) as { movimientos: Array<{ tipo: string; descripcion: string; monto_centavos: number; origen: string }> };
    expect(movimientos.slice(0, 5).map(({ tipo, descripcion, monto_centavos }) => ({ tipo, descripcion, monto_centavos }))).toEqual([
      { tipo: 'consulta_cobrada', descripcion: 'Consulta cobrada', monto_centavos: -LOOKUP_TARIFF },
      { tipo: 'constancia', descripcion: 'Constancia de consulta', monto_centavos: -RECEIPT_TARIFF },
      { tipo: 'constancia', descripcion: 'Constancia de consulta', monto_centavos: -RECEIPT_TARIFF },
      // The found lookup's charge and its receipt's are written in one statement: either order.
      expect.objectContaining({ monto_centavos: expect.any(Number) }),
      expect.objectContaining({ monto_centavos: expect.any(Number) }),
    ]);
    expect(movimientos.slice(3, 5).map((movement) => movement.tipo).sort()).toEqual(['constancia', 'consulta_cobrada']);
    const onlyReceipts = (await account(paying, '/cuenta/movimientos?tipo=constancia')) as { movimientos: Array<{ tipo: string }> };
    expect(onlyReceipts.movimientos.map((movement) => movement.tipo)).toEqual(['constancia', 'constancia', 'constancia']);

    // The books close: the ledger check finds nothing, and the month's figures say the receipts apart.
    const { money, verification, preview } = await gateway.withDatabase(async (handle) => ({
      money: await readMoney(handle, paying.id),
      verification: await verifyLedger({ trigger: 'cli', sweepAfterSeconds: 60 }),
      preview: await previewStatement(paying.id, runningMonthRange()),
    }));
    expect(money.ledgerSumCentavos).toBe(money.balanceCentavos);
    expect(money.ledger.filter((entry) => entry.kind === 'constancia').map((entry) => entry.requestId)).toEqual([found.requestId, notFound.requestId, registry.requestId]);
    expect(verification.ok).toBe(true);
    if (!preview.ok) throw new Error(`preview: ${preview.error}`);
    expect(preview.value.figures.constancias).toEqual({ count: 3, totalCentavos: 3 * RECEIPT_TARIFF, lines: [{ tariffCentavos: RECEIPT_TARIFF, count: 3, amountCentavos: 3 * RECEIPT_TARIFF }] });
    const summary = statementTables(preview.value.figures).find((table) => table.id === 'summary')!;
    expect(summary.rows).toContainEqual(['Constancias de consulta (3)', '-Q 1.50']);
  });

  it('is not issued where the balance does not cover it: the lookup answers as the contract says, and nothing is charged for it', async () => {
    const json = validRequestBody(ROUTES.cuiNit, gateway.sample);
    const first = await gateway.call(ROUTES.cuiNit, { as: short, json, headers: ASK });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-constancia-id')).toBeTruthy();
    // Left: one lookup and one centavo short of its receipt.
    const second = await gateway.call(ROUTES.cuiNit, { as: short, json, headers: ASK });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('x-constancia-id')).toBeNull();
    expect(second.headers.get('x-constancia-motivo')).toBe('saldo-insuficiente');
    expect(await balanceOf(short)).toBe(RECEIPT_TARIFF - 1);
    // A registry lookup is not charged: it answers, without the receipt the balance does not pay.
    const registry = await gateway.call(ROUTES.renap, { as: short, json: validRequestBody(ROUTES.renap, gateway.sample), headers: ASK });
    expect(registry.status).toBe(200);
    expect(registry.headers.get('x-constancia-motivo')).toBe('saldo-insuficiente');
    expect(await balanceOf(short)).toBe(RECEIPT_TARIFF - 1);
  });

  it('asked twenty times at once with ten receipts’ balance, is issued and charged ten times: never below zero', async () => {
    const json = validRequestBody(ROUTES.renap, gateway.sample);
    const answers = await Promise.all(Array.from({ length: 20 }, () => gateway.call(ROUTES.renap, { as: crowded, json, headers: ASK })));
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 20 }, () => 200));
    const issued = answers.filter((answer) => answer.headers.get('x-constancia-id') !== null);
    const refused = answers.filter((answer) => answer.headers.get('x-constancia-motivo') === 'saldo-insuficiente');
    expect([issued.length, refused.length]).toEqual([10, 10]);
    const { money, receipts } = await gateway.withDatabase(async (handle) => ({
      money: await readMoney(handle, crowded.id),
      receipts: await handle.rows<{ request_id: string }>(sqlReceiptsOf(crowded.id)),
    }));
    expect(money.balanceCentavos).toBe(0);
    expect(money.ledgerSumCentavos).toBe(0);
    expect(receipts.map((row) => row.request_id).sort()).toEqual(issued.map((answer) => answer.requestId).sort());
    expect(money.ledger.filter((entry) => entry.kind === 'constancia').map((entry) => entry.requestId).sort()).toEqual(issued.map((answer) => answer.requestId).sort());
  });
});

describe('a bulk job sent with constancias: true, with a receipt tariff', () => {
  it('charges each found row its lookup and its receipt, once, and the rows the balance no longer covers go without a receipt', async () => {
    const nits = [gateway.sample.individual.nit, gateway.sample.legalEntity.nit, gateway.sample.unknownNit];
    const before = await balanceOf(paying);
    const created = await gateway.call('/api/lotes', { as: paying, json: { catalogo: 'omisos', identificadores: nits, constancias: true }, headers: { 'idempotency-key': 'lote-con-tarifa' } });
    expect(created.status).toBe(202);
    const jobId = (created.body as { id: string }).id;
    await untilJob(gateway, paying, jobId, (job) => job.estado === 'completado', `job ${jobId} completed`);
    const response = await fetch(`${gateway.app.baseUrl}/api/lotes/${jobId}/resultados`, { headers: { ...credentialHeaders(paying), accept: 'application/x-ndjson' } });
    const rows = (await response.text()).trim().split('\n').map((line) => JSON.parse(line) as { estado: string; request_id: string | null; constancia_id: string | null });
    expect(rows.map((row) => [row.estado, row.constancia_id !== null])).toEqual([
      ['encontrado', true],
      ['encontrado', true],
      ['no_encontrado', false],
    ]);
    // Two found rows, each charged its lookup and its receipt; the row not found, neither.
    expect(await balanceOf(paying)).toBe(before - 2 * (LOOKUP_TARIFF + RECEIPT_TARIFF));
    const { money, verification } = await gateway.withDatabase(async (handle) => ({
      money: await readMoney(handle, paying.id),
      verification: await verifyLedger({ trigger: 'cli', sweepAfterSeconds: 60 }),
    }));
    const found = rows.filter((row) => row.estado === 'encontrado').map((row) => row.request_id);
    expect(money.ledger.filter((entry) => entry.kind === 'constancia' && found.includes(entry.requestId)).length).toBe(2);
    expect(verification.ok).toBe(true);
  });
});

function sqlReceiptsOf(integrationId: number) {
  return sql`select request_id from constancias where integration_id = ${integrationId}::integer`;
}
