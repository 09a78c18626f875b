// Consultas (issue 33, point 4) on a real database, without HTTP: the session's integration's
// records through the console's services, and nothing of another integration's, whatever is asked:
// its request ids, its traces and its NITs read exactly as ones that do not exist; identifiers are
// masked, and a reveal is written to the access log with the portal user as actor before it is shown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeAuditActor } from '@/lib/presentation/audit-labels';
import { listAccessPage } from '@/lib/core/personal-data/access-log';
import { referenceSearch } from '@/lib/core/personal-data/search-references';
import { recordUnbilledQuery } from '@/lib/core/records/write';
import { flushRequestTraces, traceRefusal, traceReplay, traceUnserved } from '@/lib/core/request-traces/buffer';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { addPortalMember } from '@/tests/support/people';
import { settledCatalogQuery } from '@/tests/support/query-records';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { portalRecordDetail, portalRecordsPage, portalRequestIdSearch, revealPortalRecordIdentifiers } from './records';
import type { PortalUserSession } from './session';
import { findPortalAccountByEmail, integratorActor } from '@/lib/flows/portal-identity/accounts';

const SHARED_NIT = '576937-K';
const CUI_A = '1587 56444 0904';

let testDatabase: TestDatabase;
let integrationA: TestIntegration;
let integrationB: TestIntegration;
let ownerA: PortalUserSession;
let ownerB: PortalUserSession;

async function member(integration: TestIntegration, email: string): Promise<PortalUserSession> {
  await addPortalMember(integration, email, 'propietario', 'Persona');
  const account = (await findPortalAccountByEmail(email))!;
  return {
    id: account.id,
    email: account.email,
    name: account.name,
    role: account.role,
    integrationId: account.integrationId,
    integrationName: account.integrationName,
    actor: integratorActor(account),
    pendingStep: null,
    sessionPublicId: 'x',
    origin: 'local',
  };
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integrationA = await createTestIntegration('consultas-a', { tariffCentavos: 150, balanceCentavos: 10_000 });
  integrationB = await createTestIntegration('consultas-b', { tariffCentavos: 150, balanceCentavos: 10_000 });
  await settledCatalogQuery(integrationA, 'req_a_ok', { status: 200, nit: SHARED_NIT });
  await settledCatalogQuery(integrationA, 'req_a_failed', { status: 502, cui: CUI_A });
  await recordUnbilledQuery({ integrationId: integrationA.id, lookup: 'renap', httpStatus: 200, responseTimeMs: 12, nit: null, cui: CUI_A, errorMessage: null, requestId: 'req_a_renap' });
  await settledCatalogQuery(integrationB, 'req_b_ok', { status: 200, nit: SHARED_NIT });
  traceRefusal({ requestId: 'req_a_402', integrationId: integrationA.id, lookup: 'omisos', reason: 'balance_exhausted' });
  traceUnserved({ requestId: 'req_a_shed', integrationId: integrationA.id, lookup: 'cui_nit', cause: 'shed' });
  traceReplay({ requestId: 'req_a_replay', integrationId: integrationA.id, lookup: 'omisos', httpStatus: 200, replayOf: 'req_a_ok' });
  traceRefusal({ requestId: 'req_b_402', integrationId: integrationB.id, lookup: 'omisos', reason: 'balance_exhausted' });
  traceReplay({ requestId: 'req_b_replay', integrationId: integrationB.id, lookup: 'omisos', httpStatus: 200, replayOf: 'req_b_ok' });
  // Wrong credentials name no integration: nobody's to read.
  traceRefusal({ requestId: 'req_nobody_401', lookup: 'omisos', reason: 'credentials_invalid' });
  await flushRequestTraces();
  ownerA = await member(integrationA, 'duena@consultas-a.example');
  ownerB = await member(integrationB, 'duena@consultas-b.example');
});
afterAll(async () => {
  await testDatabase.cleanup();
});

describe('the list', () => {
  it('lists the session’s integration’s records newest first, identifiers masked, and ignores an integration in the address', async () => {
    const page = await portalRecordsPage(ownerA, { integracion: String(integrationB.id) });
    expect(page.rows.map((row) => [row.requestId, row.lookup, row.httpStatus, row.chargedCentavos])).toEqual([
      ['req_a_renap', 'renap', 200, 0],
      ['req_a_failed', 'omisos', 502, 0],
      ['req_a_ok', 'omisos', 200, 150],
    ]);
    expect(page.rows.map((row) => [row.nit, row.cui])).toEqual([
      [null, '1587 •••• 0904'],
      [null, '1587 •••• 0904'],
      ['5769••-K', null],
    ]);
    expect(JSON.stringify(page)).not.toContain('56444');
    expect(JSON.stringify(page)).not.toContain('req_b');
  });

  it('filters by lookup and status as the console does', async () => {
    expect((await portalRecordsPage(ownerA, { consulta: 'renap' })).rows.map((row) => row.requestId)).toEqual(['req_a_renap']);
    expect((await portalRecordsPage(ownerA, { estado: '502' })).rows.map((row) => row.requestId)).toEqual(['req_a_failed']);
  });

  it('finds a NIT among the integration’s records only, through a reference only its maker opens', async () => {
    const referenceA = await referenceSearch({ portalUserId: ownerA.id }, '576937k');
    const searched = await portalRecordsPage(ownerA, { busqueda: referenceA });
    expect(searched.rows.map((row) => row.requestId)).toEqual(['req_a_ok']);
    expect(searched.reference).toBe(referenceA);
    // B's owner holding A's reference: expired, lists nothing, as a made-up one.
    const stolen = await portalRecordsPage(ownerB, { busqueda: referenceA });
    expect(stolen).toMatchObject({ rows: [], expired: true });
    expect(await portalRecordsPage(ownerB, { busqueda: 'bq_0000000000000000000000' })).toMatchObject({ rows: [], expired: true });
    // B's owner searching the same NIT sees B's record, never A's.
    const referenceB = await referenceSearch({ portalUserId: ownerB.id }, SHARED_NIT);
    expect((await portalRecordsPage(ownerB, { busqueda: referenceB })).rows.map((row) => row.requestId)).toEqual(['req_b_ok']);
  });
});

