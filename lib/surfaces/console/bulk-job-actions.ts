// A bulk job's controls: revealing an item's identifier, pausing, resuming, cancelling
// (app/admin/(console)/lotes/actions.ts is their entry point).
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { fromResult, type ActionResult } from '@/lib/surfaces/console/action';
import { consoleAction } from '@/lib/surfaces/console/action';
import { idField } from '@/lib/presentation/form-fields';
import { cancelJobAsAdmin, openJobItemIdentifier, pauseJobAsAdmin, resumeJobAsAdmin } from '@/lib/flows/bulk/console';
import { PAUSE_REASON_MAX_LENGTH } from '@/lib/flows/bulk/labels';
import { wakeBulkRunner } from '@/lib/flows/bulk/runner';
import { isPublicJobId } from '@/lib/flows/bulk/jobs';
import { writeAccessEntry } from '@/lib/core/personal-data/access-log';
import { recordIdForRequestId } from '@/lib/core/request-ids/search';
import { accessReasonSchema } from '@/lib/presentation/access-reason';

// The console's actions on bulk jobs. Pause, resume and cancel are an
// administrator's (support reads only: consoleAction refuses it on the server); any console role
// may reveal one row's identifier with a reason, logged first, as a record's "Mostrar" is.

const jobField = z.string().refine(isPublicJobId, 'Ese lote no existe.');

const refresh = (lote: string) => {
  revalidatePath('/admin/lotes');
  revalidatePath(`/admin/lotes/${lote}`);
};

const MISSING_ROW = 'Esa fila ya no existe (el lote pudo haberse depurado al vencer sus resultados).';

/**
 * "Mostrar" on a job's row: the access entry (who, when, which job and row, why; and the query
 * record the row's lookup left, when it ran) is written before the identifier leaves the server,
 * for administrators too. A row that does not exist logs nothing.
 */
export const revealJobItemAction = consoleAction(
  { role: 'support', schema: z.object({ lote: jobField, posicion: idField, motivo: accessReasonSchema }) },
  async ({ lote, posicion, motivo }, user): Promise<ActionResult<{ nit: string | null; cui: string | null }>> => {
    const sealed = await openJobItemIdentifier(lote, posicion);
    if (!sealed) return { ok: false, message: MISSING_ROW };
    const recordId = sealed.requestId ? await recordIdForRequestId(sealed.requestId) : undefined;
    await writeAccessEntry({ userId: user.id, kind: 'reveal', recordId, reason: motivo, details: { lote, posicion } });
    return { ok: true, message: 'Identificador mostrado. El acceso quedó registrado con su motivo.', data: { nit: sealed.nit, cui: sealed.cui } };
  },
);

const jobSchema = z.object({ lote: jobField });

/** Shown to the integrator as it is typed (the API's motivo_estado, the portal's page). */
const pauseReasonSchema = z
  .string({ error: 'Escriba el motivo que verá el integrador.' })
  .trim()
  .min(3, 'Escriba el motivo que verá el integrador (al menos 3 caracteres).')
  .max(PAUSE_REASON_MAX_LENGTH, `El motivo puede tener como máximo ${PAUSE_REASON_MAX_LENGTH} caracteres.`)
  // Shown in the integrator's JSON and pages as typed: no NUL (PostgreSQL refuses it) nor line breaks.
  .regex(/^[^\p{Cc}]*$/u, 'El motivo no puede llevar saltos de línea ni otros caracteres de control.');

export const pauseJobAction = consoleAction({ role: 'admin', schema: jobSchema.extend({ motivo: pauseReasonSchema }) }, async ({ lote, motivo }, user) => {
  const result = await pauseJobAsAdmin(user.actor, lote, motivo);
  if (result.ok) refresh(lote);
  return fromResult(result, () => ({ message: 'Lote pausado: no corre ninguna fila más hasta que un administrador lo reanude.', data: undefined }));
});

export const resumeJobAction = consoleAction({ role: 'admin', schema: jobSchema }, async ({ lote }, user) => {
  const result = await resumeJobAsAdmin(user.actor, lote);
  // This instance's runner takes the job up now, not after its idle back-off.
  if (result.ok) wakeBulkRunner();
  if (result.ok) refresh(lote);
  return fromResult(result, () => ({ message: 'Lote reanudado: sus filas pendientes vuelven a correr.', data: undefined }));
});

export const cancelJobAction = consoleAction({ role: 'admin', schema: jobSchema }, async ({ lote }, user) => {
  const result = await cancelJobAsAdmin(user.actor, lote);
  if (result.ok) refresh(lote);
  return fromResult(result, () => ({ message: 'Lote cancelado: sus filas pendientes no corren ni se cobran.', data: undefined }));
});
