// kill -9 of one of two instances while both issue constancias (issue 68): every receipt an answer
// named leads to a receipt, read from the other instance, that verifies with the published keys
// alone; the indexes the killed instance took and never wrote become holes, filled by the
// surviving instance's own sequencer, which then signs a head over every receipt written; each
// answered receipt's inclusion proof verifies against that head; every receipt was charged its
// tariff once, none was charged without its receipt, and the ledger reconciles.
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { database } from '@/db/client';
import { balanceAndLedgerSum } from '@/lib/core/billing/ledger';
import { verifyLedger } from '@/lib/core/billing/verify';
import { setConstanciaTariff, setConstancias } from '@/lib/flows/integration-management/service';
import { leafHash, verifyInclusion } from '@/lib/platform/transparency/merkle';
import { startSimulator, type RunningSimulator } from '@/simulator/index';
import { SHOWCASE_MEMBER } from '@/simulator/population';
import { startApp, type RunningApp } from '../support/app-server';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { newIntegration, requiredEnv, servedBy, TEST_ACTOR, twoInstanceEnv, type TestIntegration } from './support';

const LOOKUP_TARIFF = 100;
const RECEIPT_TARIFF = 25;
/** Lookups each instance keeps in flight, one after another on each. */
const ASKERS_PER_INSTANCE = 6;
const ASKING_BEFORE_KILL_MS = 2_000;
const ASKING_AFTER_KILL_MS = 1_500;
/** The sequencer fills a hole 30 s after a later receipt (lib/core/constancias/log.ts), then signs at its next run. */
const HEAD_COVERS_ALL_WITHIN_MS = 75_000;

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let killed: RunningApp | undefined;
let survivor: RunningApp | undefined;
let integration: TestIntegration;

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  testDatabase = await useTestDatabase();
  // Each lookup waits on its source a little, so the kill finds some there, some signing and
  // writing, some answering.
  simulator = await startSimulator({ port: 0, latencyMs: 20 });
  // Heads every 5 s (the least allowed), so the test waits on the holes' 30 s, not on a head.
  const env = twoInstanceEnv(testDatabase, simulator, {
    CONSTANCIA_HEAD_INTERVAL_SECONDS: '5',
    // Each answered receipt is read twice through the account API's own limit.
    ACCOUNT_API_PER_MINUTE: '100000',
  });
  [killed, survivor] = await Promise.all([startApp({ env }), startApp({ env })]);
  integration = await newIntegration(LOOKUP_TARIFF, 10_000_000);
  expect((await setConstancias(TEST_ACTOR, integration.id, true)).ok).toBe(true);
  expect((await setConstanciaTariff(TEST_ACTOR, integration.id, RECEIPT_TARIFF)).ok).toBe(true);
  await servedBy([killed, survivor], integration);
});

afterAll(async () => {
  await survivor?.stop();
  await killed?.stop();
  await simulator?.close();
  await testDatabase?.cleanup();
});

interface Answer {
  instance: 'killed' | 'survivor';
  status: number | 'connection lost';
  requestId?: string;
  constanciaId?: string | null;
  motivo?: string | null;
}

const LOOKUPS = [
  { path: '/api/renap/buscar-cui', body: { cui: SHOWCASE_MEMBER.cui } },
  { path: '/api/catalogos/omisos', body: { nit: SHOWCASE_MEMBER.nit } },
];

/** One asker: lookups with x-constancia: true, one after another, until `until()` says stop or its instance is gone. */
async function keepAsking(app: RunningApp, instance: Answer['instance'], until: () => boolean, answers: Answer[]): Promise<void> {
  for (let n = 0; !until(); n++) {
    const lookup = LOOKUPS[n % LOOKUPS.length]!;
    try {
      const response = await fetch(`${app.baseUrl}${lookup.path}`, {
        method: 'POST',
        headers: { ...integration.headers, 'x-constancia': 'true' },
        body: JSON.stringify(lookup.body),
      });
      await response.arrayBuffer();
      answers.push({
        instance,
        status: response.status,
        requestId: response.headers.get('x-request-id') ?? undefined,
        constanciaId: response.headers.get('x-constancia-id'),
        motivo: response.headers.get('x-constancia-motivo'),
      });
    } catch {
      answers.push({ instance, status: 'connection lost' });
      return;
    }
  }
}

/** What GET /api/constancias/{id} and GET /api/constancias/registro answer, as far as this test reads them. */
interface ReadBody {
  constancia: string;
  registro: { indice: number; estado: string; cabeza: string; tamano: number; prueba: string[] };
  tamano: number;
}

async function readJson(app: RunningApp, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: ReadBody }> {
  const response = await fetch(`${app.baseUrl}${path}`, { headers });
  return { status: response.status, body: (await response.json()) as ReadBody };
}

const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'));

