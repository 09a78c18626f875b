// Isolation is the portal's first requirement (issue 33, point 5). A black-box suite against the
// built app: the people of integration A try every portal page, download and server action with
// integration B's ids (people, invitations, sessions, statements, FEL invoices, online payments, query records,
// request ids), and a console administrator's and a support user's sessions try the whole portal,
// while a portal session tries the whole console. Nothing of B is ever read or changed, and an id of B is answered
// exactly as an id that does not exist, so the answer does not tell whether B's object exists.
//
// The pages, downloads and actions are found, not listed: every page.tsx and route.ts under
// app/portal and app/admin, and every server action the build registered under app/portal. A new
// dynamic page or a new action fails here until this file says which of B's ids to try on it, so
// nothing is added to the portal without being tried across integrations.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import {
  alertDeliveries,
  autoTopUps,
  bulkJobs,
  integrationNotificationOptOuts,
  integrations,
  integrationTokens,
  invoiceReversals,
  invoices,
  ledgerEntries,
  portalInvitations,
  portalSessions,
  portalTwoFactor,
  portalUsers,
  queryRecords,
  monthlyStatements,
  onlinePayments,
  topUpRequests,
  watchLists,
} from '@/db/schema';
import type { Actor } from '@/lib/core/audit/audit';
import { ACTION_MESSAGES } from '@/lib/flows/auth/action';
import { adjustBalance, topUp } from '@/lib/core/billing/ledger';
import { guatemalanMonthOf } from '@/lib/platform/time/guatemala-time';
import { setAllowedNetworks, setConstancias } from '@/lib/flows/integration-management/service';
import { formatQuetzales } from '@/lib/platform/money';
import { monthPeriod } from '@/lib/flows/statements/figures';
import { issueStatement } from '@/lib/flows/statements/statements';
import { reportTopUp } from '@/lib/flows/top-ups/requests';
import { createWatchList } from '@/lib/flows/watch-lists';
import { createTestIntegration, credentialHeaders, ROUTES, startGateway, TEST_ACTOR, untilJob, validRequestBody, type Gateway, type TestIntegration } from '../conformance/harness';
import { REPO_ROOT } from '../support/child-env';
import { depositDaysAgo } from '../support/deposit-dates';
import { addPortalMember, consoleSignedIn, invitePortalMember, newConsoleUser, portalSignedIn } from '../support/people';
import type { PortalClient } from '../support/portal-client';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const STAFF: Actor = { kind: 'user', id: 4243, email: 'cajero.aislamiento@servicio.example' };
/**
 * An id no table holds, in each shape the portal takes ids in. The request id is as long as the
 * service's (req_ and 20 hex digits): a page echoes the id asked for, and React splits its flight
 * data into rows by length (3,200 characters), so ids of different lengths could give answers that
 * differ in where a row ends, not in what they say.
 */
const UNKNOWN = { number: 2_000_000_000, uuid: '00000000-0000-4000-8000-000000000000', requestId: 'req_00000000000000000000', bulkJobId: 'lote_00000000000000000000', watchListId: 'vig_00000000000000000000', onlinePaymentId: 'recarga-00000000-0000-4000-8000-000000000000' } as const;

/** B's deposit slip: a PNG's signature and a text only B's slip holds. */
const SLIP_OF_B = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new TextEncoder().encode('BOLETA-SECRETA-B')]);

const people = {
  ownerA: 'duena-aislada-a@example.com',
  developerA: 'dev-aislado-a@example.com',
  billingA: 'conta-aislada-a@example.com',
  ownerB: 'duena-secreta-b@example.com',
  developerB: 'dev-secreto-b@example.com',
  billingB: 'conta-secreta-b@example.com',
  pendingB: 'pendiente-secreta-b@example.com',
} as const;

let testDatabase: TestDatabase;
let gateway: Gateway;
let integrationA: TestIntegration;
let integrationB: TestIntegration;
let consoleAdmin: { email: string; password: string };
let consoleSupport: { email: string; password: string };

