'use server';

import { revalidatePath } from 'next/cache';
import { integrationPath } from '@/lib/console/integration-sections';
import { z } from 'zod';
import { consoleAction, fromResult } from '@/lib/auth/action';
import { idField } from '@/lib/format/form-fields';
import { formatDateTime } from '@/lib/time/guatemala-time';
import { invitePortalUser, type SentInvitation } from '@/lib/portal/invitations';
import { PORTAL_ROLE_LABELS } from '@/lib/portal/roles';
import { removeMemberAsStaff, resendInvitationAsStaff } from '@/lib/portal/team';

// "Usuarios del portal": an administrator invites a person of the integration (its first owner,
// typically) into the integrators' portal, removes one, or sends an invitation again. Support staff
// see the list, and are refused here. Each goes through lib/portal's own change, as an owner's does.

const refresh = (integrationId: number) => revalidatePath(integrationPath(integrationId, 'portal'));

/** An id as the tables hold them (integer): a larger one names nothing, and is answered so. */
const rowId = idField.max(2_147_483_647, 'Identificador inválido.');

function sentText(sent: SentInvitation): string {
  const where = sent.delivery === 'email' ? `Invitación enviada a ${sent.email}` : `Invitación creada para ${sent.email}; sin servidor de correo, el enlace está en la terminal de la aplicación`;
  return `${where} (${PORTAL_ROLE_LABELS[sent.role].toLowerCase()}). Vence el ${formatDateTime(sent.expiresAt)}.`;
}

export const invitePortalUserAction = consoleAction(
  { role: 'admin', schema: z.object({ integrationId: idField, email: z.string().max(300), rol: z.string().max(40) }) },
  async ({ integrationId, email, rol }, user) => {
    const result = await invitePortalUser({ kind: 'staff', actor: user.actor, integrationId }, { email, role: rol });
    if (!result.ok) {
      const field = ['invalid', 'already_member', 'other_integration'].includes(result.error.code) ? { email: result.error.message } : undefined;
      return { ok: false, message: result.error.message, fieldErrors: field };
    }
    refresh(integrationId);
    return { ok: true, message: sentText(result.value), data: undefined };
  },
);

export const removePortalUserAction = consoleAction({ role: 'admin', schema: z.object({ integrationId: idField, miembro: rowId }) }, async ({ integrationId, miembro }, user) => {
  const result = await removeMemberAsStaff(user.actor, integrationId, miembro);
  if (result.ok) refresh(integrationId);
  return fromResult(result, (member) => {
    const notice = `${member.name} (${member.email}) ya no entra al portal: sus sesiones se cerraron. Los tokens de la integración siguen funcionando.`;
    // Also as data: the row goes with the removal, so the section shows the notice (portal-user-forms.tsx).
    return { message: notice, data: { notice } };
  });
});

export const resendPortalUserInvitationAction = consoleAction({ role: 'admin', schema: z.object({ integrationId: idField, invitacion: rowId }) }, async ({ integrationId, invitacion }, user) => {
  const result = await resendInvitationAsStaff(user.actor, integrationId, invitacion);
  if (result.ok) refresh(integrationId);
  return fromResult(result, (sent) => {
    const notice = `${sentText(sent)} El enlace anterior ya no sirve.`;
    // The replaced invitation's row goes: the section shows the notice (portal-user-forms.tsx).
    return { message: notice, data: { notice } };
  });
});
