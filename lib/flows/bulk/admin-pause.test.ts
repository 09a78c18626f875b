// An administrator's pause is told to the integrator (lib/flows/bulk/console.ts, lib/surfaces/api/bulk-responses.ts):
// GET /api/lotes/{id} reads `en_pausa` with a Spanish `motivo_estado` carrying the administrator's
// reason, and once resumed `en_curso` with no reason left over; a pause for balance says what it
// waits for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobBody } from '@/lib/surfaces/api/bulk-responses';
import { createTestIntegration, TEST_ACTOR, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { pauseJobAsAdmin, resumeJobAsAdmin } from './console';
import { readJobOrThrow, submitJob } from './jobs';

const REASON = 'Revisión del consumo del mes; lo reanudamos hoy a las 15:00.';

let testDatabase: TestDatabase;
let integration: TestIntegration;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('lotes-pausa-admin', { tariffCentavos: 150, balanceCentavos: 1_500 });
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

async function apiBody(publicId: string) {
  return jobBody(await readJobOrThrow(integration.id, publicId));
}

describe("an administrator's pause, as the integrator reads the job", () => {
  it('says it was paused by the administration and why, and says nothing of it once resumed', async () => {
    const submitted = await submitJob(integration.id, 'omisos', ['576937-K'], 'pausa-admin');
    if (submitted.kind !== 'created') throw new Error('a new job');
    expect((await apiBody(submitted.publicId)).motivo_estado).toBeNull();

    expect((await pauseJobAsAdmin(TEST_ACTOR, submitted.publicId, REASON)).ok).toBe(true);
    const paused = await apiBody(submitted.publicId);
    expect(paused.estado).toBe('en_pausa');
    expect(paused.motivo_estado).toBe(`La administración de la pasarela pausó el lote: no corre ninguna fila hasta que lo reanude. Motivo: ${REASON}`);

    expect((await resumeJobAsAdmin(TEST_ACTOR, submitted.publicId)).ok).toBe(true);
    const resumed = await apiBody(submitted.publicId);
    expect(resumed.estado).toBe('en_curso');
    expect(resumed.motivo_estado).toBeNull();
  });
});