/** B's objects, each an id A might put in an address or an action. */
interface ObjectsOfB {
  userIds: number[];
  invitationIds: number[];
  sessionPublicIds: string[];
  statementIds: number[];
  recordIds: number[];
  requestIds: string[];
  tokenIds: number[];
  topUpRequestIds: number[];
  /** B's bulk jobs (issue 35), by their public ids. */
  bulkJobIds: string[];
  /** B's watch lists (Vigilancia, issue 35), by their public ids. */
  watchListIds: string[];
  /** B's notices sent to its webhook ("Reenviar" in Notificaciones). */
  deliveryIds: number[];
  /** B's FEL invoices (Facturas, issue 53): one certified, one still pending. */
  invoiceIds: number[];
  /** B's online top-ups (Pagar en línea), by our ids. */
  onlinePaymentIds: string[];
}
let objectsOfB: ObjectsOfB;
/** The NIT B looked up (A never did). */
let nitOfB: string;
/** Texts that only B's pages could show. */
let markersOfB: string[];

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integrationA = await createTestIntegration('portal-aislado-a', { balanceCentavos: 10_000, tariffCentavos: 150 });
  integrationB = await createTestIntegration('portal-secreto-b', { balanceCentavos: 9_876_543, tariffCentavos: 275 });
  expect((await topUp(STAFF, integrationA.id, 2_500, 'Depósito de A')).ok).toBe(true);
  expect((await topUp(STAFF, integrationB.id, 4_321_987, 'Depósito secreto de B en el Banco Industrial')).ok).toBe(true);
  expect((await adjustBalance(STAFF, integrationB.id, -1_111, 'Corrección secreta de B')).ok).toBe(true);
  expect((await setAllowedNetworks(TEST_ACTOR, integrationB.id, ['198.51.100.77', '127.0.0.1'])).ok).toBe(true);
  for (const [email, role] of [
    [people.ownerA, 'propietario'],
    [people.developerA, 'desarrollador'],
    [people.billingA, 'facturacion'],
    [people.ownerB, 'propietario'],
    [people.developerB, 'desarrollador'],
    [people.billingB, 'facturacion'],
    [people.pendingB, 'facturacion'],
  ] as const) {
    const integration = email.includes('-a@') ? integrationA : integrationB;
    // B's pending invitation: invited, never accepted.
    if (email === people.pendingB) await invitePortalMember(integration, email, role);
    else await addPortalMember(integration, email, role, `Persona ${email.split('@')[0]}`);
  }
  // B keeps constancias of its lookups (issue 68): A must not get B's PDF by B's request id.
  expect((await setConstancias(TEST_ACTOR, integrationB.id, true)).ok).toBe(true);
  consoleAdmin = await newConsoleUser('admin-aislamiento@example.com', 'admin', { name: 'Administración' });
  consoleSupport = await newConsoleUser('soporte-aislamiento@example.com', 'support', { name: 'Soporte' });
  gateway = await startGateway(testDatabase, { env: { TRUSTED_PROXY_HOPS: '1', RATE_LIMIT_SIGN_IN_PER_MINUTE: '500' } });

  // B's traffic: charged lookups, a replay of one, and a refusal that names B (a wrong token).
  const requestIds: string[] = [];
  const body = validRequestBody(ROUTES.cuiNit, gateway.sample);
  nitOfB = String(body.nit);
  for (const headers of [{ 'idempotency-key': 'aislamiento-b-1', 'x-constancia': 'true' }, { 'idempotency-key': 'aislamiento-b-1' }, { 'x-constancia': 'true' }] as Record<string, string>[]) {
    const answer = await gateway.call(ROUTES.cuiNit, { as: integrationB, json: body, headers });
    expect(answer.status).toBe(200);
    requestIds.push(answer.headers.get('x-request-id')!);
  }
  const refused = await fetch(`${gateway.app.baseUrl}${ROUTES.cuiNit}`, {
    method: 'POST',
    headers: { ...credentialHeaders({ ...integrationB, token: `${integrationB.token}x` }), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(refused.status).toBe(401);
  requestIds.push(refused.headers.get('x-request-id')!);

  // B's bulk job, run to its end first so that B's rows stay still while A tries it.
  const submitted = await gateway.call('/api/lotes', { as: integrationB, json: { catalogo: 'cui-nit', identificadores: [nitOfB] }, headers: { 'idempotency-key': 'lote-secreto-b' } });
  expect(submitted.status, submitted.text).toBe(202);
  const bulkJobOfB = (submitted.body as { id: string }).id;
  await untilJob(gateway, integrationB, bulkJobOfB, (job) => job.estado === 'completado', 'B’s bulk job completed');

  // A's statement and B's, for the running month issued as if it had ended.
  const month = guatemalanMonthOf(new Date());
  const afterMonth = new Date(monthPeriod(month).until.getTime() + 86_400_000);
  objectsOfB = await gateway.withDatabase(async () => {
    for (const integration of [integrationA, integrationB]) {
      const issued = await issueStatement(TEST_ACTOR, integration.id, month, afterMonth);
      if (!issued.ok) throw new Error(issued.error.message);
    }
    const database = await db();
    const users = await database.select({ id: portalUsers.id }).from(portalUsers).where(eq(portalUsers.integrationId, integrationB.id));
    const userIds = users.map((row) => row.id);
    // B's reported deposit, with its slip (issue 34, point 3).
    const [billingB] = await database.select().from(portalUsers).where(eq(portalUsers.email, people.billingB));
    const reported = await reportTopUp(
      { id: billingB!.id, role: 'facturacion', integrationId: integrationB.id, actor: { kind: 'integrator', id: billingB!.id, email: billingB!.email, integrationId: integrationB.id, integrationName: integrationB.nombre } },
      { bank: 'BAM', reference: 'BOLETA-SECRETA-B', depositDate: depositDaysAgo(25), amountCentavos: 3_141_592, slip: SLIP_OF_B },
    );
    if (!reported.ok) throw new Error(reported.error.message);
    // B's online top-up, a transfer still pending, written as the flow leaves one.
    const onlinePaymentOfB = `recarga-${randomUUID()}`;
    await database.insert(onlinePayments).values({
      id: onlinePaymentOfB,
      integrationId: integrationB.id,
      startedBy: billingB!.id,
      amountCentavos: 2_718_281,
      feeCentavos: 12_345,
      provider: 'recurrente',
      checkoutId: 'ch_secreto_b',
      checkoutUrl: 'https://app.recurrente.com/checkout-session/ch_secreto_b',
      providerPaymentId: 'pa_secreto_b',
      state: 'pending_transfer',
      expiresAt: new Date(Date.now() + 3_600_000),
      pendingSince: new Date(),
    });
    // B's card payment, credited, and the automatic top-up that charges its card.
    const cardPaymentOfB = `recarga-${randomUUID()}`;
    const [depositOfB] = await database.select({ id: ledgerEntries.id }).from(ledgerEntries).where(eq(ledgerEntries.integrationId, integrationB.id)).orderBy(ledgerEntries.id).limit(1);
    await database.insert(onlinePayments).values({
      id: cardPaymentOfB,
      integrationId: integrationB.id,
      startedBy: billingB!.id,
      amountCentavos: 1_234_567,
      provider: 'recurrente',
      checkoutId: 'ch_tarjeta_secreta_b',
      providerPaymentId: 'pa_tarjeta_secreta_b',
      state: 'credited',
      ledgerEntryId: depositOfB!.id,
      expiresAt: new Date(Date.now() + 3_600_000),
      settledAt: new Date(),
    });
    const [ownerOfB] = await database.select({ id: portalUsers.id }).from(portalUsers).where(eq(portalUsers.email, people.ownerB));
    await database.insert(autoTopUps).values({
      integrationId: integrationB.id,
      state: 'paused',
      paymentMethodId: 'pay_m_secreto_b',
      sourcePaymentId: cardPaymentOfB,
      thresholdCentavos: 7_654_321,
      amountCentavos: 1_234_567,
      dailyMax: 3,
      pausedReason: 'declined: RECHAZO-SECRETO-B',
      pausedAt: new Date(),
      configuredBy: ownerOfB!.id,
    });
    // B's watch list, saved paused in the same transaction: no run of it starts while A tries it.
    const watchListOfB = await database.transaction(async (tx) => {
      const created = await createWatchList(integrationB.id, { name: 'Vigilancia secreta de B', catalog: 'omisos', schedule: 'semanal', nits: [nitOfB] }, tx);
      if (created.kind !== 'created') throw new Error('B’s watch list was not saved');
      await tx.update(watchLists).set({ state: 'en_pausa' }).where(eq(watchLists.publicId, created.list.publicId));
      return created.list.publicId;
    });
    // A notice B's webhook received, written as the outbox writes one once sent. Its id is large on
    // purpose: a small one would also be the number of a line of the flight answers compared below.
    const deliveryOfB = 424_242;
    await database.execute(
      sql`insert into alert_deliveries (id, alert_id, condition, integration_id, audience, recipient, channel, target, payload, status, attempts) overriding system value values (${deliveryOfB}, 'aviso-secreto-b', 'test', ${integrationB.id}, 'integrator', 'webhook', 'webhook', 'https://b.example/avisos', '{"id":"aviso-secreto-b"}', 'sent', 1)`,
    );
    // FEL invoices of A's and B's top-ups, written as the worker leaves them: B's certified one with
    // its XML, and a pending one (A's app runs with FEL off: none is certified here while A tries).
    // B's ids are as long as the unknown one they are compared with (a page echoes the id in its
    // flight data, whose rows React splits by length), and large, as the notice's above.
    const invoiceOf = async (integrationId: number, entryId: number, totalCentavos: number, numbers?: { uuid: string; serie: string; numero: string; xml: string }, id?: number) => {
      if (id !== undefined) await database.execute(sql`select setval(pg_get_serial_sequence('invoices', 'id'), ${id - 1}::integer)`);
      const [row] = await database
        .insert(invoices)
        .values({
          ledgerEntryId: entryId,
          integrationId,
          documentType: 'FACT',
          emittedAt: new Date(),
          totalCentavos,
          taxableCentavos: Math.round(totalCentavos / 1.12),
          taxCentavos: totalCentavos - Math.round(totalCentavos / 1.12),
          receptorKind: 'cf',
          receptorId: 'CF',
          ...(numbers ? { state: 'certified' as const, uuid: numbers.uuid, serie: numbers.serie, numero: numbers.numero, certifiedAt: new Date(), certifiedXml: numbers.xml, certifier: 'infile' } : {}),
        })
        .returning({ id: invoices.id });
      return row!.id;
    };
    const topUpsOf = async (integrationId: number) =>
      (await database.select({ id: ledgerEntries.id }).from(ledgerEntries).where(eq(ledgerEntries.integrationId, integrationId)).orderBy(ledgerEntries.id)).map((row) => row.id);
    const [firstOfA] = await topUpsOf(integrationA.id);
    await invoiceOf(integrationA.id, firstOfA!, 10_000, { uuid: 'AAAA0000-1111-4222-8333-444455556666', serie: 'AAAA0000', numero: '4369', xml: '<dte:GTDocumento>factura de A</dte:GTDocumento>' });
    const [firstOfB, secondOfB] = await topUpsOf(integrationB.id);
    const invoiceIds = [
      await invoiceOf(integrationB.id, firstOfB!, 4_321_987, { uuid: 'B0B0B0B0-1111-4222-8333-444455556666', serie: 'B0B0B0B0', numero: '286331153', xml: '<dte:GTDocumento>FACTURA-SECRETA-B</dte:GTDocumento>' }, 1_424_242_421),
      await invoiceOf(integrationB.id, secondOfB!, 9_876_543),
    ];
    expect(invoiceIds).toEqual([1_424_242_421, 1_424_242_422]);
    // B's certified invoice has a certified credit note with its XML, as the worker leaves one.
    await database.insert(invoiceReversals).values({
      invoiceId: invoiceIds[0]!,
      integrationId: integrationB.id,
      kind: 'credit_note',
      reason: 'Nota secreta de B',
      requestedAt: new Date(),
      amountCentavos: 4_321_987,
      ledgerEntryId: secondOfB!,
      requestedBy: 'system:facturacion',
      state: 'done',
      uuid: 'B1B1B1B1-1111-4222-8333-444455556666',
      serie: 'B1B1B1B1',
      numero: '123456789',
      certifiedXml: '<dte:GTDocumento>NOTA-SECRETA-B</dte:GTDocumento>',
      doneAt: new Date(),
    });
    await database.update(invoices).set({ reversal: 'credited' }).where(eq(invoices.id, invoiceIds[0]!));
    return {
      onlinePaymentIds: [onlinePaymentOfB, cardPaymentOfB],
      invoiceIds,
      deliveryIds: [deliveryOfB],
      userIds,
      topUpRequestIds: [reported.value.id],
      invitationIds: (await database.select({ id: portalInvitations.id }).from(portalInvitations).where(eq(portalInvitations.integrationId, integrationB.id))).map((row) => row.id),
      sessionPublicIds: (await database.select({ id: portalSessions.publicId }).from(portalSessions).where(inArray(portalSessions.userId, userIds))).map((row) => row.id),
      statementIds: (await database.select({ id: monthlyStatements.id }).from(monthlyStatements).where(eq(monthlyStatements.integrationId, integrationB.id))).map((row) => row.id),
      recordIds: (await database.select({ id: queryRecords.id }).from(queryRecords).where(eq(queryRecords.integrationId, integrationB.id))).map((row) => Number(row.id)),
      requestIds,
      bulkJobIds: [bulkJobOfB],
      watchListIds: [watchListOfB],
      tokenIds: (await database.select({ id: integrationTokens.id }).from(integrationTokens).where(eq(integrationTokens.integrationId, integrationB.id))).map((row) => row.id),
    };
  });
  const [tokenB] = await gateway.withDatabase(async () => (await db()).select({ prefix: integrationTokens.tokenPrefix }).from(integrationTokens).where(eq(integrationTokens.integrationId, integrationB.id)));
  markersOfB = [
    integrationB.nombre,
    ...[people.ownerB, people.developerB, people.billingB, people.pendingB],
    ...[people.ownerB, people.developerB, people.billingB].map((email) => `Persona ${email.split('@')[0]}`),
    'Depósito secreto de B',
    'Corrección secreta de B',
    'BOLETA-SECRETA-B',
    formatQuetzales(3_141_592),
    formatQuetzales(9_876_543 + 4_321_987 - 1_111),
    formatQuetzales(4_321_987),
    '198.51.100.77',
    tokenB!.prefix,
    ...requestIds,
    bulkJobOfB,
    'Vigilancia secreta de B',
    ...objectsOfB.watchListIds,
    'aviso-secreto-b',
    'B0B0B0B0',
    'FACTURA-SECRETA-B',
    'B1B1B1B1',
    'NOTA-SECRETA-B',
    formatQuetzales(7_654_321),
    'RECHAZO-SECRETO-B',
    ...objectsOfB.onlinePaymentIds,
    'ch_secreto_b',
    'pa_secreto_b',
    formatQuetzales(2_718_281),
  ];
  expect(objectsOfB.sessionPublicIds.length).toBeGreaterThanOrEqual(3);
  expect(objectsOfB.recordIds.length).toBeGreaterThanOrEqual(2);
}, PROCESS_TEST_TIMEOUT_MS * 2);

afterAll(async () => {
  await gateway?.stop();
  await testDatabase?.cleanup();
});

// ---------------------------------------------------------------------------------------------
// What the app has: every page and download under a folder, and every portal server action

interface AppRoute {
  /** The address pattern, route groups left out: /portal/estados/[id]/pdf. */
  pattern: string;
  kind: 'page' | 'download';
}

function appRoutes(folder: string): AppRoute[] {
  const found: AppRoute[] = [];
  const walk = (directory: string, segments: string[]) => {
    for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        const inAddress = /^\(.*\)$/.test(entry.name) ? segments : [...segments, entry.name];
        walk(path.join(directory, entry.name), inAddress);
      } else if (entry.name === 'page.tsx' || entry.name === 'route.ts') {
        found.push({ pattern: `/${segments.join('/')}`, kind: entry.name === 'page.tsx' ? 'page' : 'download' });
      }
    }
  };
  walk(path.join(REPO_ROOT, 'app', folder), [folder]);
  return found.sort((a, b) => a.pattern.localeCompare(b.pattern));
}

