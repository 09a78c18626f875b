import { ActionForm, Field } from '@/components/console/action-form';
import { EmailAddress } from '@/components/email-address';
import { EmptyState } from '@/components/console/page-header';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import type { TeamMember } from '@/lib/flows/portal-identity/team';
import { INVITATION_TERMS, PORTAL_ROLE_LABELS, PORTAL_ROLES, portalUsersView } from '@/lib/surfaces/console/portal-users';
import { CancelInvitationForm, PortalUsersNotices, RemovePortalUserForm, ResendInvitationForm } from './portal-user-forms';
import { invitePortalUserAction } from './portal-users-actions';

// No role chosen beforehand: the first person invited is often an owner, but an administrator who
// did not choose would hand an owner's rights to a developer. The server refuses an empty choice.
const ROLE_OPTIONS = [{ value: '', label: 'Elija un rol…' }, ...PORTAL_ROLES.map((role) => ({ value: role, label: PORTAL_ROLE_LABELS[role] }))];

/** What removing this person means, asked before: the last owner leaves the integration without one. */
function removalQuestion(member: TeamMember, owners: number) {
  const lastOwner = member.role === 'propietario' && owners <= 1;
  return {
    kind: 'text' as const,
    title: `¿Quitar a ${member.name} del portal?`,
    message: `${member.email} ya no podrá entrar y sus sesiones se cierran al momento${member.role === 'propietario' ? '; las invitaciones pendientes que envió dejan de servir' : ''}. Los tokens de la integración siguen funcionando.${lastOwner ? ' Es el único propietario: nadie podrá invitar ni quitar personas desde el portal hasta que invites a otro propietario aquí.' : ''}`,
    confirmLabel: 'Quitar del portal',
  };
}

/**
 * The integration's people in the integrators' portal (lib/surfaces/portal), with their last sign-in, and
 * its invitations not yet accepted (pending, or expired in the last days). Administrators invite
 * (an integration's first owner; owners invite the rest from the portal), remove a person and send
 * an invitation again; support staff read.
 */
export async function PortalUsersSection({ integrationId, isAdmin }: { integrationId: number; isAdmin: boolean }) {
  const { members, invitations, owners, mail } = await portalUsersView(integrationId);
  return (
    <section className="card" aria-labelledby="portal-users-title" data-testid="portal-users">
      <h2 id="portal-users-title">Usuarios del portal</h2>
      <p className="small muted">
        Las personas del integrador que entran a /portal con su propia cuenta: ven su saldo y su equipo. Los tokens son de la integración, no de una persona.
      </p>
      <PortalUsersNotices>
        {members.length === 0 ? (
          <EmptyState title="Nadie de esta integración usa el portal todavía." />
        ) : (
          <div className="table-wrap" role="region" aria-label="Usuarios del portal" tabIndex={0}>
            <table className="data stacked" data-testid="portal-users-list">
              <thead>
                <tr>
                  <th>Nombre</th>
                  <th>Correo</th>
                  <th>Rol</th>
                  <th>Último inicio de sesión</th>
                  {isAdmin && <th>Acciones</th>}
                </tr>
              </thead>
              <tbody>
                {members.map((member) => (
                  <tr key={member.id}>
                    <td data-label="Nombre">{member.name}</td>
                    <td data-label="Correo">
                      <EmailAddress email={member.email} />
                    </td>
                    <td data-label="Rol">{PORTAL_ROLE_LABELS[member.role]}</td>
                    <td data-label="Último inicio de sesión" data-testid="portal-user-last-sign-in">
                      {member.lastSignInAt ? formatDateTime(member.lastSignInAt) : 'Nunca'}
                    </td>
                    {isAdmin && (
                      <td data-label="Acciones">
                        <RemovePortalUserForm integrationId={integrationId} memberId={member.id} confirmation={removalQuestion(member, owners)} />
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <h3>Invitaciones sin aceptar</h3>
        {invitations.length === 0 ? (
          <p className="muted">Ninguna.</p>
        ) : (
          <div className="table-wrap" role="region" aria-label="Invitaciones sin aceptar" tabIndex={0}>
            <table className="data stacked" data-testid="portal-invitations">
              <thead>
                <tr>
                  <th>Correo</th>
                  <th>Rol</th>
                  <th>Estado</th>
                  {isAdmin && <th>Acciones</th>}
                </tr>
              </thead>
              <tbody>
                {invitations.map((invitation) => (
                  <tr key={invitation.id}>
                    <td data-label="Correo">
                      <EmailAddress email={invitation.email} />
                    </td>
                    <td data-label="Rol">{PORTAL_ROLE_LABELS[invitation.role]}</td>
                    <td data-label="Estado" data-testid="portal-invitation-state">
                      {invitation.expired ? `Venció el ${formatDateTime(invitation.expiresAt)}` : `Pendiente; vence el ${formatDateTime(invitation.expiresAt)}`}
                    </td>
                    {isAdmin && (
                      <td data-label="Acciones">
                        <div className="row-actions">
                        <ResendInvitationForm
                          integrationId={integrationId}
                          invitationId={invitation.id}
                          confirmation={{
                            kind: 'text',
                            title: `¿Reenviar la invitación a ${invitation.email}?`,
                            message: `Se envía un enlace nuevo, de un solo uso, que vence en ${INVITATION_TERMS.validHours} horas. El enlace anterior deja de servir al momento.`,
                            confirmLabel: 'Reenviar invitación',
                          }}
                        />
                        <CancelInvitationForm
                          integrationId={integrationId}
                          invitationId={invitation.id}
                          confirmation={{
                            kind: 'text',
                            title: `¿Cancelar la invitación a ${invitation.email}?`,
                            message: 'Su enlace deja de servir al momento y su página dirá que la invitación fue cancelada.',
                            confirmLabel: 'Cancelar invitación',
                          }}
                        />
                        </div>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <p className="small muted">Las invitaciones vencidas se listan {INVITATION_TERMS.expiredListedDays} días; después, invite de nuevo.</p>
      </PortalUsersNotices>
      {isAdmin && (
        <>
          <h3>Invitar al portal</h3>
          {!mail && (
            <p className="notice warn">
              Este servicio no tiene servidor de correo: las invitaciones no se pueden enviar. Configure ALERT_SMTP_HOST y ALERT_EMAIL_FROM
              (ALERT_SMTP_*, con STARTTLS o ALERT_SMTP_SECURE), o entregue un enlace una vez con la CLI:{' '}
              <code>portal:invite --link --reason &quot;…&quot;</code> (el motivo queda en la auditoría).
            </p>
          )}
          <ActionForm action={invitePortalUserAction} hidden={{ integrationId }} submitLabel="Enviar invitación" pendingLabel="Enviando…" resetOnSuccess>
            <Field name="email" label="Correo de la persona" type="email" autoComplete="off" maxLength={254} data-testid="portal-invite-email" />
            <Field name="rol" label="Rol en el portal" options={ROLE_OPTIONS} defaultValue="" required hint="El primer propietario invita después al resto de su equipo desde el portal." data-testid="portal-invite-role" />
          </ActionForm>
        </>
      )}
    </section>
  );
}
