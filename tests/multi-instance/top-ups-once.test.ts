// Issue 34's top-ups happen once, whichever instance each click reaches (two built instances on one
// PostgreSQL and Redis, behind a balancer that does not pin a browser to an instance):
//   (a) one pending request approved at the same moment by two administrators, each signed in on
//       both instances, through the console's own action on "Recargas pendientes": the balance is
//       credited once with one movement, `ledger:verify` finds no difference, and every other
//       click is told the request was already resolved;
//   (b) one deposit (bank and reference) reported at the same moment through the portal's
//       Recargas form on both instances, by two people of one integration and by a person of
//       another, each typing its punctuation, spaces and case their own way: one report is taken,
//       every other one gets the duplicate message.
// The request row's lock and the unique index on a pending or approved bank reference (its letters
// and digits, as PostgreSQL keys them) are what hold this (lib/flows/top-ups/requests.ts); each
// instance's memory plays no part.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database, db } from '@/db/client';
import { topUpRequests } from '@/db/schema';
import { balanceAndLedgerSum } from '@/lib/core/billing/ledger';
import { formatQuetzales } from '@/lib/platform/money';
import { TOP_UP_MESSAGES } from '@/lib/flows/top-ups/messages';
import { referenceKey } from '@/lib/flows/top-ups/requests';
import { startSimulator, type RunningSimulator } from '@/simulator/index';
import { startApp, type RunningApp } from '../support/app-server';
import { runCli } from '../support/cli';
import { depositDaysAgo } from '../support/deposit-dates';
import { addPortalMember, consoleSignedIn, newConsoleUser, portalSignedIn } from '../support/people';
import { says, type PortalClient } from '../support/portal-client';
import { slipPng } from '../support/slip-png';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { newIntegration, requiredEnv, twoInstanceEnv, type TestIntegration } from './support';

/** Rounds of each race: one lost race in a few would pass a single round by luck. */
const ROUNDS = 4;
/** Clicks on "Aprobar y acreditar" per administrator and instance, in each round. */
const CLICKS_EACH = 3;
const AMOUNT = { typed: '1,250.50', centavos: 125_050 };
const TAKEN = 'La administración lo revisará';
const stamp = Date.now().toString(36).toUpperCase();

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let instances: RunningApp[] = [];
let first: TestIntegration;
let second: TestIntegration;
/** Per person, a session on each instance (index 0 and 1). */
const portal: Record<'billingA' | 'ownerA' | 'billingB', PortalClient[]> = { billingA: [], ownerA: [], billingB: [] };
const administrators: PortalClient[][] = [];

const member = (integration: TestIntegration) => ({ id: integration.id, nombre: integration.headers['x-integracion-login']!, token: integration.headers['x-integracion-token']! });

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0, latencyMs: 0 });
  // No money before the approvals: every movement of `first` after that is theirs.
  first = await newIntegration(1, 0);
  second = await newIntegration(1, 0);
  const people = { billingA: `pagos-a-${stamp}@example.com`, ownerA: `duena-a-${stamp}@example.com`, billingB: `pagos-b-${stamp}@example.com` };
  await addPortalMember(member(first), people.billingA, 'facturacion');
  await addPortalMember(member(first), people.ownerA, 'propietario');
  await addPortalMember(member(second), people.billingB, 'facturacion');
  const staff = [await newConsoleUser(`admin-1-${stamp}@example.com`, 'admin'), await newConsoleUser(`admin-2-${stamp}@example.com`, 'admin')];
  const env = twoInstanceEnv(testDatabase, simulator);
  instances = await Promise.all([startApp({ env }), startApp({ env })]);
  for (const app of instances) {
    for (const [person, email] of Object.entries(people) as Array<[keyof typeof people, string]>) portal[person].push(await portalSignedIn(app.baseUrl, email));
  }
  for (const account of staff) administrators.push(await Promise.all(instances.map((app) => consoleSignedIn(app.baseUrl, account))));
}, PROCESS_TEST_TIMEOUT_MS * 2);

afterAll(async () => {
  await Promise.all(instances.map((app) => app.stop()));
  await simulator?.close();
  await testDatabase?.cleanup();
});

/** The portal's Recargas form sent as React sends it (the slip as a file), each click with a submission key of its own. */
const report = (person: PortalClient, reference: string) =>
  person.serverActionWithFiles(
    '/portal/recargas',
    'reportTopUpAction',
    { banco: 'BI', referencia: reference, fecha: depositDaysAgo(7), monto: AMOUNT.typed, envio: crypto.randomUUID() },
    { boleta: new Blob([new Uint8Array(slipPng())], { type: 'image/png' }) },
  );