/** The server actions the build the tests run registered under app/portal, by exported name. */
function portalActionNames(): string[] {
  const manifestPath = path.join(REPO_ROOT, process.env.NEXT_DIST_DIR || '.next', 'server', 'server-reference-manifest.json');
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as { node: Record<string, { exportedName?: string; filename?: string }> };
  const names = Object.values(manifest.node)
    .filter((entry) => entry.filename?.startsWith('app/portal/'))
    .map((entry) => entry.exportedName!);
  return [...new Set(names)].sort();
}

/**
 * Which of B's ids each dynamic portal address takes. A dynamic page or download that is not here
 * fails the suite: say which of B's objects its segment names, and it is tried with all of them.
 */
const IDS_OF_DYNAMIC_ROUTES: Record<string, (objects: ObjectsOfB) => (number | string)[]> = {
  '/portal/estados/[id]/pdf': (objects) => objects.statementIds,
  '/portal/estados/[id]/csv': (objects) => objects.statementIds,
  '/portal/consultas/[solicitud]': (objects) => objects.requestIds,
  // Posted with a reason (its own test below); a GET is refused alike for B's ids and unknown ones.
  '/portal/consultas/[solicitud]/constancia': (objects) => objects.requestIds,
  '/portal/recargas/[id]/boleta': (objects) => objects.topUpRequestIds,
  '/portal/recargas/pagos/[pago]': (objects) => objects.onlinePaymentIds,
  '/portal/lotes/[id]': (objects) => objects.bulkJobIds,
  '/portal/lotes/[id]/resultados': (objects) => objects.bulkJobIds,
  '/portal/vigilancia/[id]': (objects) => objects.watchListIds,
  '/portal/vigilancia/[id]/cambios': (objects) => objects.watchListIds,
  '/portal/facturas/[id]': (objects) => objects.invoiceIds,
  '/portal/facturas/[id]/xml': (objects) => objects.invoiceIds,
  '/portal/facturas/[id]/pdf': (objects) => objects.invoiceIds,
  '/portal/facturas/[id]/nota-de-credito/xml': (objects) => objects.invoiceIds,
  '/portal/facturas/[id]/nota-de-credito/pdf': (objects) => objects.invoiceIds,
};

