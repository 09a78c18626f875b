// FEL invoices are certified exactly once across instances, even when one dies mid-certification:
// two built instances with FEL on share one PostgreSQL and Redis, in front of the certifier
// simulator, which certifies each document and then waits before answering (its latency fault).
// Console top-ups on both instances queue their invoices; once the certifier has certified one
// that the first instance is waiting on, that instance gets `kill -9` and is started again. Its
// invoice stays indeterminate until the lease runs out, and is then settled by the certifier's
// lookup, never sent again: the simulator counts one certification per top-up, and the console
// reads every invoice certified with the simulator's numbers. Then «Corregir receptor», sent to
// both instances at once, voids one invoice and reissues it once, though the instance waiting on
// the void is killed: the void is sent again with its identifier, the new invoice written once.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { database } from '@/db/client';
import { balanceAndLedgerSum } from '@/lib/core/billing/ledger';
import { booksFindings } from '@/lib/core/billing/books';
import { REVERSAL_MESSAGES } from '@/lib/presentation/invoice-messages';
import { formatNit } from '@/lib/flows/integration-management/details-display';
import { RECEPTOR_MESSAGES } from '@/lib/flows/invoicing/receptor';
import { FEL_SIM_RECEPTORS } from '@/simulator/fel';
import { startSimulator, type RunningSimulator } from '@/simulator/index';
import { startApp, type RunningApp } from '../support/app-server';
import { consoleSignedIn, newConsoleUser } from '../support/people';
import type { PortalClient } from '../support/portal-client';
import { says } from '../support/verify-now';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { newIntegration, requiredEnv, twoInstanceEnv, type TestIntegration } from './support';

const TOP_UPS = 6;
/** The certifier certifies at once and answers this much later: the window the kill lands in. */
const CERTIFY_LATENCY_MS = 3_000;
/** Above the latency, so a live instance hears every answer; the lease is 2 × this + 15 s. */
const CERTIFY_TIMEOUT_MS = 4_000;
const LEASE_MS = 2 * CERTIFY_TIMEOUT_MS + 15_000;

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let instances: RunningApp[] = [];
let admins: PortalClient[] = [];
let integration: TestIntegration;

type InvoiceRow = {
  id: number;
  identifier: string;
  state: string;
  lease_holder: string | null;
  uuid: string | null;
  serie: string | null;
  numero: string | null;
};

async function invoiceRows(): Promise<InvoiceRow[]> {
  return (await database()).rows<InvoiceRow>(
    sql`select id, identifier, state::text as state, lease_holder, uuid, serie, numero from invoices where integration_id = ${integration.id} order by id`,
  );
}

async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0, latencyMs: 0, fel: { faults: [{ fault: 'latency', delayMs: CERTIFY_LATENCY_MS }] } });
  integration = await newIntegration(0, 0);
  const account = await newConsoleUser(`admin-fel-${Date.now()}@example.com`, 'admin');
  const env = twoInstanceEnv(testDatabase, simulator, {
    FEL_ENABLED: 'true',
    FEL_CERTIFIER_BASE_URL: `${simulator.url}/fel`,
    FEL_NIT_LOOKUP_BASE_URL: `${simulator.url}/fel/receptores`,
    FEL_CERTIFY_TIMEOUT_MS: String(CERTIFY_TIMEOUT_MS),
    FEL_WORKER_INTERVAL_MS: '200',
  });
  instances = await Promise.all([startApp({ env }), startApp({ env })]);
  admins = await Promise.all(instances.map((app) => consoleSignedIn(app.baseUrl, account)));
}, PROCESS_TEST_TIMEOUT_MS * 2);

afterAll(async () => {
  await Promise.all(instances.map((app) => app.stop()));
  await simulator?.close();
  await testDatabase?.cleanup();
});

