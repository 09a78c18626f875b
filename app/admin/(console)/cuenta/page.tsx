import type { Metadata } from 'next';
import { SessionsList } from '@/components/account/sessions-list';
import { PageHeader } from '@/components/console/page-header';
import { TwoFactorSection } from '@/components/two-factor/section';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { ROLE_LABELS } from '@/lib/presentation/labels';
import { MIN_PASSWORD_LENGTH } from '@/lib/platform/security/passwords';
import { accountView } from '@/lib/surfaces/console/account';
import { env } from '@/lib/platform/settings/env';
import { endOwnSessionAction } from './actions';
import { ChangePasswordForm } from './change-password-form';
import { CONSOLE_PLACE, CONSOLE_TWO_FACTOR_ACTIONS } from './two-factor';

export const metadata: Metadata = { title: 'Mi cuenta' };

export default async function AccountPage() {
  const user = await requirePageUser('support');
  const { sessions, twoFactor, sessionHours } = await accountView(user);
  return (
    <>
      <PageHeader title="Mi cuenta" description={`${user.name} · ${user.email} · ${ROLE_LABELS[user.role]}`} />
      {user.origin === 'identity_provider' && (
        <section className="card" style={{ maxWidth: 520 }}>
          <h2>Contraseña y verificación</h2>
          <p className="small muted">Entra con el proveedor de identidad de la empresa: su contraseña, su verificación en dos pasos y su rol se administran allí.</p>
        </section>
      )}
      {user.origin === 'local' && (
        <>
          <section className="card" style={{ maxWidth: 520 }}>
            <h2>Cambiar contraseña</h2>
            <p className="small muted">Al cambiarla se cierran todas sus sesiones, también esta.</p>
            <ChangePasswordForm minLength={MIN_PASSWORD_LENGTH} />
          </section>
          <section className="card" style={{ maxWidth: 520 }} aria-labelledby="two-factor-heading">
            <h2 id="two-factor-heading">Verificación en dos pasos</h2>
            <TwoFactorSection
              enrolled={twoFactor.enrolled}
              recoveryCodesLeft={twoFactor.recoveryCodesLeft}
              required={twoFactor.required}
              requiredNote="Es obligatoria para los administradores."
              actions={CONSOLE_TWO_FACTOR_ACTIONS}
              place={CONSOLE_PLACE}
              serviceName={env().SERVICE_NAME}
            />
          </section>
        </>
      )}
      <section className="card">
        <h2>Sesiones activas</h2>
        <p className="small muted">
          Cada navegador donde inició sesión en las últimas {sessionHours} horas. Si no reconoce alguna, ciérrela y cambie su contraseña.
        </p>
        <SessionsList sessions={sessions} endSession={endOwnSessionAction} />
      </section>
    </>
  );
}
