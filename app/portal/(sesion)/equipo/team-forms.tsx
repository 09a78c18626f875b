'use client';

import { createContext, useContext, useState, type ReactNode } from 'react';
import { ActionForm, Field } from '@/components/console/action-form';
import { useActionActivity } from '@/components/console/action-activity';
import type { PortalRole } from '@/db/schema';
import { PORTAL_ROLE_DESCRIPTIONS, PORTAL_ROLE_LABELS, PORTAL_ROLES } from '@/lib/surfaces/portal/page-access';
import {
  cancelPortalInvitationAction,
  invitePortalMemberAction,
  removePortalMemberAction,
  resendPortalInvitationAction,
  setPortalMemberRoleAction,
} from './actions';

const ROLE_OPTIONS = PORTAL_ROLES.map((role) => ({ value: role, label: PORTAL_ROLE_LABELS[role] }));

// Removing a person or cancelling an invitation takes its row off the list, and a resent invitation
// replaces its row: a success notice inside the row's form went with it, and the owner never read
// it. The page shows it above the lists instead, until the next action starts, as the console's
// Portal section does (app/admin/(console)/integraciones/[id]/portal-user-forms.tsx).
const AnnounceContext = createContext<(notice: string) => void>(() => {});

export function TeamNotices({ children }: { children: ReactNode }) {
  const [notice, setNotice] = useState<string | null>(null);
  useActionActivity(() => setNotice(null));
  return (
    <AnnounceContext.Provider value={setNotice}>
      {notice && (
        <p className="notice success" role="status" data-testid="team-notice">
          {notice}
        </p>
      )}
      {children}
    </AnnounceContext.Provider>
  );
}

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
  const announce = useContext(AnnounceContext);
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
      onSuccess={(data) => announce(data.notice)}
      renderSuccess={() => null}
    >
      {null}
    </ActionForm>
  );
}

export function InvitationActions({ invitationId, email }: { invitationId: number; email: string }) {
  const announce = useContext(AnnounceContext);
  return (
    <div className="row-actions">
      <ActionForm
        action={resendPortalInvitationAction}
        hidden={{ invitacion: invitationId }}
        submitLabel="Reenviar"
        pendingLabel="Enviando…"
        className="inline"
        submitClassName="secondary"
        onSuccess={(data) => announce(data.notice)}
        renderSuccess={() => null}
      >
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
        onSuccess={(data) => announce(data.notice)}
        renderSuccess={() => null}
      >
        {null}
      </ActionForm>
    </div>
  );
}
