// Revealing a query record's full identifiers (app/admin/(console)/registros/actions.ts is its
// entry point).
import { z } from 'zod';
import { type ActionResult } from '@/lib/surfaces/console/action';
import { consoleAction } from '@/lib/surfaces/console/action';
import { idField } from '@/lib/presentation/form-fields';
import { writeAccessEntry } from '@/lib/core/personal-data/access-log';
import { findRecordDetail } from '@/lib/core/records/list';
import { accessReasonSchema } from '@/lib/presentation/access-reason';

const revealSchema = z.object({
  recordId: idField,
  motivo: accessReasonSchema,
});

/**
 * "Mostrar": one record's NIT and CUI in full, for any console user with a reason (administrators
 * see them masked too). The access entry (who, when, which record, why) is
 * written before the identifiers leave the server; if it cannot be written nothing is shown.
 */
export const revealRecordIdentifiersAction = consoleAction({ role: 'support', schema: revealSchema }, async ({ recordId, motivo }, user): Promise<ActionResult<{ nit: string | null; cui: string | null }>> => {
  const detail = await findRecordDetail(recordId);
  if (!detail) return { ok: false, message: 'Esa consulta ya no existe (pudo haberse depurado por antigüedad).' };
  await writeAccessEntry({ userId: user.id, kind: 'reveal', recordId, reason: motivo });
  return {
    ok: true,
    message: 'Identificadores mostrados. El acceso quedó registrado con su motivo.',
    data: { nit: detail.record.nit, cui: detail.record.cui },
  };
});
