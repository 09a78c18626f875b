import type { Metadata } from 'next';
import { PageHeader } from '@/components/console/page-header';
import { ActiveBadge } from '@/components/console/status-badge';
import { EmailAddress } from '@/components/email-address';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { ROLE_LABELS, TWO_FACTOR_LABELS, USER_ORIGIN_LABELS, USER_STATE_LABELS } from '@/lib/presentation/labels';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { consoleUsersView } from '@/lib/surfaces/console/users';
import { CreateUserForm, UserRowActions } from './user-forms';

export const metadata: Metadata = { title: 'Usuarios' };

export default async function UsersPage() {
  const currentUser = await requirePageUser('admin');
  const { users, sessionCounts, twoFactorUsers, twoFactorRequired, identityProvider } = await consoleUsersView();
  return (
    <>
      <PageHeader
        title="Usuarios de la consola"
        description="Administradores (todo) y soporte (solo lectura de integraciones, registros y panel). Debe quedar siempre al menos un administrador activo."
      />
      <section className="card">
        <h2>Nuevo usuario</h2>
        <CreateUserForm />
      </section>
      <div className="table-wrap" role="region" aria-label="Usuarios" tabIndex={0}>
        <table className="data stacked" data-testid="users">
          <thead>
            <tr>
              <th>Usuario</th>
              <th>Rol</th>
              <th>Estado</th>
              <th>Entra con</th>
              <th>Último inicio de sesión</th>
              <th>Contraseña cambiada</th>
              <th>Verificación en dos pasos</th>
              <th>Sesiones</th>
              <th>Acciones</th>
            </tr>
          </thead>
          <tbody>
            {users.map((user) => (
              <tr key={user.id}>
                <td data-label="Usuario">
                  <div>
                    <strong>{user.name}</strong>
                  {user.id === currentUser.id && <span className="badge">Usted</span>}
                    <div className="small muted">
                      <EmailAddress email={user.email} />
                    </div>
                  </div>
                </td>
                <td data-label="Rol">{ROLE_LABELS[user.role]}</td>
                <td data-label="Estado">
                  <ActiveBadge active={user.active} on={USER_STATE_LABELS.active} off={USER_STATE_LABELS.disabled} />
                </td>
                <td className="small" data-label="Entra con">
                  {USER_ORIGIN_LABELS[user.origin]}
                  {user.origin === 'local' && identityProvider?.breakGlassEmails.includes(user.email.toLowerCase()) && <div className="muted">Cuenta de emergencia</div>}
                  {user.origin === 'identity_provider' && <div className="muted">El rol lo decide su directorio</div>}
                </td>
                <td className="nowrap small" data-label="Último inicio de sesión">
                  {user.lastSignInAt ? formatDateTime(user.lastSignInAt) : 'Nunca'}
                </td>
                <td className="nowrap small" data-label="Contraseña cambiada">
                  {user.origin === 'local' ? formatDateTime(user.passwordChangedAt) : 'Sin contraseña'}
                  {user.origin === 'local' && user.mustChangePassword && <div className="muted">Debe cambiarla al entrar</div>}
                </td>
                <td className="small" data-label="Verificación en dos pasos">
                  {twoFactorUsers.has(user.id) ? TWO_FACTOR_LABELS.enrolled : TWO_FACTOR_LABELS.notEnrolled}
                  {!twoFactorUsers.has(user.id) && twoFactorRequired && <div className="muted">{TWO_FACTOR_LABELS.enrolsAtSignIn}</div>}
                </td>
                <td className="nowrap small" data-label="Sesiones">
                  {sessionCounts.get(user.id) ?? 0}
                </td>
                <td className="row-actions">
                  <UserRowActions
                    userId={user.id}
                    name={user.name}
                    email={user.email}
                    role={user.role}
                    active={user.active}
                    isSelf={user.id === currentUser.id}
                    activeSessions={sessionCounts.get(user.id) ?? 0}
                    twoFactor={twoFactorUsers.has(user.id)}
                    origin={user.origin}
                    linkableTo={identityProvider && user.origin === 'local' && !identityProvider.breakGlassEmails.includes(user.email.toLowerCase()) ? identityProvider.name : null}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
