'use client';

import { ActionForm, Field } from '@/components/console/action-form';
import type { PortalRole } from '@/db/schema';
import { PORTAL_ROLE_DESCRIPTIONS, PORTAL_ROLE_LABELS, PORTAL_ROLES } from '@/lib/portal/roles';
import {
  cancelPortalInvitationAction,
  invitePortalMemberAction,
  removePortalMemberAction,
  resendPortalInvitationAction,
  setPortalMemberRoleAction,
} from './actions';

const ROLE_OPTIONS = PORTAL_ROLES.map((role) => ({ value: role, label: PORTAL_ROLE_LABELS[role] }));

export function InviteMemberForm() {
  return (
    <ActionForm action={invitePortalMemberAction} submitLabel="Enviar invitación" pendingLabel="Enviando…" resetOnSuccess>
      <Field name="email" label="Correo electrónico" type="email" autoComplete="off" required maxLength={254} data-testid="invite-email" />
      <Field
        name="rol"
        label="Rol"
        options={ROLE_OPTIONS}
        defaultValue="desarrollador"
        hint={PORTAL_ROLES.map((role) => `${PORTAL_ROLE_LABELS[role]}: ${PORTAL_ROLE_DESCRIPTIONS[role]}`).join('. ') + '.'}
        data-testid="invite-role"
      />
    </ActionForm>
  );
}

export function MemberRoleForm({ memberId, name, role }: { memberId: number; name: string; role: PortalRole }) {
  return (
    <ActionForm action={setPortalMemberRoleAction} hidden={{ miembro: memberId }} submitLabel="Cambiar rol" pendingLabel="Cambiando…" className="inline" submitClassName="secondary">
      <Field name="rol" label={`Rol de ${name}`} options={ROLE_OPTIONS} defaultValue={role} />
    </ActionForm>
  );
}

export function RemoveMemberForm({ memberId, name }: { memberId: number; name: string }) {
  return (
    <ActionForm
      action={removePortalMemberAction}
      hidden={{ miembro: memberId }}
      submitLabel="Quitar del equipo"
      pendingLabel="Quitando…"
      className="inline"
      submitClassName="danger secondary"
      confirmation={{
        kind: 'text',
        title: `¿Quitar a ${name} del equipo?`,
        message: 'Sus sesiones se cierran y ya no podrá entrar al portal. Los tokens de la integración siguen funcionando.',
        confirmLabel: 'Quitar del equipo',
      }}
    >
      {null}
    </ActionForm>
  );
}

export function InvitationActions({ invitationId, email }: { invitationId: number; email: string }) {
  return (
    <div className="row-actions">
      <ActionForm action={resendPortalInvitationAction} hidden={{ invitacion: invitationId }} submitLabel="Reenviar" pendingLabel="Enviando…" className="inline" submitClassName="secondary">
        {null}
      </ActionForm>
      <ActionForm
        action={cancelPortalInvitationAction}
        hidden={{ invitacion: invitationId }}
        submitLabel="Cancelar invitación"
        pendingLabel="Cancelando…"
        className="inline"
        submitClassName="danger secondary"
        confirmation={{ kind: 'text', title: `¿Cancelar la invitación a ${email}?`, message: 'Su enlace deja de servir.', confirmLabel: 'Cancelar invitación' }}
      >
        {null}
      </ActionForm>
    </div>
  );
}