it('every answered receipt verifies and is in a head the survivor signs over the holes the killed instance left; each charged once', async () => {
  const answers: Answer[] = [];
  let killedAt = 0;
  let stopAt = Number.POSITIVE_INFINITY;
  const askers = [
    ...Array.from({ length: ASKERS_PER_INSTANCE }, () => keepAsking(killed!, 'killed', () => killedAt > 0, answers)),
    ...Array.from({ length: ASKERS_PER_INSTANCE }, () => keepAsking(survivor!, 'survivor', () => Date.now() >= stopAt, answers)),
  ];
  await new Promise((resolve) => setTimeout(resolve, ASKING_BEFORE_KILL_MS));
  process.kill(killed!.pid, 'SIGKILL');
  killedAt = Date.now();
  stopAt = killedAt + ASKING_AFTER_KILL_MS;
  await Promise.all(askers);

  // The kill came mid-way: the killed instance had answered with receipts, and lost lookups in flight.
  const answered = answers.filter((answer) => answer.status === 200);
  const fromKilled = answered.filter((answer) => answer.instance === 'killed');
  expect(fromKilled.length).toBeGreaterThan(20);
  expect(answers.filter((answer) => answer.status === 'connection lost').length).toBeGreaterThan(0);
  // Every other answer was a 200 naming its receipt; the survivor kept answering after the kill.
  expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 'connection lost')).toEqual([]);
  expect(answered.filter((answer) => !answer.constanciaId).map((answer) => answer.motivo)).toEqual([]);
  expect(answered.filter((answer) => answer.instance === 'survivor').length).toBeGreaterThan(fromKilled.length);

  // Every id an answer named leads to its receipt, read from the survivor, that verifies with the
  // published keys alone and is the receipt of that answer.
  const keys = createLocalJWKSet((await (await fetch(`${survivor!.baseUrl}/.well-known/jwks.json`)).json()) as JSONWebKeySet);
  const indexes = new Set<number>();
  const receipts = new Map<string, string>();
  for (const answer of answered) {
    const read = await readJson(survivor!, `/api/constancias/${answer.constanciaId}`, integration.headers);
    expect(read.status, `${answer.instance}: ${answer.constanciaId}`).toBe(200);
    const { payload } = await compactVerify(read.body.constancia, keys);
    const receipt = JSON.parse(new TextDecoder().decode(payload));
    expect(receipt).toMatchObject({ id: answer.constanciaId, solicitud: { requestId: answer.requestId }, respuesta: { estado: 200 } });
    indexes.add(receipt.registro.indice);
    receipts.set(answer.constanciaId!, read.body.constancia);
  }
  expect(indexes.size).toBe(answered.length);

  // The survivor's sequencer fills the killed instance's unwritten indexes with holes and signs a
  // head over every receipt written, the killed instance's unanswered ones too.
  const handle = await database();
  const [written] = await handle.rows<{ receipts: number; last: number }>(
    sql`select count(*)::int as receipts, max(leaf_index)::int as last from constancias where integration_id = ${integration.id}`,
  );
  expect(written!.receipts).toBeGreaterThanOrEqual(answered.length);
  const deadline = Date.now() + HEAD_COVERS_ALL_WITHIN_MS;
  const newestHead = () => readJson(survivor!, '/api/constancias/registro');
  let head = await newestHead();
  while (!(head.status === 200 && head.body.tamano > written!.last)) {
    if (Date.now() > deadline) throw new Error(`no head covers leaf ${written!.last} after ${HEAD_COVERS_ALL_WITHIN_MS / 1000} s: ${JSON.stringify(head.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    head = await newestHead();
  }
  const treeSize = head.body.tamano;
  const [leaves] = await handle.rows<{ leaves: number; holes: number; receipts: number }>(sql`
    select count(*)::int as leaves, count(*) filter (where hole)::int as holes,
           (select count(*)::int from constancias where leaf_index < ${treeSize}) as receipts
      from constancia_log_leaves where leaf_index < ${treeSize}`);
  // Every index under the head is a leaf: a receipt's or a hole; the holes are what instances took
  // and never wrote (a block of 32 each at most, and this file's only receipts are in this log).
  expect(leaves!.leaves).toBe(treeSize);
  expect(leaves!.receipts + leaves!.holes).toBe(treeSize);
  expect(leaves!.holes).toBeLessThan(2 * 32);

  // Each answered receipt is in a signed head, by a proof that verifies against its root.
  for (const [id, jws] of receipts) {
    const { registro } = (await readJson(survivor!, `/api/constancias/${id}`, integration.headers)).body;
    expect(registro.estado, id).toBe('incluida');
    const signedHead = JSON.parse(new TextDecoder().decode((await compactVerify(registro.cabeza, keys)).payload));
    expect(signedHead.tamano).toBe(registro.tamano);
    const included = verifyInclusion({
      leafHash: leafHash(new TextEncoder().encode(jws)),
      index: registro.indice,
      size: registro.tamano,
      proof: registro.prueba.map(bytes),
      root: bytes(signedHead.raizSha256),
    });
    expect(included, id).toBe(true);
  }

  // The money: each receipt written charged its tariff once, none charged without its receipt, and
  // the ledger reconciles (the killed instance's holds are the sweeper's; not yet stale here).
  const [charges] = await handle.rows<{ entries: number; records: number; centavos: number }>(sql`
    select count(*)::int as entries, count(distinct query_record_id)::int as records, coalesce(sum(amount_centavos), 0)::int as centavos
      from ledger_entries where integration_id = ${integration.id} and kind = 'constancia'`);
  expect(charges).toEqual({ entries: written!.receipts, records: written!.receipts, centavos: -RECEIPT_TARIFF * written!.receipts });
  const money = await balanceAndLedgerSum(integration.id);
  expect(money.balanceCentavos).toBe(money.ledgerSumCentavos);
  const verification = await verifyLedger({ integrationId: integration.id, trigger: 'cli', sweepAfterSeconds: 600 });
  expect(verification.differences).toEqual([]);
});
