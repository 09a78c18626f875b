// "¿Quién consultó?" answers for a person, not for one spelling (issue 30, point 6): a NIT and a CUI
// that one source answer gave together are linked, and the report lists the lookups of either.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { allSettings as env } from '@/lib/root/settings';
import { createIntegration } from '@/lib/flows/integration-management/service';
import { linkedIdentifiers, resealIdentifierLinks } from '@/lib/core/personal-data/identifier-links';
import { personalDataKeys } from '@/lib/core/sealing/keys';
import { maskIdentifier } from '@/lib/core/sealing/masking';
import { linkedIdentifiersLine, produceSubjectReport, subjectReportCsv } from '@/lib/surfaces/console/subject-report';
import { answeredPair } from '@/lib/core/records/answered-pair';
import { recordUnbilledQuery } from '@/lib/core/records/write';
import { purgeExpiredRecords } from '@/lib/flows/retention/purge';
import { createConsoleUser } from '@/lib/flows/auth/users';
import { TEST_PERSONAL_DATA_KEYS } from '../support/personal-data-keys';
import { useTestDatabase, type TestDatabase } from '../support/test-database';

const PERSON = { nit: '4829113-7', cui: '2976 15432 0101' };
const STRANGER_NIT = '1234567-1';

let testDatabase: TestDatabase;
let adminId: number;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  const admin = await createConsoleUser({ kind: 'system', name: 'test' }, { email: 'informes@example.com', name: 'Informes', role: 'admin', mustChangePassword: false });
  if (!admin.ok) throw new Error(admin.error.message);
  adminId = admin.value.user.id;
  const acme = await createIntegration({ kind: 'system', name: 'test' }, { nombre: 'acme-personas' });
  if (!acme.ok) throw new Error(acme.error.message);
  const base = { integrationId: acme.value.integration.id, httpStatus: 200, responseTimeMs: 10, errorMessage: null };
  // By CUI; the answer gave the NIT too: the link.
  await recordUnbilledQuery({ ...base, lookup: 'cui_nit', nit: null, cui: '2976154320101', answeredPair: { nit: '4829113-7', cui: '2976154320101' }, requestId: 'ln-by-cui' });
  // By NIT alone, later: linked to the person only through the first answer.
  await recordUnbilledQuery({ ...base, lookup: 'omisos', nit: '48291137', cui: null, requestId: 'ln-by-nit' });
  // With both at once: listed once.
  await recordUnbilledQuery({ ...base, lookup: 'rtu', nit: '4829113-7', cui: '2976154320101', requestId: 'ln-both' });
  // Somebody else.
  await recordUnbilledQuery({ ...base, lookup: 'omisos', nit: STRANGER_NIT, cui: null, requestId: 'ln-other' });
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

async function requestIdsOf(recordIds: number[]): Promise<Map<number, string>> {
  const rows = await (await database()).rows<{ id: number; request_id: string }>(sql`select id::integer as id, request_id from query_records`);
  return new Map(rows.filter((row) => recordIds.includes(row.id)).map((row) => [row.id, row.request_id]));
}

describe('a report for a person', () => {
  it('asked by CUI lists the lookups by the NIT an answer linked to it, each once, saying which were by the other identifier', async () => {
    const report = await produceSubjectReport(adminId, PERSON.cui, 'page', 'Ticket 31');
    const ids = await requestIdsOf(report.lookups.map((lookup) => lookup.recordId));
    expect(report.lookups.map((lookup) => [ids.get(lookup.recordId), lookup.byLinkedIdentifier]).sort()).toEqual([
      ['ln-both', false],
      ['ln-by-cui', false],
      ['ln-by-nit', true],
    ]);
    expect(report.linked).toEqual([`NIT ${maskIdentifier('48291137')}`]);
    expect(linkedIdentifiersLine(report)).toBe(`Incluye las consultas hechas con NIT ${maskIdentifier('48291137')}, que las respuestas de las fuentes relacionaron con este identificador.`);
    expect(subjectReportCsv(report)).toContain(',Identificador relacionado,200,');
  });

  it('asked by NIT, in another spelling, lists the lookup by CUI whose answer linked them', async () => {
    const report = await produceSubjectReport(adminId, '0048291137', 'csv', 'Ticket 32');
    const ids = await requestIdsOf(report.lookups.map((lookup) => lookup.recordId));
    expect(report.lookups.map((lookup) => [ids.get(lookup.recordId), lookup.byLinkedIdentifier]).sort()).toEqual([
      ['ln-both', false],
      ['ln-by-cui', true],
      ['ln-by-nit', false],
    ]);
    expect(report.linked).toEqual([`CUI ${maskIdentifier('2976154320101')}`]);
  });

  it('for an identifier no answer linked says so, and lists only its own lookups', async () => {
    const report = await produceSubjectReport(adminId, STRANGER_NIT, 'page', 'Ticket 33');
    expect(report.lookups).toHaveLength(1);
    expect(report.linked).toEqual([]);
    expect(linkedIdentifiersLine(report)).toBe('Ninguna respuesta de las fuentes relacionó este identificador con otro de la misma persona.');
  });

  it('keeps the link through a rotation of the search key', async () => {
    const rotated = personalDataKeys({
      ...env(),
      PERSONAL_DATA_SEARCH_KEY: Buffer.alloc(32, 'a rotated search key').toString('base64'),
      PERSONAL_DATA_PREVIOUS_SEARCH_KEYS: [TEST_PERSONAL_DATA_KEYS.PERSONAL_DATA_SEARCH_KEY],
    });
    expect(await resealIdentifierLinks(rotated)).toBe(1);
    expect(await resealIdentifierLinks(rotated)).toBe(0);
    const [row] = await (await database()).rows<{ nit_key: string }>(sql`select nit_key from identifier_links`);
    expect(row!.nit_key.startsWith(`${rotated.search.id}:`)).toBe(true);
    expect((await linkedIdentifiers(PERSON.cui, rotated)).shown).toEqual([`NIT ${maskIdentifier('48291137')}`]);
  });
});

describe('retention', () => {
  it('deletes a link with the last records that could have shown it', async () => {
    const count = async () => Number((await (await database()).rows<{ n: number }>(sql`select count(*)::integer as n from identifier_links`))[0]!.n);
    expect(await count()).toBe(1);
    // A purge whose cutoff is still within a day of the link's last sighting keeps it.
    const inTwoYears = new Date(Date.now() + 2 * 365 * 86_400_000);
    await purgeExpiredRecords({ now: new Date(Date.now() + 12 * 3_600_000), months: 0 });
    expect(await count()).toBe(1);
    await purgeExpiredRecords({ now: inTwoYears, months: 1 });
    expect(await count()).toBe(0);
  });
});

describe('what an answer links', () => {
  it('reads the NIT with the CUI, or with RTU\'s persona.dpi, and nothing from an answer without both', () => {
    expect(answeredPair({ nit: '48291137', cui: '2976154320101', nombre: 'X' })).toEqual({ nit: '48291137', cui: '2976154320101' });
    expect(answeredPair({ nit: '48291137', persona: { dpi: '2976154320101' } })).toEqual({ nit: '48291137', cui: '2976154320101' });
    expect(answeredPair({ nit: '48291137', cui: null })).toBeNull();
    expect(answeredPair({ nit: null, cui: '2976154320101' })).toBeNull();
    expect(answeredPair({ nit: '48291137', persona: null })).toBeNull();
    expect(answeredPair(null)).toBeNull();
  });
});