/**
 * Every portal server action and what to send it. Those that take an id get B's ids, each beside an
 * id that does not exist; those that take none act only on the caller's own session or on a secret
 * code (of an invitation or a reset link), which A cannot name for B, and are tried by the other
 * suites (tests/portal/portal-access.test.ts, lib/surfaces/portal/*.test.ts).
 */
const PORTAL_ACTIONS: Record<string, { page: string; inputs: (objects: ObjectsOfB) => Record<string, unknown>[] } | { withoutIds: string }> = {
  removePortalMemberAction: { page: '/portal/equipo', inputs: (objects) => objects.userIds.map((miembro) => ({ miembro })) },
  passPortalMemberToProviderAction: { page: '/portal/equipo', inputs: (objects) => objects.userIds.map((miembro) => ({ miembro })) },
  setPortalMemberRoleAction: { page: '/portal/equipo', inputs: (objects) => objects.userIds.flatMap((miembro) => ['propietario', 'facturacion'].map((rol) => ({ miembro, rol }))) },
  cancelPortalInvitationAction: { page: '/portal/equipo', inputs: (objects) => objects.invitationIds.map((invitacion) => ({ invitacion })) },
  resendPortalInvitationAction: { page: '/portal/equipo', inputs: (objects) => objects.invitationIds.map((invitacion) => ({ invitacion })) },
  endOwnPortalSessionAction: { page: '/portal/cuenta', inputs: (objects) => objects.sessionPublicIds.map((sesion) => ({ sesion })) },
  revealPortalRecordAction: { page: '/portal/consultas', inputs: (objects) => objects.requestIds.map((solicitud) => ({ solicitud, motivo: 'Ticket 4521 del cliente' })) },
  rotatePortalTokenAction: { page: '/portal/credenciales', inputs: (objects) => objects.tokenIds.flatMap((tokenId) => ['none', '24h'].map((superposicion) => ({ tokenId, superposicion }))) },
  cancelPortalBulkJobAction: { page: '/portal/lotes', inputs: (objects) => objects.bulkJobIds.map((lote) => ({ lote })) },
  estimatePortalBulkJobAction: { withoutIds: 'reads an uploaded file for the caller’s own integration; no job exists yet (tests/portal/portal-bulk-jobs.test.ts)' },
  pausePortalWatchListAction: { page: '/portal/vigilancia', inputs: (objects) => objects.watchListIds.map((vigilancia) => ({ vigilancia })) },
  resumePortalWatchListAction: { page: '/portal/vigilancia', inputs: (objects) => objects.watchListIds.map((vigilancia) => ({ vigilancia })) },
  deletePortalWatchListAction: { page: '/portal/vigilancia', inputs: (objects) => objects.watchListIds.map((vigilancia) => ({ vigilancia })) },
  editPortalWatchListNitsAction: { page: '/portal/vigilancia', inputs: (objects) => objects.watchListIds.map((vigilancia) => ({ vigilancia, agregar: '576937-K', quitar: '' })) },
  setPortalWatchListConstanciasAction: {
    page: '/portal/vigilancia',
    inputs: (objects) => objects.watchListIds.flatMap((vigilancia) => ['si', 'no'].map((constancias) => ({ vigilancia, constancias }))),
  },
  revealPortalWatchListChangeAction: {
    page: '/portal/vigilancia',
    inputs: (objects) => objects.watchListIds.flatMap((vigilancia) => ['2.0.omiso', '1.0.registro'].map((cambio) => ({ vigilancia, cambio, motivo: 'Ticket 4521 del cliente' }))),
  },
  estimatePortalWatchListAction: { withoutIds: 'reads an uploaded file for the caller’s own integration; no list exists yet (tests/portal/portal-watch-lists.test.ts)' },
  createPortalWatchListAction: { withoutIds: 'saves a list in the caller’s own integration; B’s lists are checked unchanged below (tests/portal/portal-watch-lists.test.ts)' },
  createPortalBulkJobAction: { withoutIds: 'creates a job in the caller’s own integration; B’s jobs are checked unchanged below (tests/portal/portal-bulk-jobs.test.ts)' },
  revokePortalTokenAction: { page: '/portal/credenciales', inputs: (objects) => objects.tokenIds.map((tokenId) => ({ tokenId })) },
  createPortalTokenAction: { withoutIds: 'creates a token in the caller’s own integration, whatever else it is sent (tests/portal/portal-credentials.test.ts)' },
  setPortalAllowListAction: { withoutIds: 'replaces the caller’s own integration’s allow-list; B’s is checked unchanged below (tests/portal/portal-credentials.test.ts)' },
  setPortalContactsAction: { withoutIds: 'the caller’s own integration’s contacts; an integrationId sent is ignored, B’s kept unchanged (tests/portal/portal-notifications.test.ts)' },
  setPortalWebhookAction: { withoutIds: 'the caller’s own integration’s webhook; an integrationId sent is ignored, B’s kept unchanged (tests/portal/portal-notifications.test.ts)' },
  removePortalWebhookAction: { withoutIds: 'the caller’s own integration’s webhook (tests/portal/portal-notifications.test.ts)' },
  setPortalNotificationEnabledAction: { withoutIds: 'the caller’s own integration’s recipients; B’s opt-outs are checked unchanged below (tests/portal/portal-notifications.test.ts)' },
  resendPortalNotificationAction: { page: '/portal/notificaciones', inputs: (objects) => objects.deliveryIds.map((entrega) => ({ entrega })) },
  sendPortalTestNotificationAction: { withoutIds: 'to the caller’s own integration’s webhook (tests/portal/portal-notifications.test.ts)' },
  cancelTopUpRequestAction: { page: '/portal/recargas', inputs: (objects) => objects.topUpRequestIds.map((solicitud) => ({ solicitud })) },
  quoteOnlineTopUpAction: { withoutIds: 'a quote for an amount; reads only whether the caller’s own integration has a NIT (tests/invoices/portal-billing-profile.test.ts)' },
  lookUpBillingReceptorAction: { withoutIds: 'checks a typed NIT or CUI and asks SAT for its name; reads nothing of any integration (tests/invoices/portal-billing-profile.test.ts)' },
  saveBillingReceptorAction: { withoutIds: 'saves the caller’s own integration’s receptor: the session names it, the input has no id (tests/invoices/portal-billing-profile.test.ts)' },
  saveBillingContactPortalAction: { withoutIds: 'saves the caller’s own integration’s fiscal address and invoice e-mail: the session names it, the input has no id (tests/invoices/portal-billing-profile.test.ts)' },
  cancelOnlineTopUpAction: { page: '/portal/recargas', inputs: (objects) => objects.onlinePaymentIds.map((pago) => ({ pago })) },
  startOnlineTopUpAction: { withoutIds: 'starts a payment for the caller’s own integration; B’s online payments are checked unchanged below (tests/portal/portal-online-top-ups.test.ts)' },
  enableAutoTopUpAction: {
    page: '/portal/recargas/automatica',
    inputs: (objects) => objects.onlinePaymentIds.map((pago) => ({ pago, umbral: '200.00', monto: '500.00', maximo: '2' })),
  },
  disableAutoTopUpAction: { withoutIds: 'turns off the caller’s own integration’s automatic top-up; B’s is checked unchanged below (lib/flows/auto-top-ups/auto-top-ups.test.ts)' },
  reportTopUpAction: { withoutIds: 'reports a deposit for the caller’s own integration; a bank reference of B is refused as any taken one, without naming B (lib/flows/top-ups/requests.test.ts)' },
  invitePortalMemberAction: { withoutIds: 'invites into the caller’s own integration; an address of B is refused only when its link is opened (lib/surfaces/portal/portal.test.ts)' },
  savePortalIdentityProviderAction: { withoutIds: 'saves the caller’s own integration’s identity provider: the session names it; a domain of B is refused as taken (lib/flows/portal-identity/identity-provider.test.ts)' },
  removePortalIdentityProviderAction: { withoutIds: 'removes the caller’s own integration’s identity provider: the session names it (lib/flows/portal-identity/identity-provider.test.ts)' },
  changePortalPasswordAction: { withoutIds: 'the caller’s own password' },
  startPortalEnrolmentAction: { withoutIds: 'the caller’s own second factor' },
  confirmPortalEnrolmentAction: { withoutIds: 'the caller’s own second factor' },
  regeneratePortalRecoveryCodesAction: { withoutIds: 'the caller’s own second factor' },
  disablePortalTwoFactorAction: { withoutIds: 'the caller’s own second factor' },
  portalSignInAction: { withoutIds: 'signs in by address and password' },
  companySignInAction: { withoutIds: 'an address, whose domain names the company’s provider; the sign-in then belongs to whoever the provider says (tests/multi-instance/portal-sso.test.ts)' },
  portalSignOutAction: { withoutIds: 'ends the caller’s own session' },
  verifyPortalSecondFactorAction: { withoutIds: 'the code of the caller’s own pending sign-in' },
  acceptInvitationAction: { withoutIds: 'a secret single-use code, never an id' },
  requestResetAction: { withoutIds: 'an address; answers the same for any address (lib/surfaces/portal/security.test.ts)' },
  completeResetAction: { withoutIds: 'a secret single-use code, never an id' },
};

