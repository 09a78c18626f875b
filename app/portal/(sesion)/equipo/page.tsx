import type { Metadata } from 'next';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { EmailAddress } from '@/components/email-address';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { PORTAL_ROLE_LABELS, TEAM_MANAGERS } from '@/lib/surfaces/portal/page-access';
import { requirePortalPage } from '@/lib/surfaces/portal/session';
import { portalTeam } from '@/lib/surfaces/portal/team';
import { InvitationActions, InviteMemberForm, MemberRoleForm, RemoveMemberForm, TeamNotices } from './team-forms';

export const metadata: Metadata = { title: 'Equipo' };

// The people of the owner's integration and its pending invitations (owners only).
export default async function PortalTeamPage() {
  const user = await requirePortalPage(TEAM_MANAGERS);
  const team = await portalTeam(user);
  return (
    <>
      <PageHeader title="Equipo" description={`Las personas de «${user.integrationName}» en el portal. Cada una entra con su propio correo y contraseña.`} />
      <TeamNotices>
        <section className="card" aria-labelledby="members-title">
          <h2 id="members-title">Personas</h2>
          <div className="table-wrap" role="region" aria-label="Personas del equipo" tabIndex={0}>
            <table className="data stacked" data-testid="team-members">
              <thead>
                <tr>
                  <th>Nombre</th>
                  <th>Correo</th>
                  <th>Rol</th>
                  <th>Último inicio de sesión</th>
                  <th>Acciones</th>
                </tr>
              </thead>
              <tbody>
                {team.members.map((member) => (
                  <tr key={member.id} data-member={member.email}>
                    <td data-label="Nombre">
                      {member.name}
                      {member.id === user.id && <span className="badge">Usted</span>}
                    </td>
                    <td data-label="Correo">
                      <EmailAddress email={member.email} />
                    </td>
                    <td data-label="Rol">{PORTAL_ROLE_LABELS[member.role]}</td>
                    <td data-label="Último inicio de sesión" className="small">
                      {member.lastSignInAt ? formatDateTime(member.lastSignInAt) : 'Nunca'}
                    </td>
                    <td className="row-actions">
                      <MemberRoleForm memberId={member.id} name={member.name} role={member.role} />
                      {member.id !== user.id && <RemoveMemberForm memberId={member.id} name={member.name} />}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
        <section className="card" aria-labelledby="invitations-title">
          <h2 id="invitations-title">Invitaciones pendientes</h2>
          {team.invitations.length === 0 ? (
            <EmptyState title="Ninguna invitación pendiente." />
          ) : (
            <div className="table-wrap" role="region" aria-label="Invitaciones pendientes" tabIndex={0}>
              <table className="data stacked" data-testid="team-invitations">
                <thead>
                  <tr>
                    <th>Correo</th>
                    <th>Rol</th>
                    <th>Vence</th>
                    <th>Acciones</th>
                  </tr>
                </thead>
                <tbody>
                  {team.invitations.map((invitation) => (
                    <tr key={invitation.id} data-invitation={invitation.email}>
                      <td data-label="Correo">
                        <EmailAddress email={invitation.email} />
                      </td>
                      <td data-label="Rol">{PORTAL_ROLE_LABELS[invitation.role]}</td>
                      <td data-label="Vence" className="small">
                        {formatDateTime(invitation.expiresAt)}
                      </td>
                      <td className="row-actions">
                        <InvitationActions invitationId={invitation.id} email={invitation.email} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      </TeamNotices>
      <section className="card" style={{ maxWidth: 560 }} aria-labelledby="invite-title">
        <h2 id="invite-title">Invitar a una persona</h2>
        <p className="small muted">Le llega un enlace por correo que sirve una vez y vence en 72 horas; con él elige su contraseña.</p>
        <InviteMemberForm />
      </section>
    </>
  );
}