it('certifies every top-up exactly once when an instance is killed mid-certification', { timeout: LEASE_MS + 120_000 }, async () => {
  const [first] = instances as [RunningApp, RunningApp];
  // Top-ups through the console of either instance, each credited with its invoice.
  for (let index = 0; index < TOP_UPS; index += 1) {
    const amount = 100 + index;
    const answer = await admins[index % 2]!.serverAction(`/admin/integraciones/${integration.id}/saldo`, 'topUpAction', {
      integrationId: integration.id,
      monto: `${amount}.00`,
      nota: `Depósito ${index + 1}`,
      envio: randomUUID(),
    });
    expect(says(answer, `Recarga de Q ${amount}.00 registrada.`), answer.text.slice(0, 300)).toBe(true);
  }

  // The first instance's worker is waiting on the certifier for an invoice the certifier has
  // already certified: now it dies.
  const killedPid = first.pid;
  const held = (row: InvoiceRow) => row.state === 'indeterminate' && (row.lease_holder ?? '').includes(`:${killedPid}:`) && simulator.fel.certificationCount(row.identifier) === 1;
  const atKill = await poll(invoiceRows, (rows) => rows.some(held), 30_000, 'an invoice the first instance waits on, already certified');
  process.kill(killedPid, 'SIGKILL');
  const orphan = atKill.find(held)!;
  expect(atKill).toHaveLength(TOP_UPS);
  await first.restart();

  // The other instance, and the restarted one, settle the rest; the orphan once its lease ran out.
  const settled = await poll(invoiceRows, (rows) => rows.every((row) => row.state === 'certified'), LEASE_MS + 60_000, 'invoices not certified');
  expect(simulator.fel.certifications()).toHaveLength(TOP_UPS);
  for (const row of settled) {
    expect(simulator.fel.certificationCount(row.identifier), `invoice ${row.id}`).toBe(1);
    const certification = simulator.fel.certification(row.identifier)!;
    expect({ uuid: row.uuid, serie: row.serie, numero: row.numero }).toEqual({ uuid: certification.uuid, serie: certification.serie, numero: certification.numero });
  }
  // The orphan was looked up, not sent again.
  const calls = await (await database()).rows<{ call: string; outcome: string }>(sql`select call, outcome from invoice_attempts where invoice_id = ${orphan.id} order by id`);
  expect(calls).toEqual([{ call: 'lookup', outcome: 'found' }]);

  // The console, on either instance (the restarted one too), reads every invoice certified.
  for (const admin of admins) {
    const list = await admin.request('/admin/facturas?estado=certified');
    expect(list.status).toBe(200);
    for (const row of settled) expect(list.text).toContain(`${row.serie}-${row.numero}`);
    const pending = await admin.request('/admin/facturas?estado=indeterminate');
    expect(pending.text).not.toContain('data-testid="invoice-row"');
  }
});

it('«Corregir receptor» sent to both instances at once reissues once, the void’s instance killed mid-call; the balance never moves', { timeout: LEASE_MS + 120_000 }, async () => {
  const [EMPRESA] = FEL_SIM_RECEPTORS;
  const datos = `/admin/integraciones/${integration.id}/datos`;
  const saved = await admins[0]!.serverAction(datos, 'saveReceptorAction', { integrationId: integration.id, envio: randomUUID(), tipo: 'nit', identificador: EMPRESA!.nit, nombreMostrado: EMPRESA!.name });
  expect(says(saved, RECEPTOR_MESSAGES.saved), saved.text.slice(0, 300)).toBe(true);
  const [invoice] = await invoiceRows();
  const balanceBefore = await balanceAndLedgerSum(integration.id);
  // The certifier voids at once and answers later: the window the kill lands in.
  simulator.fel.setFaults([{ fault: 'latency', delayMs: CERTIFY_LATENCY_MS, operations: ['void', 'certify'] }]);
  const page = `/admin/facturas/${invoice!.id}`;
  const answers = await Promise.all(
    [0, 1, 0, 1].map((index) => admins[index]!.serverAction(page, 'correctReceptorAction', { invoiceId: invoice!.id, motivo: 'Receptor equivocado', envio: randomUUID() })),
  );
  expect(answers.filter((answer) => says(answer, REVERSAL_MESSAGES.correctionRequested('void', `NIT ${formatNit(EMPRESA!.nit)} · ${EMPRESA!.name}`)))).toHaveLength(1);
  expect(answers.filter((answer) => says(answer, REVERSAL_MESSAGES.correctionAlreadyRequested))).toHaveLength(3);

  type ReversalRow = { id: number; identifier: string; state: string; lease_holder: string | null; replacement_invoice_id: number | null };
  const reversals = () => database().then((handle) => handle.rows<ReversalRow>(sql`select id, identifier, state::text as state, lease_holder, replacement_invoice_id from invoice_reversals where invoice_id = ${invoice!.id}`));
  const holder = (row: ReversalRow) => instances.find((app) => row.state === 'indeterminate' && (row.lease_holder ?? '').includes(`:${app.pid}:`) && simulator.fel.certification(invoice!.identifier)?.voided);
  const atKill = await poll(reversals, (rows) => rows.some(holder), 30_000, 'a void an instance waits on, already done');
  const victim = holder(atKill[0]!)!;
  process.kill(victim.pid, 'SIGKILL');
  await victim.restart();

  const [done] = await poll(reversals, (rows) => rows[0]?.replacement_invoice_id != null, LEASE_MS + 60_000, 'the correction not done');
  expect(atKill).toHaveLength(1);
  expect(simulator.fel.voidCount(done!.identifier)).toBe(1);
  const replacing = await poll(
    () => database().then((handle) => handle.rows<{ id: number; identifier: string; state: string }>(sql`select id, identifier, state::text as state from invoices where corrects_invoice_id = ${invoice!.id}`)),
    (rows) => rows[0]?.state === 'certified',
    60_000,
    'the replacing invoice not certified',
  );
  expect(replacing.map((row) => row.id)).toEqual([done!.replacement_invoice_id]);
  expect(simulator.fel.certificationCount(replacing[0]!.identifier)).toBe(1);
  expect(simulator.fel.certification(replacing[0]!.identifier)).toMatchObject({ receptorId: EMPRESA!.nit });
  expect(await balanceAndLedgerSum(integration.id)).toEqual(balanceBefore);
  expect(await booksFindings(await database(), integration.id)).toEqual([]);
  simulator.fel.setFaults([]);
});