/** The same id in the shape `id` has that no table holds. */
function unknownLike(id: number | string): number | string {
  if (typeof id === 'number') return UNKNOWN.number;
  if (id.startsWith('req_')) return UNKNOWN.requestId;
  if (id.startsWith('lote_')) return UNKNOWN.bulkJobId;
  if (id.startsWith('vig_')) return UNKNOWN.watchListId;
  if (id.startsWith('recarga-')) return UNKNOWN.onlinePaymentId;
  return UNKNOWN.uuid;
}

/** An answer with what differs by nature between two requests taken out (nonces, the id asked for). */
function normalized(text: string, ids: (number | string)[]): string {
  let result = text
    .replace(/nonce="[^"]*"/g, 'nonce=""')
    // In the flight data, plain or escaped inside a script's string.
    .replace(/(\\?"nonce\\?":\\?")[^"\\]*/g, '$1')
    // A posted NIT's reference: random per search.
    .replace(/bq_[A-Za-z0-9_-]+/g, 'bq_«referencia»');
  // Whole tokens only: a small number also occurs inside the build's id and other random text.
  for (const id of ids) result = result.replace(new RegExp(`(?<![\\w-])${String(id).replaceAll('-', '\\-')}(?![\\w-])`, 'g'), '«id»');
  return result;
}

