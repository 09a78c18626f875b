'use server';

import { z } from 'zod';
import type { ActionResult } from '@/lib/surfaces/portal/action';
import { portalAction } from '@/lib/surfaces/portal/action';
import { accessReasonSchema } from '@/lib/presentation/access-reason';
import { revealPortalRecordIdentifiers } from '@/lib/surfaces/portal/records';
import { RECORD_READERS } from '@/lib/surfaces/portal/page-access';

const revealSchema = z.object({
  solicitud: z.string().max(100),
  motivo: accessReasonSchema,
});

/** The answer to a request id the integration has no record of: the same for an unknown one and another integration's. */
const NO_SUCH_RECORD = 'No existe esa consulta en su integración (pudo haberse depurado por antigüedad).';

/**
 * "Mostrar": one of the integration's records' NIT and CUI in full, with a reason, written to the
 * personal-data access log (the portal user as actor) before the identifiers leave the server.
 */
export const revealPortalRecordAction = portalAction(
  { roles: RECORD_READERS, schema: revealSchema },
  async ({ solicitud, motivo }, user): Promise<ActionResult<{ nit: string | null; cui: string | null }>> => {
    const revealed = await revealPortalRecordIdentifiers(user, solicitud, motivo);
    if (!revealed) return { ok: false, message: NO_SUCH_RECORD };
    return { ok: true, message: 'Identificadores mostrados. El acceso quedó registrado con su motivo.', data: revealed };
  },
);
