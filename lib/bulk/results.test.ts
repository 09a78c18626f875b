// A job's results name the source that answered each row as the integrator reads every source
// elsewhere (lib/bulk/results.ts): by the name /estado and the notices give it, and by the id
// GET /api/estado and the notices' fuente_id give it, never by an internal English word alone.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { SOURCE_LABELS } from '@/lib/format/labels';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { submitJob } from './jobs';
import { csvHeader, csvLine, jobResults, type ResultRow } from './results';

let testDatabase: TestDatabase;
let integration: TestIntegration;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('lotes-fuente', { tariffCentavos: 150, balanceCentavos: 1_500 });
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

describe("a job's results", () => {
  it('name the source of an answered row as /estado and the notices do, and leave it empty for a row never sent', async () => {
    const submitted = await submitJob(integration.id, 'omisos', ['576937-K', 'no-es-un-nit'], 'fuente-en-resultados');
    if (submitted.kind !== 'created') throw new Error('a new job');
    // The catalog source answered the first row (as its lookup's settlement writes it: lib/bulk/items.ts).
    await (await database()).rows(sql`
      update bulk_job_items i set status = 'no_encontrado', answered_at = now(), source = 'catalog', request_id = 'req_fuente_1'
        from bulk_jobs j where j.id = i.job_id and j.public_id = ${submitted.publicId} and i.position = 0`);

    const rows: ResultRow[] = [];
    for await (const row of (await jobResults(integration.id, submitted.publicId))!) rows.push(row);
    expect(rows.map((row) => [row.posicion, row.fuente, row.fuente_id])).toEqual([
      [1, 'Fuente de catálogos (CUI/NIT, RTU, omisos)', 'catalog'],
      [2, null, null],
    ]);
    expect(rows[0]!.fuente).toBe(SOURCE_LABELS.catalog);
    expect(csvHeader()).toBe('posicion,identificador,estado,motivo,respondido_en,fuente,fuente_id,request_id,datos\r\n');
    expect(csvLine(rows[0]!)).toContain(',"Fuente de catálogos (CUI/NIT, RTU, omisos)",catalog,req_fuente_1,');
  });
});
