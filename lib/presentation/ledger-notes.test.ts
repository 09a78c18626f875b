// The notes the service writes on the holds it gives back are codes in the row (note_code), said
// in the words the rows written before the code hold in `note`; people's notes stay as written.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database, db } from '@/db/client';
import { ledgerEntries } from '@/db/schema';
import { placeHold, sweepStaleHolds, voidAbandonedHold, voidHoldUnrecorded } from '@/lib/core/billing/holds';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { ledgerNoteText } from './ledger-notes';

let testDatabase: TestDatabase;
let integration: TestIntegration;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('notas-del-libro', { tariffCentavos: 150, balanceCentavos: 5_000 });
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

async function voidOf(requestId: string) {
  const [entry] = await (await db())
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.integrationId, integration.id), eq(ledgerEntries.requestId, requestId), eq(ledgerEntries.kind, 'void')));
  if (!entry) throw new Error(`no void for ${requestId}`);
  return entry;
}

describe('a hold the service gives back', () => {
  it('keeps a code in the row, read in the words it always had', async () => {
    const notSent = await placeHold(integration.id, 'req_notes_not_sent');
    await voidHoldUnrecorded(integration.id, notSent!, 'req_notes_not_sent');
    expect(await voidOf('req_notes_not_sent')).toMatchObject({ note: null, noteCode: 'source_not_sent' });
    expect(ledgerNoteText(await voidOf('req_notes_not_sent'))).toBe('Consulta no enviada: la fuente no está disponible (circuito abierto o sin capacidad).');

    await placeHold(integration.id, 'req_notes_abandoned');
    await voidAbandonedHold(integration.id, 'req_notes_abandoned');
    expect(await voidOf('req_notes_abandoned')).toMatchObject({ note: null, noteCode: 'hold_abandoned' });
    expect(ledgerNoteText(await voidOf('req_notes_abandoned'))).toBe(
      'Consulta no enviada: la base de datos no confirmó la retención y la consulta se detuvo antes de la fuente.',
    );

    const orphan = await placeHold(integration.id, 'req_notes_swept');
    await (await database()).rows(sql`update ledger_entries set created_at = now() - interval '10 minutes' where id = ${orphan!.holdId}::bigint`);
    expect(await sweepStaleHolds(60)).toBe(1);
    expect(await voidOf('req_notes_swept')).toMatchObject({ note: null, noteCode: 'hold_swept' });
    expect(ledgerNoteText(await voidOf('req_notes_swept'))).toBe('Retención sin liquidar: el proceso terminó antes de registrar la consulta.');
  });

  it('reads a note written in words, before the code or by a person, as written', () => {
    const older = 'Consulta no enviada: la fuente no está disponible (circuito abierto o sin capacidad).';
    expect(ledgerNoteText({ note: older, noteCode: null })).toBe(older);
    expect(ledgerNoteText({ note: 'Depósito de prueba', noteCode: null })).toBe('Depósito de prueba');
    expect(ledgerNoteText({ note: null, noteCode: null })).toBeNull();
  });
});