/** A server action's return value in its flight answer (the line `1:…`, after its `1:`). */
function actionAnswer(flight: string): string {
  const line = flight.split('\n').find((candidate) => candidate.startsWith('1:'));
  if (!line) throw new Error(`no action answer in ${flight.slice(0, 300)}`);
  // Without its marker: an id of 1 would be read in it.
  return line.slice('1:'.length);
}

// ---------------------------------------------------------------------------------------------
// What B has, read straight from the database: it must be the same after every attempt

async function stateOfB(): Promise<unknown> {
  return gateway.withDatabase(async () => {
    const database = await db();
    const users = await database.select().from(portalUsers).where(eq(portalUsers.integrationId, integrationB.id)).orderBy(portalUsers.id);
    const userIds = users.map((row) => row.id);
    return {
      integration: await database.select().from(integrations).where(eq(integrations.id, integrationB.id)),
      users,
      invitations: await database.select().from(portalInvitations).where(eq(portalInvitations.integrationId, integrationB.id)).orderBy(portalInvitations.id),
      sessions: (await database.select({ publicId: portalSessions.publicId, userId: portalSessions.userId, secondFactorAt: portalSessions.secondFactorAt }).from(portalSessions).where(inArray(portalSessions.userId, userIds))).sort((a, b) => a.publicId.localeCompare(b.publicId)),
      twoFactor: await database.select().from(portalTwoFactor).where(inArray(portalTwoFactor.userId, userIds)),
      tokens: await database
        .select({ id: integrationTokens.id, revokedAt: integrationTokens.revokedAt, expiresAt: integrationTokens.expiresAt, replacedById: integrationTokens.replacedById })
        .from(integrationTokens)
        .where(eq(integrationTokens.integrationId, integrationB.id))
        .orderBy(integrationTokens.id),
      ledger: await database.select().from(ledgerEntries).where(eq(ledgerEntries.integrationId, integrationB.id)).orderBy(ledgerEntries.id),
      statements: await database.select({ id: monthlyStatements.id }).from(monthlyStatements).where(eq(monthlyStatements.integrationId, integrationB.id)),
      topUpRequests: await database.select().from(topUpRequests).where(eq(topUpRequests.integrationId, integrationB.id)).orderBy(topUpRequests.id),
      bulkJobs: await database.select().from(bulkJobs).where(eq(bulkJobs.integrationId, integrationB.id)).orderBy(bulkJobs.id),
      watchLists: await database.select().from(watchLists).where(eq(watchLists.integrationId, integrationB.id)).orderBy(watchLists.id),
      notificationOptOuts: await database.select().from(integrationNotificationOptOuts).where(eq(integrationNotificationOptOuts.integrationId, integrationB.id)),
      deliveries: await database.select({ id: alertDeliveries.id }).from(alertDeliveries).where(eq(alertDeliveries.integrationId, integrationB.id)).orderBy(alertDeliveries.id),
      invoices: await database.select().from(invoices).where(eq(invoices.integrationId, integrationB.id)).orderBy(invoices.id),
      onlinePayments: await database.select().from(onlinePayments).where(eq(onlinePayments.integrationId, integrationB.id)).orderBy(onlinePayments.id),
      autoTopUps: await database.select().from(autoTopUps).where(eq(autoTopUps.integrationId, integrationB.id)),
    };
  });
}