describe('a request id', () => {
  it('opens the integration’s record; a replay leads to the query it repeated', async () => {
    expect(await portalRequestIdSearch(ownerA, ' REQ_A_FAILED ')).toEqual({ kind: 'record', path: '/portal/consultas/req_a_failed' });
    expect(await portalRequestIdSearch(ownerA, 'req_a_replay')).toEqual({ kind: 'record', path: '/portal/consultas/req_a_ok?repeticion=req_a_replay' });
  });

  it('reads the integration’s refusals and unserved answers as the console’s sentence', async () => {
    const refusal = await portalRequestIdSearch(ownerA, 'req_a_402');
    expect(refusal).toMatchObject({ kind: 'trace', trace: { kind: 'refusal', reason: 'balance_exhausted', httpStatus: 402 } });
    expect(await portalRequestIdSearch(ownerA, 'req_a_shed')).toMatchObject({ kind: 'trace', trace: { kind: 'unserved', cause: 'shed', httpStatus: 502 } });
  });

  it('another integration’s record, refusal or replay, and a trace naming nobody, read as an unknown id', async () => {
    for (const requestId of ['req_b_ok', 'req_b_402', 'req_b_replay', 'req_nobody_401', 'req_never_seen']) {
      expect(await portalRequestIdSearch(ownerA, requestId), requestId).toEqual({ kind: 'unknown', requestId });
    }
    // B's owner reads B's own.
    expect(await portalRequestIdSearch(ownerB, 'req_b_ok')).toEqual({ kind: 'record', path: '/portal/consultas/req_b_ok' });
  });

  it('text that is no request id is not one', async () => {
    expect(await portalRequestIdSearch(ownerA, SHARED_NIT)).toBeUndefined();
  });
});

describe('a record’s page', () => {
  it('says what happened and that a failed query was not charged, identifiers masked', async () => {
    const detail = await portalRecordDetail(ownerA, 'req_a_failed');
    expect(detail).toMatchObject({ requestId: 'req_a_failed', httpStatus: 502, cui: '1587 •••• 0904', hasIdentifiers: true });
    expect(detail!.explanation).toContain('503');
    expect(detail!.explanation).toContain('La integración recibió 502.');
    expect(detail!.charge.notChargedBecause).toBe('Solo se cobra una respuesta 200 y esta terminó en 502: la reserva se liberó.');
    expect((await portalRecordDetail(ownerA, 'req_a_ok'))!.charge).toMatchObject({ chargedCentavos: 150, notChargedBecause: undefined });
  });

  it('says a replay repeated it only when the replay is the integration’s and repeated this query', async () => {
    expect((await portalRecordDetail(ownerA, 'req_a_ok', 'req_a_replay'))!.replay).toMatchObject({ requestId: 'req_a_replay' });
    expect((await portalRecordDetail(ownerA, 'req_a_failed', 'req_a_replay'))!.replay).toBeUndefined();
  });

  it('is undefined for another integration’s request id, as for an unknown one', async () => {
    expect(await portalRecordDetail(ownerA, 'req_b_ok')).toBeUndefined();
    expect(await portalRecordDetail(ownerA, 'req_never_seen')).toBeUndefined();
    expect(await portalRecordDetail(ownerA, '1')).toBeUndefined();
  });
});

describe('Mostrar', () => {
  it('reveals the record’s identifiers after logging the access with the portal user as actor', async () => {
    expect(await revealPortalRecordIdentifiers(ownerA, 'req_a_failed', 'Conciliar el cobro')).toEqual({ nit: null, cui: CUI_A });
    const [entry] = (await listAccessPage({ kind: 'reveal' })).rows;
    expect(entry).toMatchObject({ kind: 'reveal', reason: 'Conciliar el cobro', userId: null });
    expect(describeAuditActor(entry!.actor!, new Map())).toBe('Integrador: duena@consultas-a.example (consultas-a)');
  });

  it('reveals nothing of another integration’s record and logs nothing', async () => {
    const before = (await listAccessPage({})).rows.length;
    expect(await revealPortalRecordIdentifiers(ownerA, 'req_b_ok', 'Curiosidad')).toBeUndefined();
    expect((await listAccessPage({})).rows.length).toBe(before);
  });
});
