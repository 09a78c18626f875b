'use client';

import { createContext, useContext, useState, type ReactNode } from 'react';
import { ActionForm } from '@/components/console/action-form';
import { useActionActivity } from '@/components/console/action-activity';
import type { Confirmation } from '@/components/console/confirmations';
import { cancelPortalUserInvitationAction, removePortalUserAction, resendPortalUserInvitationAction } from './portal-users-actions';

// Removing a person, or resending or cancelling an invitation, takes its row off the list (a resent
// invitation is replaced by a new one): a success notice inside the row's form would go with it. The section
// shows it instead, until the next action of the page starts, as the console's other notices.
const AnnounceContext = createContext<(notice: string) => void>(() => {});

export function PortalUsersNotices({ children }: { children: ReactNode }) {
  const [notice, setNotice] = useState<string | null>(null);
  useActionActivity(() => setNotice(null));
  return (
    <AnnounceContext.Provider value={setNotice}>
      {notice && (
        <p className="notice success" role="status" data-testid="portal-users-notice">
          {notice}
        </p>
      )}
      {children}
    </AnnounceContext.Provider>
  );
}

type RowAction = typeof removePortalUserAction | typeof resendPortalUserInvitationAction | typeof cancelPortalUserInvitationAction;

/** One button of a row whose success the section announces (the row itself may be gone). */
function AnnouncedRowAction(props: {
  action: RowAction;
  hidden: Record<string, number>;
  submitLabel: string;
  pendingLabel: string;
  danger: boolean;
  confirmation: Confirmation;
}) {
  const announce = useContext(AnnounceContext);
  return (
    <ActionForm
      action={props.action}
      hidden={props.hidden}
      submitLabel={props.submitLabel}
      pendingLabel={props.pendingLabel}
      className="inline"
      submitClassName={props.danger ? 'danger secondary' : 'secondary'}
      confirmation={props.confirmation}
      onSuccess={(data) => announce(data.notice)}
      renderSuccess={() => null}
    >
      {null}
    </ActionForm>
  );
}

export function RemovePortalUserForm({ integrationId, memberId, confirmation }: { integrationId: number; memberId: number; confirmation: Confirmation }) {
  return (
    <AnnouncedRowAction
      action={removePortalUserAction}
      hidden={{ integrationId, miembro: memberId }}
      submitLabel="Quitar del portal"
      pendingLabel="Quitando…"
      danger
      confirmation={confirmation}
    />
  );
}

export function ResendInvitationForm({ integrationId, invitationId, confirmation }: { integrationId: number; invitationId: number; confirmation: Confirmation }) {
  return (
    <AnnouncedRowAction
      action={resendPortalUserInvitationAction}
      hidden={{ integrationId, invitacion: invitationId }}
      submitLabel="Reenviar"
      pendingLabel="Enviando…"
      danger={false}
      confirmation={confirmation}
    />
  );
}

export function CancelInvitationForm({ integrationId, invitationId, confirmation }: { integrationId: number; invitationId: number; confirmation: Confirmation }) {
  return (
    <AnnouncedRowAction
      action={cancelPortalUserInvitationAction}
      hidden={{ integrationId, invitacion: invitationId }}
      submitLabel="Cancelar invitación"
      pendingLabel="Cancelando…"
      danger
      confirmation={confirmation}
    />
  );
}
