'use server';

import { z } from 'zod';
import { consoleAction, type ActionResult } from '@/lib/auth/action';
import { idField } from '@/lib/console/form-schemas';
import { REVEAL_REASON_MAX_LENGTH, writeAccessEntry } from '@/lib/personal-data/access-log';
import { findRecordDetail } from '@/lib/records/list';

const revealSchema = z.object({
  recordId: idField,
  motivo: z
    .string({ error: 'Escribe el motivo.' })
    .trim()
    .min(3, 'Escribe el motivo o el número de ticket (al menos 3 caracteres).')
    .max(REVEAL_REASON_MAX_LENGTH, `El motivo puede tener como máximo ${REVEAL_REASON_MAX_LENGTH} caracteres.`),
});

/**
 * "Mostrar": one record's NIT and CUI in full, for a support user with a reason. The access entry
 * (who, when, which record, why) is written before the identifiers leave the server; if it cannot
 * be written nothing is shown. Administrators see identifiers in full already; the action serves
 * them too and logs it the same way.
 */
export const revealRecordIdentifiersAction = consoleAction({ role: 'support', schema: revealSchema }, async ({ recordId, motivo }, user): Promise<ActionResult<{ nit: string | null; cui: string | null }>> => {
  const detail = await findRecordDetail(recordId);
  if (!detail) return { ok: false, message: 'Esa consulta ya no existe (pudo haberse depurado por antigüedad).' };
  await writeAccessEntry({ userId: user.id, kind: 'reveal', recordId, reason: motivo });
  return {
    ok: true,
    message: 'Identificadores mostrados. El acceso quedó registrado con tu motivo.',
    data: { nit: detail.record.nit, cui: detail.record.cui },
  };
});