const requestsWith = async (reference: string) =>
  (await db()).select().from(topUpRequests).where(and(eq(topUpRequests.bank, 'BI'), eq(topUpRequests.referenceKey, referenceKey(reference))));

async function movementsOf(integrationId: number): Promise<Array<{ kind: string; amount: number; note: string | null }>> {
  const rows = await (await database()).rows<{ kind: string; amount_centavos: string | number; note: string | null }>(
    sql`select kind, amount_centavos, note from ledger_entries where integration_id = ${integrationId}::integer order by id`,
  );
  return rows.map((row) => ({ kind: row.kind, amount: Number(row.amount_centavos), note: row.note }));
}

describe('top-ups on two instances', { timeout: PROCESS_TEST_TIMEOUT_MS * 2 }, () => {
  it('approved by two administrators at once on both instances, a request is credited once, with one movement, and every other click is told it was already resolved', async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const reference = `APR-${stamp}-${round}`;
      expect(says(await report(portal.billingA[round % 2]!, reference), TAKEN)).toBe(true);
      const [request] = await requestsWith(reference);
      const before = await balanceAndLedgerSum(first.id);
      // Every click leaves at once: each administrator's sessions on both instances, several each.
      const clicks = administrators.flatMap((sessions) => sessions.flatMap((session) => Array.from({ length: CLICKS_EACH }, () => session)));
      const answers = await Promise.all(
        clicks.map((session) => session.serverAction('/admin/recargas', 'approveTopUpRequestAction', { solicitud: String(request!.id), envio: crypto.randomUUID() })),
      );
      expect(answers.map((answer) => answer.status)).toEqual(clicks.map(() => 200));
      const credited = answers.filter((answer) => says(answer, `Recarga de ${formatQuetzales(AMOUNT.centavos)} acreditada`));
      const resolved = answers.filter((answer) => says(answer, TOP_UP_MESSAGES.decided));
      expect({ round, credited: credited.length, resolved: resolved.length }).toEqual({ round, credited: 1, resolved: clicks.length - 1 });
      expect(await balanceAndLedgerSum(first.id)).toEqual({
        balanceCentavos: before.balanceCentavos + AMOUNT.centavos,
        ledgerSumCentavos: before.balanceCentavos + AMOUNT.centavos,
      });
      const [approved] = await requestsWith(reference);
      expect(approved!.state).toBe('approved');
    }
    // One movement per request, each naming its deposit; nothing else moved.
    const movements = await movementsOf(first.id);
    expect(movements.map((movement) => [movement.kind, movement.amount])).toEqual(Array.from({ length: ROUNDS }, () => ['top_up', AMOUNT.centavos]));
    for (let round = 1; round <= ROUNDS; round++) expect(movements.filter((movement) => movement.note?.includes(`referencia APR-${stamp}-${round},`))).toHaveLength(1);
    // What an operator runs to reconcile: the balance is the ledger's sum, and nothing differs.
    const verified = await runCli(['ledger:verify', '--integration', member(first).nombre], testDatabase.env);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout.trim()).toMatch(/^Libro mayor verificado: 1 integración, \d+ movimientos?, sin diferencias \([\d.]+ s\)\.$/);
  });

  it('the same deposit reported at once on both instances, by two people of one integration and a person of another, is taken once; the others read the duplicate message', async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      // Typed by each as a person would, punctuation, spaces and case aside: the same bank reference.
      const reference = `DUP-${stamp}-${round}`;
      const typed = [reference, `dup ${stamp.toLowerCase()}.${round}`, `DUP${stamp}${round}`];
      const reporters = [portal.billingA, portal.ownerA, portal.billingB].flatMap((sessions, person) => sessions.map((session) => ({ session, typed: typed[person]! })));
      const answers = await Promise.all(reporters.map(({ session, typed: text }) => report(session, text)));
      expect(answers.map((answer) => answer.status)).toEqual(reporters.map(() => 200));
      const taken = answers.filter((answer) => says(answer, TAKEN));
      const duplicates = answers.filter((answer) => says(answer, TOP_UP_MESSAGES.duplicate));
      expect({ round, taken: taken.length, duplicates: duplicates.length }).toEqual({ round, taken: 1, duplicates: reporters.length - 1 });
      const stored = await requestsWith(reference);
      expect(stored).toHaveLength(1);
      expect(stored[0]!.state).toBe('pending');
    }
    // No report moved money, on either integration.
    for (const integration of [first, second]) {
      const { balanceCentavos, ledgerSumCentavos } = await balanceAndLedgerSum(integration.id);
      expect(balanceCentavos).toBe(ledgerSumCentavos);
    }
    expect(await movementsOf(second.id)).toEqual([]);
  });
});
