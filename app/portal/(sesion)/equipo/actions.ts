'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { fromResult } from '@/lib/surfaces/portal/action';
import { idField } from '@/lib/presentation/form-fields';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { portalAction } from '@/lib/surfaces/portal/action';
import { PORTAL_ROLE_LABELS, TEAM_MANAGERS } from '@/lib/surfaces/portal/page-access';
import { cancelPortalInvitation, invitePortalMember, passPortalMemberToProvider, removePortalMember, resendPortalInvitation, setPortalMemberRole, type SentInvitation } from '@/lib/surfaces/portal/team';
import {
  IDENTITY_PROVIDER_MANAGERS,
  identityProviderErrorField,
  removePortalIdentityProvider,
  savePortalIdentityProvider,
  type IdentityProviderField,
} from '@/lib/surfaces/portal/identity-provider';

// "Equipo": an owner invites, removes and changes the roles of the people of its own integration.
// The integration is always the owner's session's; a member or invitation id of another
// integration is answered as one that does not exist.

const refresh = () => revalidatePath('/portal/equipo');

/** An id as the tables hold them (integer): a larger one names nothing, and is answered so. */
const rowId = idField.max(2_147_483_647, 'Identificador inválido.');

function sentMessage(sent: SentInvitation): string {
  const where = sent.resent
    ? `Invitación reenviada a ${sent.email}${sent.delivery === 'email' ? '' : ' (entorno de pruebas sin correo: el enlace está en la terminal del servicio)'}`
    : sent.delivery === 'email'
      ? `Enviamos la invitación a ${sent.email}`
      : `Invitación creada para ${sent.email} (entorno de pruebas sin correo: el enlace está en la terminal del servicio)`;
  return `${where}, como ${PORTAL_ROLE_LABELS[sent.role].toLowerCase()}. El enlace sirve una vez y vence el ${formatDateTime(sent.expiresAt)}.`;
}

export const invitePortalMemberAction = portalAction(
  { roles: TEAM_MANAGERS, schema: z.object({ email: z.string().max(300), rol: z.string().max(40) }) },
  async ({ email, rol }, user) => {
    const result = await invitePortalMember(user, { email, role: rol });
    if (!result.ok) return { ok: false, message: result.error.message, fieldErrors: result.error.code === 'invalid' || result.error.code === 'already_member' ? { email: result.error.message } : undefined };
    refresh();
    return { ok: true, message: sentMessage(result.value), data: undefined };
  },
);

export const setPortalMemberRoleAction = portalAction({ roles: TEAM_MANAGERS, schema: z.object({ miembro: rowId, rol: z.string().max(40) }) }, async ({ miembro, rol }, user) => {
  const result = await setPortalMemberRole(user, miembro, rol);
  if (result.ok) refresh();
  return fromResult(result, (member) => ({ message: `${member.name} ahora es ${PORTAL_ROLE_LABELS[member.role].toLowerCase()}.`, data: undefined }));
});

export const removePortalMemberAction = portalAction({ roles: TEAM_MANAGERS, schema: z.object({ miembro: rowId }) }, async ({ miembro }, user) => {
  const result = await removePortalMember(user, miembro);
  if (result.ok) refresh();
  return fromResult(result, (member) => {
    const notice = `${member.name} ya no es parte del equipo; sus sesiones se cerraron. Los tokens de la integración siguen funcionando.`;
    // Also as data: the row goes with the removal, so the page shows the notice (team-forms.tsx).
    return { message: notice, data: { notice } };
  });
});

/** «Pasar a la cuenta de la empresa»: the member's password stops working; their next sign-in through the provider links them. */
export const passPortalMemberToProviderAction = portalAction({ roles: TEAM_MANAGERS, schema: z.object({ miembro: rowId }) }, async ({ miembro }, user) => {
  const result = await passPortalMemberToProvider(user, miembro);
  if (result.ok) refresh();
  return fromResult(result, ({ email }) => {
    const notice = `${email} entrará con la cuenta de la empresa: su contraseña ya no sirve y sus sesiones se cerraron.`;
    // The row's button goes with the change: the page shows the notice (team-forms.tsx).
    return { message: notice, data: { notice } };
  });
});

