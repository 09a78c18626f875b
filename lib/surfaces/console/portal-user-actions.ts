// An integration's portal users, as the console's staff manage them: invitations and members
// (app/admin/(console)/integraciones/[id]/portal-users-actions.ts is their entry point).
import { revalidatePath } from 'next/cache';
import { integrationPath } from '@/lib/surfaces/console/integration-sections';
import { z } from 'zod';
import { fromResult } from '@/lib/surfaces/console/action';
import { consoleAction } from '@/lib/surfaces/console/action';
import { idField } from '@/lib/presentation/form-fields';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { INVITATION_MESSAGES, invitePortalUser, type SentInvitation } from '@/lib/flows/portal-identity/invitations';
import { PORTAL_ROLE_LABELS } from '@/lib/flows/portal-identity/roles';
import { cancelInvitationAsStaff, removeMemberAsStaff, resendInvitationAsStaff } from '@/lib/flows/portal-identity/team';

// "Usuarios del portal": an administrator invites a person of the integration (its first owner,
// typically) into the integrators' portal, removes one, sends an invitation again or cancels it. Support staff
// see the list, and are refused here. Each goes through lib/surfaces/portal's own change, as an owner's does.

const refresh = (integrationId: number) => revalidatePath(integrationPath(integrationId, 'portal'));

/** An id as the tables hold them (integer): a larger one names nothing, and is answered so. */
const rowId = idField.max(2_147_483_647, 'Identificador inválido.');

function sentText(sent: SentInvitation): string {
  const done = sent.resent ? 'Invitación reenviada' : sent.delivery === 'email' ? 'Invitación enviada' : 'Invitación creada';
  const where = sent.delivery === 'email' ? `${done} a ${sent.email}` : `${done} para ${sent.email}; sin servidor de correo, el enlace está en la terminal de la aplicación`;
  return `${where} (${PORTAL_ROLE_LABELS[sent.role].toLowerCase()}). Vence el ${formatDateTime(sent.expiresAt)}.`;
}

export const invitePortalUserAction = consoleAction(
  { role: 'admin', schema: z.object({ integrationId: idField, email: z.string().max(300), rol: z.string().max(40).optional() }) },
  async ({ integrationId, email, rol }, user) => {
    const result = await invitePortalUser({ kind: 'staff', actor: user.actor, integrationId, name: user.name }, { email, role: rol });
    if (!result.ok) {
      // A refusal about one field is said beside it, once; the form's notice only points there.
      const field = !['invalid', 'already_member', 'other_integration'].includes(result.error.code) ? undefined : result.error.message === INVITATION_MESSAGES.role ? 'rol' : 'email';
      if (!field) return { ok: false, message: result.error.message };
      return { ok: false, message: INVITATION_MESSAGES.checkField, fieldErrors: { [field]: result.error.message } };
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
  const result = await resendInvitationAsStaff(user.actor, integrationId, invitacion, { inviterName: user.name });
  if (result.ok) refresh(integrationId);
  return fromResult(result, (sent) => {
    const notice = `${sentText(sent)} El enlace anterior ya no sirve.`;
    // The replaced invitation's row goes: the section shows the notice (portal-user-forms.tsx).
    return { message: notice, data: { notice } };
  });
});

export const cancelPortalUserInvitationAction = consoleAction({ role: 'admin', schema: z.object({ integrationId: idField, invitacion: rowId }) }, async ({ integrationId, invitacion }, user) => {
  const result = await cancelInvitationAsStaff(user.actor, integrationId, invitacion);
  if (result.ok) refresh(integrationId);
  return fromResult(result, ({ email, already }) => {
    const notice = already ? `La invitación a ${email} ya estaba cancelada: su enlace no sirve.` : `Invitación a ${email} cancelada: su enlace ya no sirve.`;
    // The cancelled invitation's row goes: the section shows the notice (portal-user-forms.tsx).
    return { message: notice, data: { notice } };
  });
});