/** `sent`: what the request itself carried (an id typed into a search is echoed back; that tells nothing). */
function expectNothingOfB(text: string, where: string, sent: (number | string)[] = []): void {
  for (const marker of markersOfB) {
    if (sent.map(String).includes(marker)) continue;
    expect(text.includes(marker), `${where} shows ${marker}, which is B's`).toBe(false);
  }
}

/** The address of a portal route for its static pattern, or with `id` in its dynamic segment. */
function addressOf(pattern: string, id?: number | string): string {
  return pattern.replace(/\[[^\]]+\]/, String(id ?? ''));
}

describe('the portal’s pages and downloads, as each of A’s roles', { timeout: PROCESS_TEST_TIMEOUT_MS * 2 }, () => {
  it('every dynamic address has B’s ids to try', () => {
    const dynamic = appRoutes('portal').filter((route) => route.pattern.includes('['));
    expect(dynamic.length).toBeGreaterThan(0);
    for (const route of dynamic) expect(Object.keys(IDS_OF_DYNAMIC_ROUTES), `${route.pattern} is not tried with B's ids: add it to IDS_OF_DYNAMIC_ROUTES`).toContain(route.pattern);
  });

  it('never show B’s data, and answer B’s ids exactly as ids that do not exist', async () => {
    const before = await stateOfB();
    for (const email of [people.ownerA, people.developerA, people.billingA]) {
      const person = await portalSignedIn(gateway.app.baseUrl, email);
      for (const route of appRoutes('portal')) {
        if (!route.pattern.includes('[')) {
          const answer = await person.request(route.pattern);
          expect(answer.status, `${email} ${route.pattern}`).toBeLessThan(500);
          expectNothingOfB(answer.text, `${email} ${route.pattern}`);
          continue;
        }
        for (const id of IDS_OF_DYNAMIC_ROUTES[route.pattern]!(objectsOfB)) {
          const [ofB, unknown] = [await person.request(addressOf(route.pattern, id)), await person.request(addressOf(route.pattern, unknownLike(id)))];
          const where = `${email} ${route.pattern} with B's ${id}`;
          expectNothingOfB(ofB.text, where, [id]);
          expect(ofB.status, where).toBe(unknown.status);
          expect(ofB.status, where).toBeGreaterThanOrEqual(300);
          expect(normalized(ofB.text, [id]), where).toBe(normalized(unknown.text, [unknownLike(id)]));
        }
      }
    }
    expect(await stateOfB()).toEqual(before);
  });
});

describe('Consultas’ search form, as A’s owner and developer', { timeout: PROCESS_TEST_TIMEOUT_MS * 2 }, () => {
  /** Posts the search as the page's form does and follows where it sends (within the portal). */
  async function search(person: PortalClient, identificador: string): Promise<{ location: string; status: number; text: string }> {
    const posted = await person.post('/portal/consultas/buscar', {}, { identificador, consulta: '', estado: '', desde: '', hasta: '' });
    expect(posted.status, identificador).toBe(303);
    const location = posted.location!;
    expect(location.startsWith('/portal/'), location).toBe(true);
    const landed = await person.request(location);
    return { location, status: landed.status, text: landed.text };
  }

  it('answers B’s request ids and B’s NIT exactly as unknown ones, and shows nothing of B', async () => {
    for (const email of [people.ownerA, people.developerA]) {
      const person = await portalSignedIn(gateway.app.baseUrl, email);
      const tries: [string, string][] = [...objectsOfB.requestIds.map((id) => [id, UNKNOWN.requestId] as [string, string]), [nitOfB, '1000000K']];
      for (const [ofB, unknown] of tries) {
        const [answerOfB, answerUnknown] = [await search(person, ofB), await search(person, unknown)];
        const where = `${email} searching ${ofB}`;
        expectNothingOfB(answerOfB.text, where, [ofB]);
        expect(answerOfB.status, where).toBe(answerUnknown.status);
        expect(normalized(answerOfB.location, [ofB]), where).toBe(normalized(answerUnknown.location, [unknown]));
        expect(normalized(answerOfB.text, [ofB]), where).toBe(normalized(answerUnknown.text, [unknown]));
      }
    }
  });
});