export const cancelPortalInvitationAction = portalAction({ roles: TEAM_MANAGERS, schema: z.object({ invitacion: rowId }) }, async ({ invitacion }, user) => {
  const result = await cancelPortalInvitation(user, invitacion);
  if (result.ok) refresh();
  return fromResult(result, ({ email, already }) => {
    const notice = already ? `La invitación a ${email} ya estaba cancelada: su enlace no sirve.` : `Invitación a ${email} cancelada: su enlace ya no sirve.`;
    // The cancelled invitation's row goes: the page shows the notice (team-forms.tsx).
    return { message: notice, data: { notice } };
  });
});

export const resendPortalInvitationAction = portalAction({ roles: TEAM_MANAGERS, schema: z.object({ invitacion: rowId }) }, async ({ invitacion }, user) => {
  const result = await resendPortalInvitation(user, invitacion);
  if (result.ok) refresh();
  return fromResult(result, (sent) => {
    const notice = `${sentMessage(sent)} El enlace anterior ya no sirve.`;
    // The replaced invitation's row goes (a new invitation takes its place): the page shows the notice.
    return { message: notice, data: { notice } };
  });
});

// «Inicio de sesión con la cuenta de la empresa»: the owner names the company's identity provider.
// The form's names are the page's; the flow's refusals come back beside the field they are about.
const IDENTITY_PROVIDER_FORM_FIELDS: Record<IdentityProviderField, string> = {
  issuer: 'emisor',
  clientId: 'cliente',
  clientSecret: 'secreto',
  emailDomain: 'dominio',
  roleClaim: 'atributo',
  roleValues: 'propietario',
  breakGlassEmails: 'emergencia',
};

const text = (max: number) => z.string().max(max).optional().default('');

export const savePortalIdentityProviderAction = portalAction(
  {
    roles: IDENTITY_PROVIDER_MANAGERS,
    schema: z.object({
      emisor: text(2_000),
      cliente: text(500),
      secreto: text(2_000),
      dominio: text(253),
      atributo: text(200),
      propietario: text(12_000),
      desarrollador: text(12_000),
      facturacion: text(12_000),
      emergencia: text(10_000),
    }),
  },
  async (input, user) => {
    const result = await savePortalIdentityProvider(user, {
      issuer: input.emisor,
      clientId: input.cliente,
      clientSecret: input.secreto,
      emailDomain: input.dominio,
      roleClaim: input.atributo,
      roleValues: { propietario: input.propietario, desarrollador: input.desarrollador, facturacion: input.facturacion },
      breakGlassEmails: input.emergencia,
    });
    if (!result.ok) {
      const field = identityProviderErrorField(result.error.code);
      return { ok: false, message: result.error.message, fieldErrors: field ? { [IDENTITY_PROVIDER_FORM_FIELDS[field]]: result.error.message } : undefined };
    }
    refresh();
    return {
      ok: true,
      message: `Guardado. Quienes entren con un correo de ${result.value.emailDomain} lo harán con la cuenta de su empresa, y su rol será el que digan sus grupos allá.`,
      data: undefined,
    };
  },
);

export const removePortalIdentityProviderAction = portalAction({ roles: IDENTITY_PROVIDER_MANAGERS, schema: z.object({}) }, async (_input, user) => {
  const result = await removePortalIdentityProvider(user);
  if (result.ok) refresh();
  return fromResult(result, () => ({
    message: 'Se quitó el inicio de sesión con la cuenta de la empresa. Las personas del equipo vuelven a entrar con su correo y contraseña; quien no tenga una puede crearla con «¿Olvidó su contraseña?».',
    data: undefined,
  }));
});
