import { ActionForm, Field } from '@/components/console/action-form';
import { EmptyState } from '@/components/console/page-header';
import { formatDateTime } from '@/lib/format/guatemala-time';
import { portalMailAvailable } from '@/lib/portal/mail';
import { PORTAL_ROLE_LABELS, PORTAL_ROLES } from '@/lib/portal/roles';
import { teamOf } from '@/lib/portal/team';
import { invitePortalUserAction } from './portal-users-actions';

const ROLE_OPTIONS = PORTAL_ROLES.map((role) => ({ value: role, label: PORTAL_ROLE_LABELS[role] }));

/**
 * The integration's people in the integrators' portal (lib/portal) and its pending invitations.
 * Administrators invite (an integration's first owner; owners invite the rest from the portal);
 * support staff read.
 */
export async function PortalUsersSection({ integrationId, isAdmin }: { integrationId: number; isAdmin: boolean }) {
  const team = await teamOf(integrationId);
  const mail = portalMailAvailable();
  return (
    <section className="card" aria-labelledby="portal-users-title" data-testid="portal-users">
      <h2 id="portal-users-title">Usuarios del portal</h2>
      <p className="small muted">
        Las personas del integrador que entran a /portal con su propia cuenta: ven su saldo y su equipo. Los tokens son de la integración, no de una persona.
      </p>
      {team.members.length === 0 ? (
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
              </tr>
            </thead>
            <tbody>
              {team.members.map((member) => (
                <tr key={member.id}>
                  <td data-label="Nombre">{member.name}</td>
                  <td data-label="Correo" className="break-anywhere">
                    {member.email}
                  </td>
                  <td data-label="Rol">{PORTAL_ROLE_LABELS[member.role]}</td>
                  <td data-label="Último inicio de sesión">{member.lastSignInAt ? formatDateTime(member.lastSignInAt) : 'Nunca'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3>Invitaciones pendientes</h3>
      {team.invitations.length === 0 ? (
        <p className="muted">Ninguna.</p>
      ) : (
        <ul data-testid="portal-invitations">
          {team.invitations.map((invitation) => (
            <li key={invitation.id}>
              <span className="break-anywhere">{invitation.email}</span> · {PORTAL_ROLE_LABELS[invitation.role]} · vence el {formatDateTime(invitation.expiresAt)}
            </li>
          ))}
        </ul>
      )}
      {isAdmin && (
        <>
          <h3>Invitar al portal</h3>
          {!mail && (
            <p className="notice warn">
              Este servicio no tiene servidor de correo (ALERT_SMTP_HOST): las invitaciones no se pueden enviar.
            </p>
          )}
          <ActionForm action={invitePortalUserAction} hidden={{ integrationId }} submitLabel="Enviar invitación" pendingLabel="Enviando…" resetOnSuccess>
            <Field name="email" label="Correo de la persona" type="email" autoComplete="off" maxLength={254} data-testid="portal-invite-email" />
            <Field name="rol" label="Rol en el portal" options={ROLE_OPTIONS} defaultValue="propietario" hint="El primer propietario invita después al resto de su equipo desde el portal." data-testid="portal-invite-role" />
          </ActionForm>
        </>
      )}
    </section>
  );
}
