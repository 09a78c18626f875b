'use server';

import { revalidatePath } from 'next/cache';
import { integrationPath } from '@/lib/console/integration-sections';
import { z } from 'zod';
import { consoleAction } from '@/lib/auth/action';
import { idField } from '@/lib/console/form-schemas';
import { formatDateTime } from '@/lib/format/guatemala-time';
import { invitePortalUser } from '@/lib/portal/invitations';
import { PORTAL_ROLE_LABELS } from '@/lib/portal/roles';

// "Usuarios del portal": an administrator invites a person of the integration (its first owner,
// typically) into the integrators' portal. Support staff see the list, and are refused here.
export const invitePortalUserAction = consoleAction(
  { role: 'admin', schema: z.object({ integrationId: idField, email: z.string().max(300), rol: z.string().max(40) }) },
  async ({ integrationId, email, rol }, user) => {
    const result = await invitePortalUser({ kind: 'staff', actor: user.actor, integrationId }, { email, role: rol });
    if (!result.ok) {
      const field = ['invalid', 'already_member', 'other_integration'].includes(result.error.code) ? { email: result.error.message } : undefined;
      return { ok: false, message: result.error.message, fieldErrors: field };
    }
    revalidatePath(integrationPath(integrationId, 'portal'));
    const sent = result.value;
    const where = sent.delivery === 'email' ? `Invitación enviada a ${sent.email}` : `Invitación creada para ${sent.email}; sin servidor de correo, el enlace está en la terminal de la aplicación`;
    return { ok: true, message: `${where} (${PORTAL_ROLE_LABELS[sent.role].toLowerCase()}). Vence el ${formatDateTime(sent.expiresAt)}.`, data: undefined };
  },
);
