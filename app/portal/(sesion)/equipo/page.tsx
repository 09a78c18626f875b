import type { Metadata } from 'next';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { CopyButton } from '@/components/console/copy-button';
import { EmailAddress } from '@/components/email-address';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { PORTAL_ROLE_LABELS, TEAM_MANAGERS } from '@/lib/surfaces/portal/page-access';
import { requirePortalPage } from '@/lib/surfaces/portal/session';
import { portalTeam } from '@/lib/surfaces/portal/team';
import {
  IDENTITY_PROVIDER_MANAGERS,
  portalIdentityProvider,
  portalIdentityProviderRedirectUris,
  type IntegrationIdentityProviderView,
} from '@/lib/surfaces/portal/identity-provider';
import { IdentityProviderForm, InvitationActions, InviteMemberForm, MemberRoleForm, PassToProviderForm, RemoveIdentityProviderForm, RemoveMemberForm, TeamNotices } from './team-forms';

export const metadata: Metadata = { title: 'Equipo' };

// The people of the owner's integration and its pending invitations (owners only).
export default async function PortalTeamPage() {
  const user = await requirePortalPage(TEAM_MANAGERS);
  const team = await portalTeam(user);
  const managesSignIn = IDENTITY_PROVIDER_MANAGERS.includes(user.role);
  const provider = managesSignIn ? await portalIdentityProvider(user) : null;
  const howTheyEnter = provider
    ? `Quienes tienen un correo de ${provider.emailDomain} entran con la cuenta de la empresa; las demás, con su propio correo y contraseña.`
    : 'Cada una entra con su propio correo y contraseña.';
  return (
    <>
      <PageHeader title="Equipo" description={`Las personas de «${user.integrationName}» en el portal. ${howTheyEnter}`} />
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
                      {member.origin === 'identity_provider' && <div className="small muted">Entra con la cuenta de la empresa</div>}
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
                      {member.id !== user.id && provider && member.origin === 'local' && member.email.toLowerCase().endsWith(`@${provider.emailDomain}`) && !provider.breakGlassEmails.includes(member.email.toLowerCase()) && (
                        <PassToProviderForm memberId={member.id} name={member.name} />
                      )}
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
      {managesSignIn && <CompanySignInSection provider={provider} />}
    </>
  );
}

/** Said when the browser refuses to copy an address (usted, as the portal speaks). */
const COPY_FAILED = 'No se pudo copiar: seleccione la dirección y cópiela a mano.';

// «Inicio de sesión con la cuenta de la empresa» (owners only): the company's own identity
// provider, the addresses to register there, and the form that names it.
function CompanySignInSection({ provider }: { provider: IntegrationIdentityProviderView | null }) {
  const uris = portalIdentityProviderRedirectUris();
  return (
    <section className="card" style={{ maxWidth: 720 }} aria-labelledby="company-sign-in-title" data-testid="company-sign-in">
      <h2 id="company-sign-in-title">Inicio de sesión con la cuenta de la empresa</h2>
      <p className="small">
        Si su empresa usa un proveedor de identidad compatible con OpenID Connect (Microsoft Entra ID, Google Workspace, Okta, Keycloak u otro), las personas del
        equipo con un correo de su dominio entran al portal con la cuenta de la empresa, sin una contraseña de este portal. Su rol aquí sigue los grupos que el
        proveedor les asigna: si cambian sus grupos allá, cambia su rol; si la empresa desactiva su cuenta, dejan de entrar. Las cuentas de emergencia que usted
        elija conservan su contraseña, para entrar aunque el proveedor no responda.
      </p>
      <p className="small" data-testid="company-sign-in-state">
        {provider ? (
          <>
            Activo: quienes tienen un correo de <strong>{provider.emailDomain}</strong> entran con la cuenta de la empresa.
          </>
        ) : (
          'Sin configurar: todas las personas del equipo entran con su correo y contraseña.'
        )}
      </p>
      <h3>Registre estas direcciones en su proveedor</h3>
      <p className="small muted">
        Registre el portal como aplicación web con código de autorización y PKCE, y pida que el inicio de sesión incluya el correo de la persona y sus grupos. Su
        proveedor le dará el id de cliente y el secreto que se piden abajo.
      </p>
      {/* One below the other: a two-column list would put the long addresses beside their names, past a phone's width. */}
      <div className="stack" data-testid="company-sign-in-addresses">
        <div>
          <p className="small muted">Dirección de retorno (redirect URI)</p>
          <div className="mono break-anywhere" data-testid="idp-callback-uri">
            {uris.callback}
          </div>
          <CopyButton text={uris.callback} accessibleName="Copiar la dirección de retorno" failedHint={COPY_FAILED} />
        </div>
        <div>
          <p className="small muted">Cierre de sesión por canal trasero (back-channel logout URI)</p>
          <div className="mono break-anywhere" data-testid="idp-backchannel-logout-uri">
            {uris.backchannelLogout}
          </div>
          <CopyButton text={uris.backchannelLogout} accessibleName="Copiar la dirección de cierre de sesión" failedHint={COPY_FAILED} />
        </div>
      </div>
      <h3>{provider ? 'Su proveedor' : 'Configurar su proveedor'}</h3>
      <IdentityProviderForm
        provider={
          provider && {
            issuer: provider.issuer,
            clientId: provider.clientId,
            emailDomain: provider.emailDomain,
            roleClaim: provider.roleClaim,
            roleValues: provider.roleValues,
            breakGlassEmails: provider.breakGlassEmails,
          }
        }
      />
      {provider && <RemoveIdentityProviderForm />}
    </section>
  );
}