describe('the portal’s server actions, as A’s owner and developer', { timeout: PROCESS_TEST_TIMEOUT_MS * 2 }, () => {
  it('every action the build registered says what it is tried with', () => {
    const names = portalActionNames();
    expect(names).toContain('removePortalMemberAction');
    for (const name of names) expect(Object.keys(PORTAL_ACTIONS), `${name} is not tried across integrations: add it to PORTAL_ACTIONS`).toContain(name);
  });

  it('answer B’s ids exactly as ids that do not exist, show nothing of B and change nothing of B', async () => {
    const before = await stateOfB();
    // The owner may use every action; the developer those of credentials and records (issue 34:
    // a developer of A rotating or revoking B's token gets the answer of a token that does not exist).
    const [ownerA, developerA] = [await portalSignedIn(gateway.app.baseUrl, people.ownerA), await portalSignedIn(gateway.app.baseUrl, people.developerA)];
    let tried = 0;
    for (const person of [ownerA, developerA]) {
      for (const [name, action] of Object.entries(PORTAL_ACTIONS)) {
        if ('withoutIds' in action) continue;
        for (const input of action.inputs(objectsOfB)) {
          const ids = Object.values(input).filter((value) => typeof value === 'number' || /^[0-9a-f-]{36}$|^req_|^lote_|^vig_|^recarga-/.test(String(value))) as (number | string)[];
          const unknownInput = Object.fromEntries(Object.entries(input).map(([key, value]) => [key, ids.includes(value as number | string) ? unknownLike(value as number | string) : value]));
          const ofB = await person.serverAction(action.page, name, input);
          const unknown = await person.serverAction(action.page, name, unknownInput);
          const where = `${person === ownerA ? 'owner' : 'developer'} ${name}(${JSON.stringify(input)})`;
          expectNothingOfB(ofB.text, where, ids);
          expect(ofB.status, where).toBe(unknown.status);
          // The action's own answer (the flight's line 1); the page it may render beside it carries
          // random keys per render, and is checked above for B's data.
          expect(normalized(actionAnswer(ofB.text), ids), where).toBe(normalized(actionAnswer(unknown.text), ids.map(unknownLike)));
          tried += 1;
        }
      }
    }
    expect(tried).toBeGreaterThanOrEqual(20);
    expect(await stateOfB()).toEqual(before);
    // A's own sessions still work: nothing above signed A's people out.
    for (const person of [ownerA, developerA]) expect((await person.request('/portal')).status).toBe(200);
  });
});

describe('a query\'s constancia, posted for its PDF', () => {
  it('answers B\'s request ids exactly as ids that do not exist, for A\'s owner and developer, and logs nothing for them', async () => {
    const before = await stateOfB();
    const [ownerA, developerA] = [await portalSignedIn(gateway.app.baseUrl, people.ownerA), await portalSignedIn(gateway.app.baseUrl, people.developerA)];
    for (const person of [ownerA, developerA]) {
      for (const requestId of objectsOfB.requestIds) {
        const post = (id: string) =>
          person.request(`/portal/consultas/${id}/constancia`, {
            method: 'POST',
            body: new URLSearchParams({ motivo: 'Expediente del cliente 4821' }),
            headers: { origin: new URL(gateway.app.baseUrl).origin },
          });
        const [ofB, unknown] = [await post(requestId), await post(String(unknownLike(requestId)))];
        const where = `${person === ownerA ? 'owner' : 'developer'} constancia of ${requestId}`;
        expectNothingOfB(ofB.text, where, [requestId]);
        expect(ofB.status, where).toBe(404);
        expect(ofB.status, where).toBe(unknown.status);
        expect(normalized(ofB.text, [requestId]), where).toBe(normalized(unknown.text, [String(unknownLike(requestId))]));
      }
    }
    expect(await stateOfB()).toEqual(before);
  });
});

describe('console sessions against the portal, and portal sessions against the console', { timeout: PROCESS_TEST_TIMEOUT_MS * 2 }, () => {
  it('an administrator and a support user open no signed-in portal page, download or action', async () => {
    const signedInRoutes = appRoutes('portal').filter((route) => fs.existsSync(path.join(REPO_ROOT, 'app', 'portal', '(sesion)', ...route.pattern.split('/').slice(2))) || route.pattern === '/portal');
    expect(signedInRoutes.length).toBeGreaterThan(5);
    for (const account of [consoleAdmin, consoleSupport]) {
      const staff = await consoleSignedIn(gateway.app.baseUrl, account);
      for (const route of signedInRoutes) {
        const ids = route.pattern.includes('[') ? IDS_OF_DYNAMIC_ROUTES[route.pattern]!(objectsOfB) : [undefined];
        for (const id of ids) {
          const answer = await staff.request(addressOf(route.pattern, id));
          const where = `${account.email} ${route.pattern}`;
          expect(answer.status, where).not.toBe(200);
          expectNothingOfB(answer.text, where, id === undefined ? [] : [id]);
          expect(answer.text, where).not.toContain(integrationA.nombre);
        }
      }
      for (const [name, action] of Object.entries(PORTAL_ACTIONS)) {
        if ('withoutIds' in action) continue;
        for (const input of action.inputs(objectsOfB).slice(0, 1)) {
          const answer = await staff.serverAction(action.page, name, input);
          expect(answer.text, `${account.email} ${name}`).toContain(ACTION_MESSAGES.signedOut);
        }
      }
    }
  });

  it('a portal session opens no console page or download, for any of A’s roles', async () => {
    const routes = appRoutes('admin').filter((route) => !/^\/admin\/(login|cambiar-contrasena|verificacion|activar-verificacion)/.test(route.pattern));
    expect(routes.length).toBeGreaterThan(20);
    for (const email of [people.ownerA, people.developerA, people.billingA]) {
      const person = await portalSignedIn(gateway.app.baseUrl, email);
      for (const route of routes) {
        const address = route.pattern.replaceAll(/\[[^\]]+\]/g, String(integrationA.id));
        const where = `${email} ${address}`;
        // A download that sends a GET back to its page (a redirect within the console) is followed:
        // that page must refuse too.
        let answer = await person.request(address);
        const withinConsole = () => [303, 307].includes(answer.status) && /^\/admin(?!\/login)/.test(answer.headers.get('location') ?? '');
        for (let hops = 0; hops < 4 && withinConsole(); hops += 1) {
          expectNothingOfB(answer.text, where);
          answer = await person.request(answer.headers.get('location')!);
        }
        expect([303, 307, 401, 404, 405], where).toContain(answer.status);
        if (answer.status === 303 || answer.status === 307) expect(answer.headers.get('location'), where).toMatch(/^\/admin\/login/);
        expectNothingOfB(answer.text, where);
      }
    }
  });
});
